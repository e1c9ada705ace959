// The compatible fix (contact.compatible on, docs/compatible_forces.md): chooses the steps
// whose relaxation is followed by the compatible pass (contact.compatible_steps: the steps a
// snapshot writes, or every step; Simulation::set_compatible_steps) and reports the passes: a
// warning line for every pass that stopped above its tolerance, a closing line, and run.json's
// relaxation.compatible section. Its restart state is the running figures.
#include "fix_factories.hpp"

#include "granite/core/log.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace granite::scenario::detail {
namespace {

class CompatibleFix final : public Fix {
public:
  CompatibleFix(const config::ContactSettings& contact, Cadence snapshots, std::int64_t last_step,
                RunContext& run) :
      law_(solver::contact_law_name(*contact.compatible)),
      every_step_(contact.compatible_every_step), tolerance_(contact.compatible_tolerance) {
    // The snapshots fix writes after the step that brought the counter to a due step; a run
    // stopped early by a signal writes its last snapshot without compatible forces.
    if (!every_step_)
      run.sim.set_compatible_steps([snapshots, last_step](std::int64_t step) {
        return snapshots.due(step, step == last_step);
      });
  }

  const char* name() const override { return "compatible"; }
  std::string description() const override {
    return "compatible contact forces (" + law_ + ") after the relaxation of " +
           (every_step_ ? "every step" : "each step a snapshot writes");
  }
  Phase phase() const override { return Phase::other; }

  void end_of_step(RunContext&, const timestep::StepStatistics& s, const StepEnd&) override {
    if (!s.compatible) return;
    figures_[kPasses] += 1;
    figures_[kOuter] += s.compatible_outer_iterations;
    figures_[kInner] += s.compatible_inner_iterations;
    figures_[kViolation] = std::max(figures_[kViolation], s.compatible_violation);
    figures_[kStationarity] = std::max(figures_[kStationarity], s.compatible_stationarity);
    if (s.compatible_converged) return;
    figures_[kUnconverged] += 1;
    char line[320];
    std::snprintf(line, sizeof line,
                  "warning: step %lld: the compatible pass stopped unconverged after %d outer "
                  "(%d inner) iterations: relative violation %.2e, stationarity %.2e "
                  "(contact.compatible_tolerance %g); its forces are written as they are",
                  static_cast<long long>(s.step), s.compatible_outer_iterations,
                  s.compatible_inner_iterations, s.compatible_violation, s.compatible_stationarity,
                  tolerance_);
    log::info(line);
  }

  void finish(RunContext&) override { log::info(summary()); }

  std::vector<RecordSection> record_sections() const override {
    const double passes = figures_[kPasses];
    return {{"relaxation.compatible",
             {{"law", law_},
              {"steps", every_step_ ? "every_step" : "snapshots"},
              {"tolerance", tolerance_},
              {"passes", std::uint64_t(passes)},
              {"unconverged", std::uint64_t(figures_[kUnconverged])},
              {"mean_outer_iterations", passes > 0 ? figures_[kOuter] / passes : 0.0},
              {"mean_inner_iterations", passes > 0 ? figures_[kInner] / passes : 0.0},
              {"max_relative_violation", figures_[kViolation]},
              {"max_stationarity", figures_[kStationarity]}}}};
  }

  bool has_state() const override { return true; }
  std::string state() const override { return doubles_state(figures_); }
  void restore(const std::string& text) override { restore_doubles(text, figures_, "compatible"); }

private:
  enum { kPasses, kUnconverged, kOuter, kInner, kViolation, kStationarity, kCount };

  std::string summary() const {
    const double passes = figures_[kPasses];
    char line[320];
    std::snprintf(line, sizeof line,
                  "compatible (%s): %.0f passes, %.0f unconverged; mean %.1f outer / %.0f inner "
                  "iterations; max relative violation %.2e, max stationarity %.2e (tolerance %g)",
                  law_.c_str(), passes, figures_[kUnconverged],
                  passes > 0 ? figures_[kOuter] / passes : 0.0,
                  passes > 0 ? figures_[kInner] / passes : 0.0, figures_[kViolation],
                  figures_[kStationarity], tolerance_);
    return line;
  }

  std::string law_;
  bool every_step_;
  double tolerance_;
  std::vector<double> figures_ = std::vector<double>(kCount, 0.0);
};

}  // namespace

std::unique_ptr<Fix> make_compatible(const config::ContactSettings& contact, Cadence snapshots,
                                     std::int64_t last_step, RunContext& run) {
  return std::make_unique<CompatibleFix>(contact, snapshots, last_step, run);
}

}  // namespace granite::scenario::detail
