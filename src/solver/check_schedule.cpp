// The predicted schedule of convergence tests (see include/granite/solver/check_schedule.hpp).
#include "granite/solver/check_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace granite::solver {

namespace {

// The next test's sweep under a decay of `rate` per sweep (none unless 0 < rate < 1 and the
// tolerance is not met) with intervals of at most `cap`; `otherwise` without a decay, unless the
// last sweep is near.
int predicted_sweep(int sweep, double value, double rate, int cap, int otherwise, double tolerance,
                    int max_sweeps) {
  const bool decays = rate < 1.0 && rate > 0.0 && tolerance < value;
  const double remaining =
      decays ? std::ceil(std::log(tolerance / value) / std::log(rate)) : HUGE_VAL;
  // Not predicted to converge by the last sweep, and that sweep at most two intervals away:
  // its test, which ends every relaxation anyway, is the next.
  if (sweep + remaining >= max_sweeps && max_sweeps - sweep <= 2 * cap) return max_sweeps;
  if (!decays) return otherwise;
  return sweep + static_cast<int>(std::clamp(remaining, 1.0, double(cap)));
}

}  // namespace

int next_check_sweep(int sweep, double value, int previous_sweep, double previous_value,
                     double tolerance, int max_sweeps) {
  if (previous_sweep <= 0 || previous_sweep >= sweep) return sweep + 1;
  const int last = sweep - previous_sweep;
  const int cap = std::max(4, sweep);
  const double rate = std::pow(value / previous_value, 1.0 / last);  // decay per sweep
  return predicted_sweep(sweep, value, rate, cap, sweep + std::min(2 * last, cap), tolerance,
                         max_sweeps);
}

int next_check_sweep(int sweep, double value, double prior_decay, int prior_span, double tolerance,
                     int max_sweeps) {
  const bool decays = prior_span > 0 && prior_decay > 0.0 && prior_decay < 1.0 && tolerance < value;
  if (!decays) return sweep + 1;
  return predicted_sweep(sweep, value, prior_decay, std::max({4, sweep, prior_span}), sweep + 1,
                         tolerance, max_sweeps);
}

}  // namespace granite::solver
