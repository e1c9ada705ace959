#include "granite/parallel/run_report.hpp"

#include <cstdio>
#include <vector>

namespace granite::parallel {

std::string timing_table(const PhaseTimers& timers, MPI_Comm comm) {
  constexpr std::size_t n = std::size_t(Phase::count);
  std::vector<double> local(n), min(n), max(n), sum(n);
  for (std::size_t k = 0; k < n; ++k) local[k] = timers.seconds(Phase(k));
  MPI_Allreduce(local.data(), min.data(), int(n), MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(local.data(), max.data(), int(n), MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(local.data(), sum.data(), int(n), MPI_DOUBLE, MPI_SUM, comm);
  int size = 1;
  MPI_Comm_size(comm, &size);
  double total = 0.0;
  for (double s : sum) total += s / size;
  std::string out = "Phase            min[s]     avg[s]     max[s]   %avg-total\n";
  char line[128];
  for (std::size_t k = 0; k < n; ++k) {
    const double avg = sum[k] / size;
    const auto name = phase_name(Phase(k));
    std::snprintf(line, sizeof line, "%-14.*s %9.4f  %9.4f  %9.4f   %7.2f\n", int(name.size()),
                  name.data(), min[k], avg, max[k], total > 0 ? 100.0 * avg / total : 0.0);
    out += line;
  }
  std::snprintf(line, sizeof line, "%-14s %9s  %9.4f  %9s   %7.2f", "total", "", total, "", 100.0);
  return out + line;
}

bool all_ok(bool ok, MPI_Comm comm) {
  int value = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MIN, comm);
  return value == 1;
}

std::uint64_t sum_over_ranks(std::uint64_t value, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_UINT64_T, MPI_SUM, comm);
  return value;
}

void sum_over_ranks(std::vector<double>& values, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_SUM, comm);
}

void max_over_ranks(std::vector<double>& values, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, comm);
}

}  // namespace granite::parallel
