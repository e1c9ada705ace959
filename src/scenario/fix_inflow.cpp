// The inflow fix: after every step the resetting piston advances and, when it has travelled
// a layer's distance, a new lattice layer is created (scenario/inflow.hpp).
#include "fix_factories.hpp"

#include <optional>

namespace granite::scenario::detail {
namespace {

class InflowFix final : public Fix {
public:
  InflowFix(const config::InflowSettings& settings, BodyId first_id, std::uint64_t seed,
            double dt) :
      settings_(settings),
      inflow_(settings, first_id, seed), dt_(dt) {}

  const char* name() const override { return "inflow"; }
  std::string description() const override {
    return "resetting piston (body " + std::to_string(settings_.piston) + "): a layer of " +
           std::to_string(inflow_.layer_size()) + " spheres every " +
           std::to_string(settings_.layer_every) + " m of travel";
  }
  Phase phase() const override { return Phase::other; }

  void end_of_step(RunContext& run, const timestep::StepStatistics&, const StepEnd&) override {
    run.counters.generated += inflow_.after_step(run.sim, dt_, run.owns);
  }

  bool has_state() const override { return true; }
  std::string state() const override { return inflow_.state(); }
  void restore(const std::string& text) override { inflow_.restore(text); }

private:
  config::InflowSettings settings_;
  Inflow inflow_;
  double dt_;
};

}  // namespace

std::unique_ptr<Fix> make_inflow(const config::InflowSettings& settings, BodyId first_id,
                                 std::uint64_t seed, double dt) {
  return std::make_unique<InflowFix>(settings, first_id, seed, dt);
}

}  // namespace granite::scenario::detail
