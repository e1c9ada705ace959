// The snapshots fix: an HDF5 snapshot (with XDMF sidecars and series.xdmf) every
// output.snapshot_interval and after the last step (io/snapshot.hpp).
#include "fix_factories.hpp"

namespace granite::scenario::detail {
namespace {

class SnapshotsFix final : public Fix {
public:
  SnapshotsFix(Cadence cadence, const io::SnapshotInfo& info, RunContext& run) :
      cadence_(cadence), info_(info), writer_(run.output_dir, run.comm) {}

  const char* name() const override { return "snapshots"; }
  std::string description() const override {
    return cadence_.steps() > 0 ? "HDF5 snapshot every " + std::to_string(cadence_.steps()) +
                                      " steps and of the final state"
                                : "HDF5 snapshot of the final state";
  }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd& end) override {
    if (!cadence_.due(stats.step, end.last)) return;
    info_.time = stats.time;
    info_.step = stats.step;
    writer_.write(run.sim.particles(), info_);
  }

private:
  Cadence cadence_;
  io::SnapshotInfo info_;
  io::SnapshotWriter writer_;
};

}  // namespace

std::unique_ptr<Fix> make_snapshots(Cadence cadence, const io::SnapshotInfo& info,
                                    RunContext& run) {
  return std::make_unique<SnapshotsFix>(cadence, info, run);
}

}  // namespace granite::scenario::detail
