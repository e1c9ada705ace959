// The checkpoints fix: OUTPUT/checkpoint.h5 (replaced atomically) every
// output.checkpoint_interval, after the last step, and when a stop is requested — then with
// the command that continues the run. A checkpoint holds the particles, the clock, the global
// bodies' positions, the resolved configuration, every fix's restart state and the engine's
// (scenario/engine_state.hpp).
#include "fix_factories.hpp"

#include "granite/core/log.hpp"
#include "granite/io/checkpoint.hpp"
#include "granite/scenario/engine_state.hpp"
#include "granite/scenario/fixes/fixes.hpp"
#include "granite/scenario/progress.hpp"

namespace granite::scenario::detail {
namespace {

class CheckpointsFix final : public Fix {
public:
  CheckpointsFix(Cadence cadence, std::string config_text) :
      cadence_(cadence), config_text_(std::move(config_text)) {}

  const char* name() const override { return "checkpoints"; }
  // A checkpoint holds the state of the step's end: every fix that changes particles or keeps
  // restart state has run.
  std::vector<std::string> runs_after() const override {
    return {"balance", "body_forces", "mass_flow", "grid",       "motion",
            "inflow",  "pour_*",      "outflow",   "statistics", "compatible"};
  }
  std::string description() const override {
    return (cadence_.steps() > 0
                ? "checkpoint.h5 every " + std::to_string(cadence_.steps()) + " steps, "
                : std::string("checkpoint.h5 ")) +
           "at the end and on SIGTERM/SIGUSR1";
  }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd& end) override {
    if (!cadence_.due(stats.step, end.last || end.stop)) return;
    io::CheckpointState state;
    state.step = run.sim.steps();
    state.time = run.sim.time();
    state.global_anchors = run.sim.globals().anchors();
    state.fixes = fix_states(*run.fixes);
    save_engine_state(run.sim, run.comm, state);
    state.config = config_text_;
    const std::string path = (std::filesystem::path(run.output_dir) / "checkpoint.h5").string();
    io::write_checkpoint(path, run.sim.particles(), state, run.comm);
    run.last_checkpoint = path + " (step " + std::to_string(state.step) + ")";
    run.checkpoint = {path, state.step, state.time, unix_seconds_now()};
    if (end.stop)
      log::info("stopped on request at step " + std::to_string(stats.step) +
                "; continue with: granite run " + run.config_file + " --output " + run.output_dir +
                " --restart " + path);
  }

private:
  Cadence cadence_;
  std::string config_text_;
};

}  // namespace

std::unique_ptr<Fix> make_checkpoints(Cadence cadence, std::string config_text) {
  return std::make_unique<CheckpointsFix>(cadence, std::move(config_text));
}

}  // namespace granite::scenario::detail
