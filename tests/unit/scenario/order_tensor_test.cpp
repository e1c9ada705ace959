// The order tensor's parts (scenario/order_tensor.hpp): each shape's long axis from its
// principal moments, and Q, S, director from the sums, against closed forms.
#include "granite/scenario/order_tensor.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace granite;

TEST(OrderTensor, LongAxesArePrincipalAxesOfLeastMomentOfProlateShapes) {
  body::ShapeTable shapes;
  const auto rod = shapes.add_capsule("rod", 0.5e-3, 1.5e-3);                // along body x
  const auto brick = shapes.add_box("brick", Vec3(0.5e-3, 2e-3, 1e-3));      // longest along y
  const auto cube = shapes.add_box("cube", Vec3(1e-3, 1e-3, 1e-3));          // no long axis
  const auto disk = shapes.add_ellipsoid("disk", Vec3(2e-3, 2e-3, 0.5e-3));  // oblate
  const auto axes = scenario::long_axes(shapes);
  EXPECT_NEAR(std::abs(axes[std::size_t(rod)].x()), 1.0, 1e-12);
  EXPECT_NEAR(std::abs(axes[std::size_t(brick)].y()), 1.0, 1e-12);
  EXPECT_EQ(axes[std::size_t(cube)], Vec3::Zero());
  EXPECT_EQ(axes[std::size_t(disk)], Vec3::Zero());
}

TEST(OrderTensor, ParallelAxesGiveOneAndTheAxesOfACubeGiveZero) {
  // All along u: ⟨uuᵀ⟩ = uuᵀ, Q = (3/2) uuᵀ − ½ I, eigenvalues 1, −½, −½.
  double sums[scenario::OrderSums::kSize] = {};
  const Vec3 u = Vec3(1.0, -2.0, 0.5).normalized();
  for (int k = 0; k < 10; ++k) scenario::OrderSums::add(sums, k % 2 ? u : Vec3(-u));
  const scenario::Order parallel = scenario::order_of(sums);
  EXPECT_EQ(parallel.grains, 10.0);
  EXPECT_NEAR(parallel.S, 1.0, 1e-14);
  EXPECT_NEAR(std::abs(parallel.director.dot(u)), 1.0, 1e-14);
  EXPECT_GT(parallel.director.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_NEAR(parallel.Q.trace(), 0.0, 1e-14);
  // The three coordinate axes equally often: ⟨uuᵀ⟩ = I/3, Q = 0.
  double cube[scenario::OrderSums::kSize] = {};
  for (int a = 0; a < 3; ++a) scenario::OrderSums::add(cube, Vec3::Unit(a));
  EXPECT_NEAR(scenario::order_of(cube).S, 0.0, 1e-15);
  // No grains: NaN, not 0 (an empty cell is not isotropic).
  double none[scenario::OrderSums::kSize] = {};
  EXPECT_TRUE(std::isnan(scenario::order_of(none).S));
}
