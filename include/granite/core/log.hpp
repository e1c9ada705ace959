#pragma once
// Rank-aware logging: info() prints on rank 0 only; warn()/error() print on every rank with
// a "[rank R]" prefix when the run has more than one rank.
#include <string_view>

namespace granite::log {

/// Called once after MPI is initialised (the default is a single-rank, rank-0 process).
void set_rank(int rank, int size);
int rank();

void info(std::string_view message);
void warn(std::string_view message);
void error(std::string_view message);

}  // namespace granite::log
