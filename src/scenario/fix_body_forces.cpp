// The body_forces measurement: the mean force and torque of the particles on every global body
// over each interval (wall loads, an obstacle's drag), one row per body in body_forces.csv.
// Hard contacts act by impulses, so the force over an interval is the momentum the particles
// gave the body in it divided by its length: F = −Σ_steps Σ_contacts λ / T (the record's
// impulse acts on the particle, body 1; the body gets −λ), τ = −Σ (x2 − x0) × λ / T about
// the torque point x0, x2 the contact's witness point on the body.
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"

#include <cstdio>

namespace granite::scenario::detail {
namespace {

class BodyForcesFix final : public Fix {
public:
  BodyForcesFix(const config::BodyForceSettings& settings, double dt, RunContext& run,
                bool restarting) :
      cadence_(Cadence::every_interval(settings.interval, dt)),
      interval_(settings.interval), torque_point_(settings.torque_point),
      sums_(6 * run.sim.globals().size() + 1, 0.0) {
    run.sim.set_record_contacts(true);
    csv_ = open_table(run, "body_forces.csv",
                      "step,time_s,body,averaged_s,fx_N,fy_N,fz_N,tx_Nm,ty_Nm,tz_Nm\n", restarting);
  }

  const char* name() const override { return "body_forces"; }
  std::string description() const override {
    return "mean force and torque on each of the " + std::to_string(bodies()) +
           " global bodies every " + std::to_string(interval_) + " s (body_forces.csv)";
  }

  // Every contact is recorded on exactly one rank: the step's sums are reduced at once (one
  // allreduce of 6 doubles per body), so the accumulated state is the same on every rank.
  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd&) override {
    const timestep::ContactRecord& record = run.sim.contact_record();
    std::vector<double> step(sums_.size() - 1, 0.0);
    for (std::size_t c = 0; c < record.size(); ++c) {
      if (record.body2[c] >= 0) continue;
      const std::size_t k = std::size_t(-1 - record.body2[c]);
      const Vec3 impulse = -record.impulse[c];
      const Vec3 moment = (record.point2[c] - torque_point_).cross(impulse);
      for (int a = 0; a < 3; ++a) {
        step[6 * k + std::size_t(a)] += impulse[a];
        step[6 * k + 3 + std::size_t(a)] += moment[a];
      }
    }
    comm::sum_in_place(step, run.comm);
    for (std::size_t i = 0; i < step.size(); ++i) sums_[i] += step[i];
    sums_.back() += record.dt;                     // the time averaged over
    if (!cadence_.due(stats.step, false)) return;  // whole intervals only: see docs/measurements.md
    std::string rows;
    const double span = sums_.back();
    for (std::size_t k = 0; k < bodies(); ++k) {
      char line[320];
      const double* s = &sums_[6 * k];
      std::snprintf(line, sizeof line, "%lld,%.9g,%zu,%.9g,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e\n",
                    static_cast<long long>(stats.step), stats.time, k, span, s[0] / span,
                    s[1] / span, s[2] / span, s[3] / span, s[4] / span, s[5] / span);
      rows += line;
    }
    append_row(run, csv_, rows);
    std::fill(sums_.begin(), sums_.end(), 0.0);
  }

  void finish(RunContext& run) override {
    io::on_root_collectively(run.comm, [&] { csv_.close(); });
  }

  bool has_state() const override { return true; }
  std::string state() const override { return doubles_state(sums_); }
  void restore(const std::string& text) override { restore_doubles(text, sums_, name()); }

private:
  std::size_t bodies() const { return (sums_.size() - 1) / 6; }

  Cadence cadence_;
  double interval_;
  Vec3 torque_point_;
  std::vector<double> sums_;  // per body: impulse (3), angular impulse (3); then the time
  io::AppendFile csv_;
};

}  // namespace

std::unique_ptr<Fix> make_body_forces(const config::BodyForceSettings& settings, double dt,
                                      RunContext& run, bool restarting) {
  return std::make_unique<BodyForcesFix>(settings, dt, run, restarting);
}

}  // namespace granite::scenario::detail
