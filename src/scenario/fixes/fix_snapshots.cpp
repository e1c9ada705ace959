// The snapshots fix: an HDF5 snapshot (with XDMF sidecars and series.xdmf) every
// output.snapshot_interval and after the last step, and of the initial state at t = 0 unless
// output.snapshot_initial is false or the run restarts (io/snapshot.hpp). Each snapshot also
// holds the global bodies' surfaces at their current positions (/global_bodies,
// io/global_body_mesh.hpp).
#include "fix_factories.hpp"

#include "granite/io/global_body_mesh.hpp"

namespace granite::scenario::detail {
namespace {

class SnapshotsFix final : public Fix {
public:
  SnapshotsFix(Cadence cadence, const io::SnapshotInfo& info, bool initial, const Domain& domain,
               RunContext& run) :
      cadence_(cadence),
      info_(info), initial_(initial), domain_(domain), writer_(run.output_dir, run.comm) {}

  const char* name() const override { return "snapshots"; }
  // A snapshot holds the particles after the step's insertions and deletions.
  std::vector<std::string> runs_after() const override { return {"inflow", "pour_*", "outflow"}; }
  std::string description() const override {
    return cadence_.steps() > 0 ? "HDF5 snapshot every " + std::to_string(cadence_.steps()) +
                                      " steps and of the final state"
                                : "HDF5 snapshot of the final state";
  }

  void start(RunContext& run) override {
    if (initial_) write(run, run.sim.steps(), run.sim.time());
  }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd& end) override {
    if (!cadence_.due(stats.step, end.last)) return;
    write(run, stats.step, stats.time);
  }

private:
  void write(RunContext& run, std::int64_t step, double time) {
    info_.time = time;
    info_.step = step;
    // This rank's part: the analytic bodies on rank 0, the mesh triangles on their owners.
    const io::SurfaceMesh bodies = io::global_body_mesh(run.sim.globals(), domain_.min, domain_.max,
                                                        io::kCylinderSegments, run.comm.is_root());
    info_.global_bodies = &bodies;
    writer_.write(run.sim.particles(), info_);
    info_.global_bodies = nullptr;
  }

  Cadence cadence_;
  io::SnapshotInfo info_;
  bool initial_;
  Domain domain_;  // half-spaces are drawn clipped to it
  io::SnapshotWriter writer_;
};

}  // namespace

std::unique_ptr<Fix> make_snapshots(Cadence cadence, const io::SnapshotInfo& info, bool initial,
                                    const Domain& domain, RunContext& run) {
  return std::make_unique<SnapshotsFix>(cadence, info, initial, domain, run);
}

}  // namespace granite::scenario::detail
