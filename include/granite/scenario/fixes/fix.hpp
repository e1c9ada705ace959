#pragma once
// End-of-step objects ("fixes", after LAMMPS): everything a run does between two steps —
// inflow, outflow, flow statistics, thermo output, snapshots, checkpoints, FCLIB export — is
// an object with its own cadence, its own restart state (stored in the checkpoint under
// /fixes/<name>) and a one-line description for the run log. run_scenario() is a loop that
// steps the simulation and calls the fixes in order.
#include "granite/comm/communicator.hpp"
#include "granite/core/timer.hpp"
#include "granite/scenario/build.hpp"
#include "granite/timestep/simulation.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace granite::parallel {
class DistributedDomain;
}

namespace granite::scenario {

class Fix;

/// Counts a run reports at its end (each rank counts its own; summed over ranks at the end,
/// except `generated`, which every rank counts in full).
struct RunCounters {
  std::uint64_t generated = 0;            // particles created by inflow (over all ranks)
  std::uint64_t deleted = 0;              // left through an outflow face (this rank)
  std::uint64_t lost = 0;                 // left through another non-periodic face (this rank)
  std::uint64_t moved_beyond_radius = 0;  // particle-steps with a move > radius (this rank)
};

/// The checkpoint written last (or restarted from): for run.json and `granite status`.
struct CheckpointRecord {
  std::string path;  // "" before the first
  std::int64_t step = 0;
  double time = 0.0;          // s (simulated)
  double written_unix = 0.0;  // wall clock when written (seconds since 1970, UTC)
};

/// What the fixes share: the simulation, the ranks, where output goes, and the run's counts.
struct RunContext {
  timestep::Simulation& sim;
  comm::Communicator comm;
  std::string output_dir;
  std::string config_file;                    // as given on the command line
  std::array<int, 3> decomposition{1, 1, 1};  // subdomains per axis
  OwnsPosition owns;                          // does this rank create a particle at x?
  RunCounters counters{};
  const std::vector<std::unique_ptr<Fix>>* fixes = nullptr;  // all fixes of the run
  // "PATH (step N)": the checkpoint written last, or the one the run restarted from; "" before.
  std::string last_checkpoint{};
  CheckpointRecord checkpoint{};  // the same, for run.json
  // Writes OUTPUT/run.json (rank 0) with every fix's record sections as they stand; the
  // progress fix calls it at every thermo line. Not collective.
  std::function<void()> publish_record{};
  // The run's distributed domain (decomposition, ghosts); the balance fix moves its cuts.
  parallel::DistributedDomain* distributed = nullptr;
};

/// A section of the run record (OUTPUT/run.json) that a fix provides: `path` is a top-level key
/// ("balance") or two keys joined by a dot ("relaxation.compatible"); with `append`, `value` is
/// added to the end of the array at `path` (a pour's entry in "particle_sources").
struct RecordSection {
  std::string path;
  nlohmann::ordered_json value;
  bool append = false;
};

/// Where the run stands after a step.
struct StepEnd {
  bool last = false;  // the run's last planned step
  bool stop = false;  // a stop was requested (SIGTERM/SIGUSR1): the run ends after this step
};

class Fix {
public:
  virtual ~Fix() = default;
  /// Short lower-case name: the run log, run.json and the checkpoint group /fixes/<name>.
  virtual const char* name() const = 0;
  /// One line for the run log: what it does and when.
  virtual std::string description() const = 0;
  /// The timer phase its work is counted in.
  virtual Phase phase() const { return Phase::output; }

  /// Before the first step (after a restart: after restore()).
  virtual void start(RunContext&) {}
  /// After every step. Collective when the fix communicates (every rank calls every fix).
  virtual void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                           const StepEnd& end) = 0;
  /// After the last step, once the run's closing report is printed.
  virtual void finish(RunContext&) {}
  /// The run-record sections it provides, e.g. a summary of what it measured; the run puts
  /// them into OUTPUT/run.json (add_record_sections in fixes.hpp) at the end and whenever the
  /// record is published. A fix writes nothing into the record itself.
  virtual std::vector<RecordSection> record_sections() const { return {}; }

  /// A column of the thermo line (as LAMMPS's thermo pulls f_ID): the thermo fix asks the
  /// fixes it names for their text of this step's line, after they ran. Empty: none.
  virtual std::string thermo_text() const { return {}; }
  /// The fixes that must run before this one in a step when they are present (checked when
  /// the run's fixes are made: check_fix_order()).
  virtual std::vector<std::string> runs_after() const { return {}; }

  /// Restart state: the same text on every rank, exact (hexfloats for doubles). A fix without
  /// state returns false from has_state() and is not stored.
  virtual bool has_state() const { return false; }
  virtual std::string state() const { return {}; }
  /// Throws InputError if `text` is malformed.
  virtual void restore(const std::string& text) { (void)text; }
};

}  // namespace granite::scenario
