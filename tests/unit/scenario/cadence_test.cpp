// The one rule for "every interval" output: whole steps counted from step 0, always after the
// last step, never with a non-positive interval except after the last step.
#include "granite/scenario/cadence.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

using granite::scenario::Cadence;

namespace {
std::vector<std::int64_t> due_steps(const Cadence& c, std::int64_t first, std::int64_t last) {
  std::vector<std::int64_t> out;
  for (std::int64_t step = first + 1; step <= last; ++step)
    if (c.due(step, step == last)) out.push_back(step);
  return out;
}
}  // namespace

TEST(Cadence, EveryStepsCountsFromZeroAndAlwaysFiresAfterTheLastStep) {
  EXPECT_EQ(due_steps(Cadence::every_steps(4), 0, 10), (std::vector<std::int64_t>{4, 8, 10}));
  // A restarted run at step 5 keeps the same steps as the uninterrupted run.
  EXPECT_EQ(due_steps(Cadence::every_steps(4), 5, 10), (std::vector<std::int64_t>{8, 10}));
  EXPECT_EQ(due_steps(Cadence::every_steps(0), 0, 10), (std::vector<std::int64_t>{10}));
  EXPECT_EQ(due_steps(Cadence::every_steps(-3), 0, 10), (std::vector<std::int64_t>{10}));
}

TEST(Cadence, IntervalsRoundToWholeStepsOfAtLeastOne) {
  // 0.025 s at dt = 1e-3 s is 25 steps although 0.025 / 1e-3 = 24.999999999999996.
  EXPECT_EQ(Cadence::every_interval(0.025, 1e-3).steps(), 25);
  EXPECT_EQ(Cadence::every_interval(0.0104, 1e-3).steps(), 10);  // rounded, not truncated up
  EXPECT_EQ(Cadence::every_interval(0.0105, 1e-3).steps(), 11);
  EXPECT_EQ(Cadence::every_interval(1e-6, 1e-3).steps(), 1);  // shorter than a step: every step
  EXPECT_EQ(Cadence::every_interval(0.0, 1e-3).steps(), 0);   // only after the last step
  EXPECT_EQ(Cadence::every_interval(-1.0, 1e-3).steps(), 0);
  EXPECT_FALSE(Cadence::every_interval(0.0, 1e-3).due(1000, false));
  EXPECT_TRUE(Cadence::every_interval(0.0, 1e-3).due(1000, true));
}

// Issue 23, item 5: an interval whose step count overflows the counter never comes (the loader
// refuses it; llround returned LLONG_MIN here, which became "every step").
TEST(Cadence, AnIntervalBeyondTheStepCounterNeverComes) {
  const Cadence c = Cadence::every_interval(1e300, 1e-5);
  EXPECT_EQ(c.steps(), 0);
  EXPECT_FALSE(c.due(1, false));
  EXPECT_TRUE(c.due(1, true));
  EXPECT_EQ(Cadence::every_interval(std::ldexp(1.0, 53), 1.0).steps(), std::int64_t(1) << 53);
}
