// The predicted schedule of convergence tests (solver.check_every: 0, the default; issue 44):
// the rule itself on exact decays, and on a slowly converging problem (a penetrated column of
// ten spheres: Gauss–Seidel needs hundreds of sweeps) the same answer as a test after every
// sweep, with few tests and a bounded number of extra sweeps.
#include "granite/solver/check_schedule.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace granite;

TEST(CheckSchedule, PredictsTheSweepOfAnExactGeometricDecay) {
  EXPECT_EQ(solver::next_check_sweep(1, 0.1, 0, 0.0, 1e-4, 1000), 2);  // no decay known yet
  // 10x per sweep from 1e-1 at sweep 1 to 1e-2 at sweep 2: 1e-4 two sweeps later.
  EXPECT_EQ(solver::next_check_sweep(2, 1e-2, 1, 1e-1, 1e-4, 1000), 4);
  // 2x per sweep over an interval of 4: 1e-3 -> 1e-4 takes log2(10) = 3.32, so 4 sweeps.
  EXPECT_EQ(solver::next_check_sweep(12, 1e-3, 8, 1.6e-2, 1e-4, 1000), 16);
  // Growth doubles the interval (4 -> 8); the interval never exceeds max(4, sweep).
  EXPECT_EQ(solver::next_check_sweep(10, 2e-3, 6, 1e-3, 1e-4, 1000), 18);
  EXPECT_EQ(solver::next_check_sweep(3, 1e-3, 2, 1e-3 * (1 + 1e-9), 1e-4, 1000), 7);
  EXPECT_EQ(solver::next_check_sweep(100, 0.5, 99, 0.5000001, 1e-4, 1000), 200);
}

TEST(CheckSchedule, GoesToTheLastSweepWhenNoConvergenceIsPredictedBeforeIt) {
  // 1 -> 0.76 per sweep reaches 1e-4 only after ceil(log(1.3e-4) / log(0.76)) = 33 more sweeps:
  // with at most 10 sweeps the next test is the last (8 sweeps away, two intervals of 4) ...
  EXPECT_EQ(solver::next_check_sweep(2, 0.76, 1, 1.0, 1e-4, 10), 10);
  // ... with 11 the last is three intervals away: the usual interval of 4.
  EXPECT_EQ(solver::next_check_sweep(2, 0.76, 1, 1.0, 1e-4, 11), 6);
  // A decay that meets the tolerance before the last sweep keeps its prediction.
  EXPECT_EQ(solver::next_check_sweep(2, 1e-2, 1, 1e-1, 1e-4, 10), 4);
  // Growth near the end: the last sweep (4 away, within two intervals of 6).
  EXPECT_EQ(solver::next_check_sweep(6, 2e-3, 2, 1e-3, 1e-4, 10), 10);
  // No decay known yet: the next sweep, as without a limit.
  EXPECT_EQ(solver::next_check_sweep(1, 0.1, 0, 0.0, 1e-4, 3), 2);
}

TEST(CheckSchedule, TheSecondTestFollowsThePreviousRelaxationsDecay) {
  // No decay measured before (span 0) or none that decays: the next sweep.
  EXPECT_EQ(solver::next_check_sweep(1, 0.1, 0.0, 0, 1e-4, 1000), 2);
  EXPECT_EQ(solver::next_check_sweep(1, 0.1, 1.0, 9, 1e-4, 1000), 2);
  // 10x per sweep: 1e-2 -> 1e-4 in two sweeps.
  EXPECT_EQ(solver::next_check_sweep(1, 1e-2, 0.1, 3, 1e-4, 1000), 3);
  // 0.98 per sweep, measured over 9 sweeps: no convergence by the last sweep (9 away, within two
  // intervals of 9): its test is the next ...
  EXPECT_EQ(solver::next_check_sweep(1, 0.9, 0.98, 9, 1e-4, 10), 10);
  // ... measured over 2 sweeps, the interval is at most 4: the last sweep is too far.
  EXPECT_EQ(solver::next_check_sweep(1, 0.9, 0.98, 2, 1e-4, 10), 5);
  // A decay predicted to meet the tolerance far ahead: at most the interval max(4, sweep, span).
  EXPECT_EQ(solver::next_check_sweep(1, 0.9, 0.9, 6, 1e-4, 1000), 7);
}

