// The torque block of rolling and spinning resistance (solver/rolling.hpp) against a
// brute-force minimisation that shares nothing with it: projected gradient descent with the
// step 1/λ_max(W) (the projection on the product of an interval and a disk is a clamp and a
// radial scaling), run for 20 000 iterations. On these problems (condition number of W below
// 10) it contracts by at least 1 − 1/10 per step, far below rounding after 1000 steps, so its
// answer is the minimiser to ~1e-14 of the scale: kTol = 1e-10 leaves a margin of 1e4 for the
// code under test's own stopping tests (1e-15 relative steps).
#include "granite/solver/delassus.hpp"
#include "granite/solver/relaxation.hpp"
#include "granite/solver/rolling.hpp"
#include "granite/solver/rolling_ccp.hpp"
#include "../../support/solver_contact.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <random>

using namespace granite;
using namespace granite::solver;

namespace {

constexpr double kTol = 1e-10;

Mat3 random_spd(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> eigen(1.0, 10.0);
  const Mat3 Q = Quat(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
  return Q * Vec3(eigen(rng), eigen(rng), eigen(rng)).asDiagonal() * Q.transpose();
}

double objective(const Mat3& W, const Vec3& b, const Vec3& x) {
  return 0.5 * x.dot(W * x) - b.dot(x);
}

Vec3 project(Vec3 x, double spin, double rolling) {
  x[0] = std::clamp(x[0], -spin, spin);
  const double r = x.tail<2>().norm();
  if (r > rolling) x.tail<2>() *= rolling / r;
  return x;
}

Vec3 brute_force(const Mat3& W, const Vec3& b, double spin, double rolling) {
  const double step = 1.0 / Eigen::SelfAdjointEigenSolver<Mat3>(W).eigenvalues().maxCoeff();
  Vec3 x = Vec3::Zero();
  for (int k = 0; k < 20000; ++k) x = project(x - step * (W * x - b), spin, rolling);
  return x;
}

}  // namespace

TEST(Rolling, DiskMinimumMatchesProjectedGradientInsideAndOnTheRim) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> radius(0.05, 2.0);
  int rim = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Mat3 W = random_spd(rng);
    const Vec3 b(0.0, 5.0 * g(rng), 5.0 * g(rng));
    const double r = radius(rng);
    const Mat2 A = W.bottomRightCorner<2, 2>();
    const Vec2 x = disk_minimum(A, b.tail<2>(), r);
    // The disk alone: the product with a zero interval.
    const Mat3 block = [&] {
      Mat3 m = Mat3::Identity();
      m.bottomRightCorner<2, 2>() = A;
      return m;
    }();
    const Vec3 want = brute_force(block, b, 0.0, r);
    EXPECT_NEAR((x - want.tail<2>()).norm(), 0.0, kTol * (1.0 + want.norm()));
    EXPECT_LE(x.norm(), r * (1.0 + 1e-15));
    rim += x.norm() > r * (1.0 - 1e-12) ? 1 : 0;
  }
  EXPECT_GT(rim, 100);  // both cases met
  EXPECT_LT(rim, 290);
  EXPECT_TRUE(disk_minimum(Mat2::Identity(), Vec2(1.0, 2.0), 0.0).isZero(0.0));
}

TEST(Rolling, TorqueBlockMinimumMatchesProjectedGradient) {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> bound(0.0, 1.5);
  for (int trial = 0; trial < 300; ++trial) {
    const Mat3 W = random_spd(rng);
    const Vec3 b(5.0 * g(rng), 5.0 * g(rng), 5.0 * g(rng));
    const double spin = trial % 7 == 0 ? 0.0 : bound(rng), rolling = bound(rng);
    const Vec3 x = torque_block_minimum(W, b, spin, rolling, Vec3::Zero());
    const Vec3 want = brute_force(W, b, spin, rolling);
    EXPECT_NEAR((x - want).norm(), 0.0, kTol * (1.0 + want.norm())) << "trial " << trial;
    EXPECT_LE(objective(W, b, x), objective(W, b, want) + kTol);
    EXPECT_LE(std::abs(x[0]), spin);
    EXPECT_LE(x.tail<2>().norm(), rolling * (1.0 + 1e-15));
  }
}

TEST(Rolling, AnIsotropicBlockIsTheProjectionInOnePass) {
  // A sphere on a wall: W = k I, the minimiser is b/k clamped and scaled, the block decoupled.
  const Mat3 W = 2.5 * Mat3::Identity();
  const Vec3 b(1.0, 3.0, -4.0);
  const Vec3 x = torque_block_minimum(W, b, 0.1, 1.0, Vec3::Zero());
  EXPECT_DOUBLE_EQ(x[0], 0.1);
  EXPECT_NEAR((x.tail<2>() - Vec2(0.6, -0.8)).norm(), 0.0, 1e-15);
}

