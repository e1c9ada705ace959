// The adaptive interval of the dynamic balance (parallel/balance_schedule.hpp): the step at
// which a linearly growing imbalance reaches the threshold, within [every / 4, 4 every].
// The loads are binary fractions, so the predicted steps are exact.
#include "granite/parallel/balance_schedule.hpp"

#include <gtest/gtest.h>

using granite::parallel::BalanceSchedule;

TEST(BalanceSchedule, PredictsWhenALinearDriftReachesTheThreshold) {
  const BalanceSchedule s{64, 1.125, true};  // intervals within [16, 256]
  // The first measurement has no rate: balance_every.
  EXPECT_EQ(s.next_interval(1.5, 0, 1.0, 1.0), 64);
  // 1 -> 1 + 2^-4 in 64 steps (2^-10 per step): cuts back at 1 reach 1.125 in 128 steps.
  EXPECT_EQ(s.next_interval(1.0625, 64, 1.0, 1.0), 128);
  // Four times faster: 32 steps.
  EXPECT_EQ(s.next_interval(1.25, 64, 1.0, 1.0), 32);
  // Faster still (8 steps predicted): the shortest interval.
  EXPECT_EQ(s.next_interval(2.0, 64, 1.0, 1.0), 16);
  // Cuts that could not bring the load below the threshold: the shortest interval.
  EXPECT_EQ(s.next_interval(1.5, 32, 1.25, 1.25), 16);
  // A load that fell, or drifts slowly (8192 steps predicted): the longest interval.
  EXPECT_EQ(s.next_interval(1.0, 64, 1.0625, 1.0), 256);
  EXPECT_EQ(s.next_interval(1.0 + 0x1p-10, 64, 1.0, 1.0 + 0x1p-10), 256);
}

TEST(BalanceSchedule, FixedWhenNotAdaptiveAndNeverBelowOneStep) {
  EXPECT_EQ((BalanceSchedule{64, 1.125, false}.next_interval(2.0, 64, 1.0, 1.0)), 64);
  EXPECT_EQ((BalanceSchedule{3, 1.125, true}.next_interval(2.0, 3, 1.0, 1.0)), 1);
  EXPECT_EQ((BalanceSchedule{3, 1.125, true}.next_interval(1.0, 3, 1.0, 1.0)), 12);
}
