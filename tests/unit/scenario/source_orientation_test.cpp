// Random orientations of shaped particles (scenario::source_orientation) are uniform over
// rotations (the Haar measure of SO(3)), tested by three of its consequences on N = 20 000
// draws, each with a tolerance of 5 standard errors (a correct generator fails one with
// probability below 1e-5):
// - every entry of R has mean 0 and variance 1/3 (the rotated axes are uniform on the sphere):
//   |mean| <= 5 √(1/(3N));
// - distinct entries of a row or column are uncorrelated, E[R_ij R_ik] = 0 for j ≠ k (variance
//   of the product E[R_ij² R_ik²] = 1/15): |mean| <= 5 √(1/(15N));
// - the rotation angle θ has the density (1 − cos θ)/π on [0, π], CDF (θ − sin θ)/π: the
//   Kolmogorov–Smirnov distance is below 2.0/√N (the asymptotic critical value at 1e-3 is
//   1.95/√N).
// They are draws of the run's counter-based stream by particle id, so the test also covers
// the ids' independence. With an orientation_axis the axis is fixed and the turn about it
// uniform in [0, 2π) (the same KS bound).
#include "granite/scenario/sources/source_particle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace granite;

TEST(SourceOrientation, RandomOrientationsAreUniformOverRotations) {
  config::SizeSettings size;
  size.random_orientation = true;
  const int n = 20000;
  Mat3 mean = Mat3::Zero();
  double cross = 0.0;
  std::vector<double> angles;
  for (int id = 0; id < n; ++id) {
    const Quat q = scenario::source_orientation(size, 1234, BodyId(id));
    ASSERT_NEAR(q.norm(), 1.0, 1e-14);
    const Mat3 R = q.toRotationMatrix();
    mean += R;
    cross += R(0, 0) * R(0, 1);
    angles.push_back(2.0 * std::atan2(q.vec().norm(), std::abs(q.w())));
  }
  mean /= n;
  cross /= n;
  EXPECT_LT(mean.cwiseAbs().maxCoeff(), 5.0 * std::sqrt(1.0 / (3.0 * n))) << mean;
  EXPECT_LT(std::abs(cross), 5.0 * std::sqrt(1.0 / (15.0 * n)));
  std::sort(angles.begin(), angles.end());
  double ks = 0.0;
  for (int k = 0; k < n; ++k) {
    const double cdf = (angles[k] - std::sin(angles[k])) / std::numbers::pi;
    ks = std::max({ks, std::abs(cdf - double(k) / n), std::abs(cdf - double(k + 1) / n)});
  }
  EXPECT_LT(ks, 2.0 / std::sqrt(double(n)));
  // About one axis: the axis is kept, and the angle is uniform in [0, 2π) (KS as above).
  size.orientation_axis = Vec3(1.0, 2.0, 2.0) / 3.0;
  std::vector<double> turns;
  for (int id = 0; id < n; ++id) {
    const Quat q = scenario::source_orientation(size, 99, BodyId(id));
    ASSERT_LT((q * size.orientation_axis - size.orientation_axis).norm(), 1e-14);
    const Eigen::AngleAxisd turn(q);
    const double signed_angle = turn.axis().dot(size.orientation_axis) > 0.0
                                    ? turn.angle()
                                    : 2.0 * std::numbers::pi - turn.angle();
    turns.push_back(signed_angle / (2.0 * std::numbers::pi));
  }
  std::sort(turns.begin(), turns.end());
  double ks_turn = 0.0;
  for (int k = 0; k < n; ++k)
    ks_turn = std::max(
        {ks_turn, std::abs(turns[k] - double(k) / n), std::abs(turns[k] - double(k + 1) / n)});
  EXPECT_LT(ks_turn, 2.0 / std::sqrt(double(n)));
  // Without random_orientation: the identity.
  EXPECT_TRUE(scenario::source_orientation(config::SizeSettings{}, 1234, 7)
                  .isApprox(Quat::Identity(), 0.0));
}
