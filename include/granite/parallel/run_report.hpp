#pragma once
// The run log's timing breakdown per phase as min/avg/max over ranks (LAMMPS style).
#include "granite/comm/communicator.hpp"
#include "granite/core/timer.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace granite::parallel {

/// Multi-line table (phase, min, avg, max seconds, % of the average total); identical on all
/// ranks. Collective.
std::string timing_table(const PhaseTimers& timers, const comm::Communicator& comm);

}  // namespace granite::parallel
