// The end-of-run convergence account (see include/granite/scenario/convergence_report.hpp).
#include "granite/scenario/convergence_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace granite::scenario {

namespace {

// Nearest-rank percentile of sorted values: the smallest value with at least p of them ≤ it.
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0.0;
  const auto rank = static_cast<std::size_t>(std::ceil(p * double(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

ConvergenceSummary summarise_convergence(std::vector<double> fc3d_errors,
                                         std::uint64_t unconverged) {
  ConvergenceSummary c;
  std::sort(fc3d_errors.begin(), fc3d_errors.end());
  c.steps = fc3d_errors.size();
  c.met = c.steps - std::min<std::uint64_t>(unconverged, c.steps);
  c.median = percentile(fc3d_errors, 0.5);
  c.p95 = percentile(fc3d_errors, 0.95);
  c.max = fc3d_errors.empty() ? 0.0 : fc3d_errors.back();
  return c;
}

std::string convergence_report(const RunSummary& s) {
  const ConvergenceSummary c = summarise_convergence(s.fc3d_errors, s.unconverged_steps);
  char line[512];
  std::snprintf(line, sizeof line,
                "relaxation: fc3d error per step median %.2e, 95th percentile %.2e, max %.2e; "
                "%llu of %llu steps (%.1f%%) met solver.tolerance %g (%s)\n",
                c.median, c.p95, c.max, static_cast<unsigned long long>(c.met),
                static_cast<unsigned long long>(c.steps), 100.0 * c.fraction_met(), s.tolerance,
                s.convergence.c_str());
  std::string out = line;
  if (c.steps > 0 && 2 * c.met < c.steps)
    out += "warning: most steps ended their relaxation above solver.tolerance, so the contact "
           "forces are not converged; raise solver.max_sweeps, set solver.warm_start: 1 (dense, "
           "slowly changing packings), try solver.ordering: gravity (piles under gravity) or "
           "symmetric, or accept a larger solver.tolerance\n";
  return out;
}

void add_convergence_record(nlohmann::ordered_json& relaxation, const RunSummary& s) {
  const ConvergenceSummary c = summarise_convergence(s.fc3d_errors, s.unconverged_steps);
  relaxation["convergence"] = s.convergence;
  relaxation["tolerance"] = s.tolerance;
  relaxation["fraction_converged"] = c.fraction_met();
  relaxation["fc3d_error"] = {{"median", c.median}, {"p95", c.p95}, {"max", c.max}};
}

}  // namespace granite::scenario
