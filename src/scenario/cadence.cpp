#include "granite/scenario/cadence.hpp"

#include <algorithm>
#include <cmath>

namespace granite::scenario {

Cadence Cadence::every_interval(double interval, double dt) {
  if (!(interval > 0.0)) return Cadence(0);
  return Cadence(std::max<std::int64_t>(1, std::llround(interval / dt)));
}

}  // namespace granite::scenario
