// The predicted schedule of convergence tests (see include/granite/solver/check_schedule.hpp).
#include "granite/solver/check_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace granite::solver {

int next_check_sweep(int sweep, double value, int previous_sweep, double previous_value,
                     double tolerance) {
  if (previous_sweep <= 0 || previous_sweep >= sweep) return sweep + 1;
  const int last = sweep - previous_sweep;
  const double cap = std::max(4, sweep);
  const double rate = std::pow(value / previous_value, 1.0 / last);  // decay per sweep
  if (!(rate < 1.0) || !(rate > 0.0) || !(tolerance < value))
    return sweep + static_cast<int>(std::min(2.0 * last, cap));
  const double remaining = std::log(tolerance / value) / std::log(rate);
  return sweep + static_cast<int>(std::clamp(std::ceil(remaining), 1.0, cap));
}

}  // namespace granite::solver
