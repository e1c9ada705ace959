#include "granite/parallel/run_report.hpp"

#include "granite/comm/collectives.hpp"

#include <cstdio>
#include <vector>

namespace granite::parallel {

std::string timing_table(const PhaseTimers& timers, const comm::Communicator& comm) {
  constexpr std::size_t n = std::size_t(Phase::count);
  std::vector<double> min(n);
  for (std::size_t k = 0; k < n; ++k) min[k] = timers.seconds(Phase(k));
  std::vector<double> max = min, sum = min;
  comm::min_in_place(min, comm);
  comm::max_in_place(max, comm);
  comm::sum_in_place(sum, comm);
  const int size = comm.size();
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

}  // namespace granite::parallel
