#pragma once
// `granite run`: builds the scenario on every rank of `comm` (each rank creates the particles
// of its subdomain), steps it to run.end_time and calls the end-of-step objects
// (scenario/fixes.hpp: inflow, outflow, statistics, thermo, snapshots, checkpoints, FCLIB
// export) after every step; closes with a timing breakdown (min/avg/max over ranks), the bytes
// exchanged per relaxation sweep, and OUTPUT/run.json (the machine-readable record).
#include "granite/config/config.hpp"

#include "granite/comm/communicator.hpp"

#include <string>
#include <vector>

namespace granite::scenario {

struct RunSummary {
  std::int64_t steps = 0;          // done in this run (from first_step)
  std::int64_t first_step = 0;     // the step counter at the start (0, or the restart's step)
  std::int64_t planned_steps = 0;  // steps from 0 to run.end_time
  double start_time = 0.0, end_time = 0.0;  // simulated time at the first and the last step (s)
  std::uint64_t initial_particles = 0;      // over all ranks, after building or restarting
  std::uint64_t particles = 0;              // over all ranks, at the end
  std::uint64_t generated = 0;              // by inflow (all ranks: each layer counted once)
  std::uint64_t deleted = 0;                // by outflow, over all ranks
  std::uint64_t lost = 0;                   // left through a face that is not an outflow face
  std::uint64_t moved_beyond_radius = 0;    // particle-steps that moved farther than the radius
  double wall_seconds = 0.0;
  bool stopped_early = false;            // by request_stop(); a checkpoint was written
  std::string failure;                   // why the run stopped at its last step ("" if it did not)
  std::uint64_t sweeps = 0;              // relaxation sweeps in all
  std::uint64_t unconverged_steps = 0;   // steps whose relaxation stopped at max_sweeps
  double bytes_per_sweep = 0.0;          // relaxation exchange, all ranks
  double skin = 0.0;                     // contact.skin (m)
  bool overlapped_exchange = false;      // solver.exchange as taken (auto resolved)
  std::uint64_t neighbour_rebuilds = 0;  // steps that rebuilt the neighbour lists and ghosts
  double ghost_bytes_per_step = 0.0;     // migration + ghost exchange, all ranks, per step
  double ghosts_per_step = 0.0;          // ghosts, all ranks, per step
  std::vector<double> fc3d_errors;       // each step's fc3d error (the same on every rank)
  double tolerance = 0.0;                // solver.tolerance
  std::string convergence;               // solver.convergence: what the tolerance bounds
};

/// How a run begins: afresh (both paths empty); `restart`: continuing a checkpoint of the same
/// configuration bit for bit; `from`: a new run of this configuration that takes its particles,
/// with their full state, from another run's checkpoint (restart into a changed scene).
struct RunStart {
  std::string restart;
  std::string from;
  bool overwrite = false;  // a fresh run may replace the checkpoint of an unfinished run
};

/// Collective over `comm`. Throws InputError (on every rank) for an unusable output directory,
/// decomposition or restart file, and RunFailure (on every rank, after writing run.json with
/// status "failed") when a step leaves a non-finite position, velocity or impulse on any rank;
/// the run stops at that step, before its snapshot or checkpoint. With `start.restart` (a
/// checkpoint written by a run of the same configuration) the run continues from it; on the
/// same rank count the continuation is bit for bit the uninterrupted run. With `start.from`
/// the configuration's initial particles are replaced by the checkpoint's, redistributed over
/// this run's decomposition; the clock starts at 0 and everything else (materials, global
/// bodies, parameters, end-of-step objects) comes from the configuration.
///
/// Checkpoints go to OUTPUT/checkpoint.h5 (replaced atomically) every
/// output.checkpoint_interval, at the end, and when stop_requested() turns true on any rank
/// (SIGTERM / SIGUSR1, see request_stop()), after which the run ends early.
///
/// A run that does not continue a checkpoint (no `restart`) into a directory holding
/// checkpoint.h5 of a run that did not complete is refused (InputError naming the restart
/// command) unless `overwrite`.
///
/// `cfg` is taken over: once the particles are built, its mesh walls share the run's parts of
/// them (scenario/local_meshes.hpp), and the whole meshes are freed.
RunSummary run_scenario(config::ScenarioConfig cfg, const std::string& output_dir,
                        const comm::Communicator& comm, const RunStart& start = {});

/// Async-signal-safe: asks the running scenario to checkpoint and stop after the current step.
void request_stop();

/// Whether rank 0 keeps a status line (progress, time left) on stderr when stderr is a
/// terminal (default true; `granite run --quiet` turns it off).
void set_status_line(bool enabled);

}  // namespace granite::scenario
