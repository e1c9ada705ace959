// The estimate of the wall time left (scenario/progress.hpp), driven by a synthetic clock: the
// samples are (step, wall seconds) pairs the test computes from a prescribed cost per step.
#include "granite/scenario/progress.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace granite::scenario {
namespace {

constexpr std::int64_t kThermoEvery = 100;
constexpr std::int64_t kLastStep = 10000;

// Wall seconds at `step` when every step costs `cost` until `switch_step` and `later_cost`
// after it.
double synthetic_clock(std::int64_t step, double cost, std::int64_t switch_step,
                       double later_cost) {
  if (step <= switch_step) return double(step) * cost;
  return double(switch_step) * cost + double(step - switch_step) * later_cost;
}

TEST(EtaEstimator, NoEstimateBeforeTwoSamples) {
  EtaEstimator eta;
  EXPECT_FALSE(eta.seconds_left(kLastStep));
  eta.record(0, 0.0);
  EXPECT_FALSE(eta.seconds_left(kLastStep));
  eta.record(kThermoEvery, 1.0);
  EXPECT_TRUE(eta.seconds_left(kLastStep));
}

TEST(EtaEstimator, ConstantCostPerStepGivesTheExactRemainingTime) {
  // 0.25 s per step is exact in binary, so the expected times are exact too; with a cost that
  // is not, the remaining time is (last - step) x cost up to a few ulps of the clock values.
  for (const double cost : {0.25, 1.7e-3}) {
    EtaEstimator eta;
    for (std::int64_t step = 0; step <= kLastStep; step += kThermoEvery) {
      eta.record(step, synthetic_clock(step, cost, kLastStep, cost));
      if (step == 0) continue;
      const double expected = double(kLastStep - step) * cost;
      // Tolerance: the clock values carry a relative rounding error of ~1e-16 each; their
      // difference over one interval loses at most step/interval of that.
      EXPECT_NEAR(*eta.seconds_left(kLastStep), expected, 1e-13 * double(kLastStep) * cost)
          << "cost " << cost << " at step " << step;
      if (cost == 0.25) {
        EXPECT_EQ(*eta.seconds_left(kLastStep), expected);
      }
    }
  }
}

TEST(EtaEstimator, FollowsACostThatDoublesHalfWayWithinTwoThermoIntervals) {
  const double cost = 1e-3;
  const std::int64_t half = kLastStep / 2 + kThermoEvery / 2;  // mid-interval switch
  EtaEstimator eta;
  for (std::int64_t step = 0; step <= kLastStep; step += kThermoEvery) {
    eta.record(step, synthetic_clock(step, cost, half, 2 * cost));
    if (step == 0) continue;
    const double truth = double(kLastStep - step) * 2 * cost;  // at the new cost
    if (step >= half + 2 * kThermoEvery) {
      // Two thermo intervals after the change the estimate is the true remaining time at
      // the new cost, to rounding (relative 1e-12 of the whole run's cost).
      EXPECT_NEAR(*eta.seconds_left(kLastStep), truth, 1e-12 * double(kLastStep) * cost)
          << "at step " << step;
    } else if (step < half) {
      // Before the change the estimate is the old cost's (the future is unknowable).
      EXPECT_NEAR(*eta.seconds_left(kLastStep), double(kLastStep - step) * cost,
                  1e-12 * double(kLastStep) * cost);
    }
  }
}

TEST(EtaEstimator, IgnoresSamplesThatDoNotAdvance) {
  EtaEstimator eta;
  eta.record(0, 0.0);
  eta.record(100, 10.0);
  eta.record(100, 50.0);  // the same step again (e.g. a stop right after a thermo line)
  EXPECT_DOUBLE_EQ(*eta.seconds_per_step(), 0.1);
}

TEST(Progress, PlannedStepsAndPercent) {
  config::RunSettings run;
  run.dt = 4e-5;
  run.end_time = 0.05;
  EXPECT_EQ(planned_steps(run), 1250);
  ProgressReport r;
  r.step = 625;
  r.planned = 1250;
  EXPECT_DOUBLE_EQ(r.percent(), 50.0);
}

TEST(Progress, DurationsAndText) {
  EXPECT_EQ(format_duration(3723.4), "1:02:03");
  EXPECT_EQ(format_duration(std::nullopt), "--:--");
  EXPECT_EQ(format_duration(-1.0), "--:--");
  EXPECT_EQ(utc_text(0.0), "1970-01-01T00:00:00Z");
  ProgressReport r;
  r.step = 250;
  r.planned = 1000;
  r.elapsed_seconds = 61;
  r.particle_steps_per_second = 2.5e6;
  r.seconds_left = 183;
  EXPECT_EQ(progress_text(r), " 25.0%   2.5e+06 p-steps/s elapsed 0:01:01 left 0:03:03");
}

}  // namespace
}  // namespace granite::scenario
