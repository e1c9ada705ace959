#include "granite/scenario/cadence.hpp"

#include <algorithm>
#include <cmath>

namespace granite::scenario {

Cadence Cadence::every_interval(double interval, double dt) {
  if (!(interval > 0.0)) return Cadence(0);
  // An interval beyond the step counter (config::load_scenario refuses those) never comes.
  const double steps = std::round(interval / dt);
  if (!(steps < 9.0e18)) return Cadence(0);
  return Cadence(std::max<std::int64_t>(1, std::int64_t(steps)));
}

}  // namespace granite::scenario