TEST(Rolling, TinyBoundsStayOnTheRimWithoutOverflow) {
  // A contact that barely touches (λ_n ~ 1e-119 N s in a column collapse) bounds the torque by
  // ~1e-123: ν ~ |c|/r overflows a plain determinant and |x|² underflows. On the rim, the
  // minimiser tends to r c/|c| as r → 0 (the quadratic term is negligible against ν).
  const Mat2 A = 8.8e10 * Mat2::Identity() + Mat2{{0.0, 1e9}, {1e9, 0.0}};
  const Vec2 c(11.5, -15.2);
  for (const double r : {1e-100, 1e-150, 1e-200, 1e-250, 1e-300}) {
    const Vec2 x = disk_minimum(A, c, r);
    ASSERT_TRUE(x.allFinite()) << r;
    EXPECT_NEAR(std::hypot(x[0], x[1]) / r, 1.0, 1e-14) << r;
    EXPECT_NEAR((x / r - c.normalized()).norm(), 0.0, 1e-12) << r;
  }
}

TEST(Rolling, JointDelassusBlockIsTheBruteForceJacobiansAndTheBodiesResponse) {
  // The cone complementarity model's 6×6 block of (λ, τ/R*) (solver/rolling_ccp.hpp) against
  // J M⁻¹ Jᵀ with the generalized velocities (v1, ω1, v2, ω2): the impulse rows
  // Qᵀ [E, −[r1]×, −E, [r2]×] and the torque rows R* Qᵀ [0, E, 0, −E].
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const double m1 = 1.5 + 0.5 * u(rng), m2 = 2.0 + u(rng), R = 0.3 + 0.2 * u(rng);
    const Mat3 I1inv = random_spd(rng).inverse(), I2inv = random_spd(rng).inverse();
    const Vec3 r1(u(rng), u(rng), u(rng)), r2(u(rng), u(rng), u(rng));
    // A random frame Q = [n t o] (t, o as the setup forms them from n).
    const Vec3 n = Eigen::Quaterniond::UnitRandom().toRotationMatrix().col(0);
    const Mat3 Q = test_support::solver_contact(n, Mat3::Identity(), r1, r2, 0.5).frame();
    Eigen::Matrix<double, 6, 12> J = Eigen::Matrix<double, 6, 12>::Zero();
    J.topRows<3>() << Q.transpose(), -Q.transpose() * cross_matrix(r1), -Q.transpose(),
        Q.transpose() * cross_matrix(r2);
    J.block<3, 3>(3, 3) = R * Q.transpose();
    J.block<3, 3>(3, 9) = -R * Q.transpose();
    Eigen::Matrix<double, 12, 12> Minv = Eigen::Matrix<double, 12, 12>::Zero();
    Minv.block<3, 3>(0, 0) = Mat3::Identity() / m1;
    Minv.block<3, 3>(3, 3) = I1inv;
    Minv.block<3, 3>(6, 6) = Mat3::Identity() / m2;
    Minv.block<3, 3>(9, 9) = I2inv;
    const contact::Mat6 brute = J * Minv * J.transpose();

    std::vector<BodyState> bodies(2);
    bodies[0] = test_support::random_moving_body(rng, u, 1.0 / m1, &I1inv);
    bodies[1] = test_support::random_moving_body(rng, u, 1.0 / m2, &I2inv);
    const Mat3 A = delassus_diagonal(Q, 1.0 / m1, I1inv, r1, 1.0 / m2, I2inv, r2);
    const solver::SolverContact c = test_support::solver_contact(n, A, r1, r2, 0.5);
    RollingContact r{0, Q.transpose() * (I1inv + I2inv) * Q, R, 0.1 * R, 0.05 * R};
    const contact::Mat6 G = rolling_delassus(c, r, bodies[0], bodies[1]);
    EXPECT_LT((G - brute).norm(), 1e-12 * brute.norm()) << G << "\nvs\n" << brute;

    // The joint update's kinematics: applying z changes the conjugate velocity by G z.
    const contact::Vec6 before = joint_velocity(c, r, bodies[0], bodies[1]);
    contact::Vec6 z;
    z << u(rng), u(rng), u(rng), u(rng), u(rng), u(rng);
    apply_impulses({c}, {Vec3(z.head<3>())}, bodies);
    RollingBlocks blocks;
    blocks.contacts = {r};
    blocks.torques = {R * z.tail<3>()};
    apply_torques({c}, blocks, bodies);
    const contact::Vec6 after = joint_velocity(c, r, bodies[0], bodies[1]);
    EXPECT_LT((after - before - G * z).norm(), 1e-12 * G.norm() * z.norm());
  }
}
