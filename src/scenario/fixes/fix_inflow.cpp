// The inflow fix: after every step the resetting piston advances and, when it has travelled
// a layer's distance, a new lattice layer is created (scenario/inflow.hpp) and checked like an
// initial state (scenario/initial_state.hpp): overlapping the particles still near the piston
// beyond contact.max_initial_overlap is an error.
#include "fix_factories.hpp"

#include "granite/scenario/initial_state.hpp"

#include <optional>

namespace granite::scenario::detail {
namespace {

class InflowFix final : public Fix {
public:
  InflowFix(const config::InflowSettings& settings, BodyId first_id, std::uint64_t seed, double dt,
            double max_overlap) :
      settings_(settings),
      inflow_(settings, first_id, seed), dt_(dt), max_overlap_(max_overlap) {}

  const char* name() const override { return "inflow"; }
  // The measurements see the step's particles, not the new layer.
  std::vector<std::string> runs_after() const override {
    return {"body_forces", "mass_flow", "grid"};
  }
  std::string description() const override {
    return "resetting piston (body " + std::to_string(settings_.piston) + "): a layer of " +
           std::to_string(inflow_.layer_size()) + " spheres every " +
           std::to_string(settings_.layer_every) + " m of travel";
  }
  Phase phase() const override { return Phase::other; }

  void end_of_step(RunContext& run, const timestep::StepStatistics&, const StepEnd&) override {
    const std::size_t created = inflow_.after_step(run.sim, dt_, run.owns);
    if (created == 0) return;
    run.counters.generated += created;
    check_new_layer(run.sim, inflow_.last_layer(), max_overlap_,
                    "inflow layer at step " + std::to_string(run.sim.steps()), run.comm);
  }

  bool has_state() const override { return true; }
  std::string state() const override { return inflow_.state(); }
  void restore(const std::string& text) override { inflow_.restore(text); }

private:
  config::InflowSettings settings_;
  Inflow inflow_;
  double dt_;
  double max_overlap_;
};

}  // namespace

std::unique_ptr<Fix> make_inflow(const config::InflowSettings& settings, BodyId first_id,
                                 std::uint64_t seed, double dt, double max_overlap) {
  return std::make_unique<InflowFix>(settings, first_id, seed, dt, max_overlap);
}

}  // namespace granite::scenario::detail
