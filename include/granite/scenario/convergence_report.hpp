#pragma once
// The end-of-run account of the relaxation's convergence: the distribution of the steps'
// fc3d errors (median, 95th percentile, maximum), the fraction of steps that met
// solver.tolerance, and advice when most did not.
#include "granite/scenario/run.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace granite::scenario {

struct ConvergenceSummary {
  double median = 0.0, p95 = 0.0, max = 0.0;  // of the steps' fc3d errors (0 without steps)
  std::uint64_t steps = 0;
  std::uint64_t met = 0;  // steps whose relaxation met solver.tolerance
  double fraction_met() const { return steps > 0 ? double(met) / double(steps) : 1.0; }
};

/// Nearest-rank percentiles of `fc3d_errors`; `unconverged` steps missed the tolerance.
ConvergenceSummary summarise_convergence(std::vector<double> fc3d_errors,
                                         std::uint64_t unconverged);

/// Lines for the closing report (each ends in \n); with advice when most steps missed.
std::string convergence_report(const RunSummary& summary);

/// run.json's "relaxation" entries for the same figures.
void add_convergence_record(nlohmann::ordered_json& relaxation, const RunSummary& summary);

}  // namespace granite::scenario
