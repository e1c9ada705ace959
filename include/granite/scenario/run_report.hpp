#pragma once
// What a run reports at its end: the timing breakdown per phase as min/avg/max over ranks
// (LAMMPS style) for the log, and the same figures for the run record (OUTPUT/run.json).
#include "granite/comm/communicator.hpp"
#include "granite/core/timer.hpp"
#include "granite/config/settings.hpp"
#include "granite/scenario/run.hpp"
#include "granite/timestep/step_statistics.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace granite::scenario {

/// Seconds of one phase over ranks.
struct PhaseSpread {
  double min = 0.0, avg = 0.0, max = 0.0;
};

/// Per phase (indexed by Phase), identical on all ranks. Collective.
std::vector<PhaseSpread> phase_spreads(const PhaseTimers& timers, const comm::Communicator& comm);

/// Multi-line table (phase, min, avg, max seconds, % of the average total). Not collective:
/// formats what phase_spreads() returned.
std::string timing_table(const std::vector<PhaseSpread>& spreads);
/// phase_spreads() + timing_table(). Collective.
std::string timing_table(const PhaseTimers& timers, const comm::Communicator& comm);

/// The run log's closing lines: "done: ..." (with the outflow and lost counts and the
/// particle-steps that moved farther than the radius), the relaxation exchange, the timing
/// table.
std::string closing_report(const RunSummary& summary, const std::vector<PhaseSpread>& spreads);

/// Fills the closing sections of the run record (OUTPUT/run.json, docs/output.md): status,
/// steps, time, wall time, particles, relaxation, timings, the last step's statistics.
void complete_record(nlohmann::ordered_json& record, const RunSummary& summary,
                     const std::vector<PhaseSpread>& spreads, const config::RunSettings& run,
                     const timestep::StepStatistics& last);

}  // namespace granite::scenario
