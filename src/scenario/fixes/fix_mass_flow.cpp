// The mass_flow measurement: the net number and mass of particles whose centre crossed each
// plane over an interval (a silo's discharge rate), one row per plane in mass_flow.csv. The
// integrator moves a centre by x' = x + Δt v', so the step's segment is [x' − Δt v', x']: a
// centre counts +1 (and its mass) when the segment goes from the plane's negative side
// ((x − p)·n < 0) to the other, −1 the other way. It runs before the outflow, so particles
// leaving the domain in the same step are counted.
#include "interval_sums.hpp"

#include <cstdio>

namespace granite::scenario::detail {
namespace {

class MassFlowFix final : public IntervalSums {
public:
  MassFlowFix(const config::MassFlowSettings& settings, double dt, RunContext& run,
              bool restarting) :
      IntervalSums(Cadence::every_interval(settings.interval, dt), 2 * settings.planes.size(), run,
                   "mass_flow.csv",
                   "step,time_s,plane,counted_s,crossings,mass_kg,rate_per_s,rate_kg_per_s\n",
                   restarting),
      settings_(settings) {}

  const char* name() const override { return "mass_flow"; }
  std::string description() const override {
    return "net particles and mass through " + std::to_string(settings_.planes.size()) +
           " plane(s) every " + std::to_string(settings_.interval) + " s (mass_flow.csv)";
  }

private:
  // Per plane: net crossings, net mass.
  void add_step(const RunContext& run, std::vector<double>& step) const override {
    const body::Particles& p = run.sim.particles();
    const double dt = run.sim.parameters().dt;
    for (std::size_t k = 0; k < settings_.planes.size(); ++k) {
      const config::FlowPlane& plane = settings_.planes[k];
      for (std::size_t i = 0; i < p.size(); ++i) {
        const double after = (p.position[i] - plane.point).dot(plane.normal);
        const double before = after - dt * p.velocity[i].dot(plane.normal);
        const double sign = (before < 0.0 && after >= 0.0)   ? 1.0
                            : (before >= 0.0 && after < 0.0) ? -1.0
                                                             : 0.0;
        step[2 * k] += sign;
        step[2 * k + 1] += sign * p.mass[i];
      }
    }
  }

  std::string rows(const timestep::StepStatistics& stats, const std::vector<double>& sums,
                   double span) const override {
    std::string out;
    for (std::size_t k = 0; k < settings_.planes.size(); ++k) {
      char line[256];
      std::snprintf(line, sizeof line, "%lld,%.9g,%zu,%.9g,%.0f,%.9e,%.9e,%.9e\n",
                    static_cast<long long>(stats.step), stats.time, k, span, sums[2 * k],
                    sums[2 * k + 1], sums[2 * k] / span, sums[2 * k + 1] / span);
      out += line;
    }
    return out;
  }

  config::MassFlowSettings settings_;
};

}  // namespace

std::unique_ptr<Fix> make_mass_flow(const config::MassFlowSettings& settings, double dt,
                                    RunContext& run, bool restarting) {
  return std::make_unique<MassFlowFix>(settings, dt, run, restarting);
}

}  // namespace granite::scenario::detail
