#pragma once
// Reductions for the run log: the timing breakdown per phase as min/avg/max over ranks
// (LAMMPS style) and agreement on success between ranks.
#include "granite/core/timer.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace granite::parallel {

/// Multi-line table (phase, min, avg, max seconds, % of the average total); identical on all
/// ranks. Collective.
std::string timing_table(const PhaseTimers& timers, MPI_Comm comm);

/// True on every rank iff `ok` is true on every rank. Collective.
bool all_ok(bool ok, MPI_Comm comm);

/// Sum of a count over ranks. Collective.
std::uint64_t sum_over_ranks(std::uint64_t value, MPI_Comm comm);
/// Element-wise sum / maximum over ranks, in place. Collective.
void sum_over_ranks(std::vector<double>& values, MPI_Comm comm);
void max_over_ranks(std::vector<double>& values, MPI_Comm comm);

}  // namespace granite::parallel
