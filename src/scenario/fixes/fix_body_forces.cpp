// The body_forces measurement: the mean force and torque of the particles on every global body
// over each interval (wall loads, an obstacle's drag), one row per body in body_forces.csv.
// Hard contacts act by impulses, so the force over an interval is the momentum the particles
// gave the body in it divided by its length: F = −Σ_steps Σ_contacts λ / T (the record's
// impulse acts on the particle, body 1; the body gets −λ), τ = −Σ (x2 − x0) × λ / T about
// the torque point x0, x2 the contact's witness point on the body. Every contact is recorded
// on exactly one rank, so the ranks' sums add up.
#include "interval_sums.hpp"

#include <cstdio>

namespace granite::scenario::detail {
namespace {

class BodyForcesFix final : public IntervalSums {
public:
  BodyForcesFix(const config::BodyForceSettings& settings, double dt, RunContext& run,
                bool restarting) :
      IntervalSums(Cadence::every_interval(settings.interval, dt), 6 * run.sim.globals().size(),
                   run, "body_forces.csv",
                   "step,time_s,body,averaged_s,fx_N,fy_N,fz_N,tx_Nm,ty_Nm,tz_Nm\n", restarting),
      interval_(settings.interval), torque_point_(settings.torque_point),
      bodies_(run.sim.globals().size()) {
    run.sim.set_record_contacts(true);
  }

  const char* name() const override { return "body_forces"; }
  std::string description() const override {
    return "mean force and torque on each of the " + std::to_string(bodies_) +
           " global bodies every " + std::to_string(interval_) + " s (body_forces.csv)";
  }

private:
  // Per body: impulse (3), angular impulse about the torque point (3).
  void add_step(const RunContext& run, std::vector<double>& step) const override {
    const timestep::ContactRecord& record = run.sim.contact_record();
    for (std::size_t c = 0; c < record.size(); ++c) {
      if (record.body2[c] >= 0) continue;
      const std::size_t k = std::size_t(-1 - record.body2[c]);
      const Vec3 impulse = -record.impulse[c];
      Vec3 moment = (record.point2[c] - torque_point_).cross(impulse);
      if (record.rolling) moment -= record.torque[c];  // the couple of rolling resistance
      for (int a = 0; a < 3; ++a) {
        step[6 * k + std::size_t(a)] += impulse[a];
        step[6 * k + 3 + std::size_t(a)] += moment[a];
      }
    }
  }

  std::string rows(const timestep::StepStatistics& stats, const std::vector<double>& sums,
                   double span) const override {
    std::string out;
    for (std::size_t k = 0; k < bodies_; ++k) {
      char line[320];
      const double* s = &sums[6 * k];
      std::snprintf(line, sizeof line, "%lld,%.9g,%zu,%.9g,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e\n",
                    static_cast<long long>(stats.step), stats.time, k, span, s[0] / span,
                    s[1] / span, s[2] / span, s[3] / span, s[4] / span, s[5] / span);
      out += line;
    }
    return out;
  }

  double interval_;
  Vec3 torque_point_;
  std::size_t bodies_;
};

}  // namespace

std::unique_ptr<Fix> make_body_forces(const config::BodyForceSettings& settings, double dt,
                                      RunContext& run, bool restarting) {
  return std::make_unique<BodyForcesFix>(settings, dt, run, restarting);
}

}  // namespace granite::scenario::detail