namespace {

constexpr double kR = 1.0 / 256.0;

// Ten spheres stacked on a floor, each contact penetrated by 1e-3 r, relaxed to fc3d 1e-10.
void set_up_column(timestep::Simulation& sim, int check_every) {
  auto& p = sim.parameters();
  p.dt = 1e-4;
  p.gravity = Vec3(0, 0, -9.81);
  p.error_reduction = 0.2;
  p.contact_threshold = 0.1 * kR;
  p.convergence = solver::Convergence::fc3d;
  p.tolerance = 1e-10;
  p.max_sweeps = 20000;
  p.check_every = check_every;
  const auto mat = sim.materials().add({2650.0, 0.5});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  const double d = 1e-3 * kR;
  for (int i = 0; i < 10; ++i)
    sim.particles().add_sphere(sim.materials(), mat, Vec3(0.01, 0.02, kR - d + i * (2 * kR - d)),
                               kR);
}

timestep::StepStatistics column_step(int check_every, std::vector<Vec3>& impulses) {
  timestep::Simulation sim;
  set_up_column(sim, check_every);
  const timestep::StepStatistics st = sim.step();
  impulses = sim.impulses();
  return st;
}

}  // namespace

TEST(CheckSchedule, ConvergesLikeATestAfterEverySweepWithFewTests) {
  std::vector<Vec3> every_impulses, predicted_impulses;
  const auto every = column_step(1, every_impulses);
  const auto predicted = column_step(0, predicted_impulses);
  ASSERT_TRUE(every.converged);
  ASSERT_TRUE(predicted.converged);
  ASSERT_GT(every.sweeps, 50);  // slow enough for the schedule to matter
  EXPECT_EQ(every.convergence_checks, every.sweeps);
  // A test comes at the latest max(4, s) sweeps after one at sweep s: never before the first
  // sweep that meets the tolerance, and at most about twice as late.
  EXPECT_GE(predicted.sweeps, every.sweeps);
  EXPECT_LE(predicted.sweeps, 2 * every.sweeps + 4);
  EXPECT_LT(predicted.fc3d_error, 1e-10);
  // Linear convergence at a steady rate is predicted after a few tests.
  EXPECT_LE(predicted.convergence_checks, 20) << predicted.sweeps << " sweeps";
  // Both meet fc3d 1e-10; the column's Delassus matrix has a condition of about N^2 = 100, so
  // the impulses agree to 1e-10 x 100 of the largest, with a margin of 10.
  double largest = 0.0;
  for (const Vec3& x : every_impulses) largest = std::max(largest, x.norm());
  ASSERT_EQ(every_impulses.size(), predicted_impulses.size());
  for (std::size_t j = 0; j < every_impulses.size(); ++j)
    EXPECT_LE((every_impulses[j] - predicted_impulses[j]).norm(), 1e-7 * largest) << j;
  std::printf("[ schedule ] every sweep: %d sweeps, %d tests; predicted: %d sweeps, %d tests\n",
              every.sweeps, every.convergence_checks, predicted.sweeps,
              predicted.convergence_checks);
}

TEST(CheckSchedule, ARelaxationLikeThePreviousOneSkipsTheTestThatMeasuresItsDecay) {
  // The column with at most 10 sweeps never meets 1e-10: the first step tests after sweeps 1
  // and 2 (its decay) and 10; the second, knowing the first's decay over sweeps 1-10, after
  // sweeps 1 and 10 only. Both run all 10 sweeps, so the schedule changes no impulse.
  timestep::Simulation sim;
  set_up_column(sim, 0);
  sim.parameters().max_sweeps = 10;
  const timestep::StepStatistics first = sim.step();
  ASSERT_FALSE(first.converged);
  EXPECT_EQ(first.sweeps, 10);
  EXPECT_EQ(first.convergence_checks, 3);
  EXPECT_EQ(sim.relaxation_prior().span, 9);
  EXPECT_GT(sim.relaxation_prior().decay, 0.0);
  EXPECT_LT(sim.relaxation_prior().decay, 1.0);
  const timestep::StepStatistics second = sim.step();
  EXPECT_EQ(second.sweeps, 10);
  EXPECT_EQ(second.convergence_checks, 2);
}
