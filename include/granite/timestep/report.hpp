#pragma once
// Text output in the style HPC users expect (LAMMPS-like): a thermo table printed every N steps
// and a closing timing breakdown per phase.
#include "granite/core/timer.hpp"
#include "granite/timestep/step_statistics.hpp"

#include <string>

namespace granite::timestep {

/// Column titles matching thermo_line().
std::string thermo_header();
/// step, time, particles, contacts, sweeps, residual (impulse change), fc3d error, max
/// penetration, kinetic energy.
std::string thermo_line(const StepStatistics& stats);
/// One line per phase with seconds and % of the total, then the total (multi-line, ends in \n).
std::string timing_breakdown(const PhaseTimers& timers);

}  // namespace granite::timestep
