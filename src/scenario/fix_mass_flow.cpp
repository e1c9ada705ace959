// The mass_flow measurement: the net number and mass of particles whose centre crossed each
// plane over an interval (a silo's discharge rate), one row per plane in mass_flow.csv. The
// integrator moves a centre by x' = x + Δt v', so the step's segment is [x' − Δt v', x']: a
// centre counts +1 (and its mass) when the segment goes from the plane's negative side
// ((x − p)·n < 0) to the other, −1 the other way. It runs before the outflow, so particles
// leaving the domain in the same step are counted.
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"

#include <cstdio>

namespace granite::scenario::detail {
namespace {

class MassFlowFix final : public Fix {
public:
  MassFlowFix(const config::MassFlowSettings& settings, double dt, RunContext& run,
              bool restarting) :
      cadence_(Cadence::every_interval(settings.interval, dt)),
      settings_(settings), sums_(2 * settings.planes.size() + 1, 0.0) {
    csv_ = open_table(run, "mass_flow.csv",
                      "step,time_s,plane,counted_s,crossings,mass_kg,rate_per_s,rate_kg_per_s\n",
                      restarting);
  }

  const char* name() const override { return "mass_flow"; }
  std::string description() const override {
    return "net particles and mass through " + std::to_string(settings_.planes.size()) +
           " plane(s) every " + std::to_string(settings_.interval) + " s (mass_flow.csv)";
  }

  // One allreduce of 2 doubles per plane per step keeps the state the same on every rank.
  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd&) override {
    const body::Particles& p = run.sim.particles();
    const double dt = run.sim.parameters().dt;
    std::vector<double> step(sums_.size() - 1, 0.0);
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
    comm::sum_in_place(step, run.comm);
    for (std::size_t i = 0; i < step.size(); ++i) sums_[i] += step[i];
    sums_.back() += dt;
    if (!cadence_.due(stats.step, false)) return;  // whole intervals only: see docs/measurements.md
    std::string rows;
    const double span = sums_.back();
    for (std::size_t k = 0; k < settings_.planes.size(); ++k) {
      char line[256];
      std::snprintf(line, sizeof line, "%lld,%.9g,%zu,%.9g,%.0f,%.9e,%.9e,%.9e\n",
                    static_cast<long long>(stats.step), stats.time, k, span, sums_[2 * k],
                    sums_[2 * k + 1], sums_[2 * k] / span, sums_[2 * k + 1] / span);
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
  Cadence cadence_;
  config::MassFlowSettings settings_;
  std::vector<double> sums_;  // per plane: crossings, mass; then the time counted
  io::AppendFile csv_;
};

}  // namespace

std::unique_ptr<Fix> make_mass_flow(const config::MassFlowSettings& settings, double dt,
                                    RunContext& run, bool restarting) {
  return std::make_unique<MassFlowFix>(settings, dt, run, restarting);
}

}  // namespace granite::scenario::detail
