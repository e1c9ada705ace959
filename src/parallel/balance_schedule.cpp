// The adaptive interval of the dynamic balance (see include/granite/parallel/balance_schedule.hpp).
#include "granite/parallel/balance_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace granite::parallel {

int BalanceSchedule::next_interval(double found, int steps, double left_before,
                                   double left_now) const {
  if (!adaptive || steps <= 0) return every;
  const double rate = (found - left_before) / steps;  // growth of max/mean per step
  if (!(rate > 0.0)) return longest();
  // Cuts that could not be lowered (left_now above the threshold) are measured again soon.
  const double until = std::max(0.0, threshold - left_now) / rate;
  return int(std::clamp(std::ceil(until), double(shortest()), double(longest())));
}

}  // namespace granite::parallel
