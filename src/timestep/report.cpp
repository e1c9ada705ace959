#include "granite/timestep/report.hpp"

#include <cstdio>

namespace granite::timestep {

std::string thermo_header() {
  char line[256];
  std::snprintf(line, sizeof line, "%10s %12s %10s %10s %6s %10s %10s %12s %14s", "step", "time[s]",
                "particles", "contacts", "sweeps", "residual", "fc3d", "max_pen[m]", "kinetic[J]");
  return line;
}

std::string thermo_line(const StepStatistics& s) {
  char line[256];
  std::snprintf(line, sizeof line, "%10lld %12.6e %10zu %10zu %6d %10.3e %10.3e %12.4e %14.6e",
                static_cast<long long>(s.step), s.time, s.particles, s.contacts, s.sweeps,
                s.residual, s.fc3d_error, s.max_penetration, s.kinetic_energy);
  return line;
}

std::string timing_breakdown(const PhaseTimers& timers) {
  const double total = timers.total();
  std::string out = "Phase            seconds    %total\n";
  char line[128];
  for (std::size_t p = 0; p < std::size_t(Phase::count); ++p) {
    const double s = timers.seconds(Phase(p));
    std::snprintf(line, sizeof line, "%-14s %10.4f %8.2f\n",
                  std::string(phase_name(Phase(p))).c_str(), s,
                  total > 0.0 ? 100.0 * s / total : 0.0);
    out += line;
  }
  std::snprintf(line, sizeof line, "%-14s %10.4f %8.2f\n", "total", total,
                total > 0.0 ? 100.0 : 0.0);
  out += line;
  return out;
}

}  // namespace granite::timestep
