// The joint cone of rolling and spinning resistance (contact/rolling_cone.hpp), by certificates
// that share nothing with the code under test:
// - Moreau's decomposition: x = Π_Υ(z) iff x ∈ Υ, w = z − x lies in the polar cone −Υ*
//   (−w_n >= μ ‖w_to‖ + μ_s |w_s| + μ_r ‖w_r‖) and x ⊥ w;
// - the single-contact CCP: its answer satisfies the KKT conditions z ∈ Υ ⊥ Gz − c ∈ Υ*
//   checked term by term, and no feasible point of a random sample has a lower objective;
// - with μ_s = μ_r = 0 and a G without coupling, its impulse is the CCP's exact solution
//   (contact::ccp_impulse, a quartic) and its torque is 0.
// Tolerances: the projection is closed form, so its certificate holds to rounding (1e-13 of
// the scale); the iterative CCP stops on steps below 1e-14 ‖z‖ on problems with condition
// numbers below 10⁴ after scaling, so its KKT terms hold to 1e-9 of the scale.
#include "granite/contact/friction_cone.hpp"
#include "granite/contact/rolling_cone.hpp"
#include "granite/contact/single_contact.hpp"

#include <gtest/gtest.h>

#include <random>
#include <tuple>

using namespace granite;
using namespace granite::contact;

namespace {

double block(const Vec6& z, int first, int size) {
  return size == 1 ? std::abs(z[first]) : std::hypot(z[first], z[first + 1]);
}

// The slack of z in Υ (>= 0 inside) and of y in Υ* (>= 0 inside), relative to their size.
double cone_slack(const Vec6& z, const RollingCone& k) {
  const double s = std::min({k.mu * z[0] - block(z, 1, 2), k.spinning * z[0] - block(z, 3, 1),
                             k.rolling * z[0] - block(z, 4, 2), z[0]});
  return s / std::max(z.norm(), 1e-300);
}
double dual_slack(const Vec6& y, const RollingCone& k) {
  const double s =
      y[0] - k.mu * block(y, 1, 2) - k.spinning * block(y, 3, 1) - k.rolling * block(y, 4, 2);
  return s / std::max(y.norm(), 1e-300);
}

RollingCone random_cone(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  // Some coefficients exactly 0: their blocks must vanish.
  const auto coefficient = [&] { return u(rng) < 0.2 ? 0.0 : 2.0 * u(rng); };
  return {coefficient(), coefficient(), coefficient()};
}

Vec6 random_vector(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  Vec6 z;
  for (int i = 0; i < 6; ++i) z[i] = g(rng);
  return z;
}

Mat6 random_spd(std::mt19937_64& rng, double condition) {
  const Eigen::HouseholderQR<Mat6> qr(Mat6::NullaryExpr(
      [&](Eigen::Index, Eigen::Index) { return std::normal_distribution<double>()(rng); }));
  const Mat6 Q = qr.householderQ();
  Vec6 eigen;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 6; ++i) eigen[i] = std::pow(condition, u(rng));
  return Q * eigen.asDiagonal() * Q.transpose();
}

}  // namespace

TEST(RollingCone, ProjectionSatisfiesMoreausDecomposition) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    const RollingCone k = random_cone(rng);
    const Vec6 z = random_vector(rng);
    const Vec6 x = project_onto_rolling_cone(z, k);
    const Vec6 w = z - x;
    const double scale = z.norm();
    ASSERT_GE(cone_slack(x, k) * std::max(x.norm(), 1e-300), -1e-13 * scale) << trial;
    ASSERT_GE(dual_slack(-w, k) * std::max(w.norm(), 1e-300), -1e-13 * scale) << trial;
    ASSERT_NEAR(x.dot(w), 0.0, 1e-13 * scale * scale) << trial;
  }
}

TEST(RollingCone, WithoutRollingOrSpinningItIsTheFrictionConesProjection) {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 2000; ++trial) {
    const double mu = random_cone(rng).mu;
    Vec6 z = random_vector(rng);
    const Vec6 x = project_onto_rolling_cone(z, {mu, 0.0, 0.0});
    const Vec3 expected = project_onto_friction_cone(z.head<3>(), mu);
    EXPECT_LT((x.head<3>() - expected).norm(), 1e-14 * z.norm()) << trial;
    EXPECT_EQ(x.tail<3>().norm(), 0.0);
  }
}

TEST(RollingCone, FrictionlessConeHasNoNegativeNormal) {
  // μ = 0: K = {x_to = 0, x_n >= 0}, so a pulling normal impulse projects to 0.
  EXPECT_EQ(project_onto_friction_cone(Vec3(-1.0, 0.0, 0.0), 0.0), Vec3::Zero());
  EXPECT_EQ(project_onto_friction_cone(Vec3(2.0, 0.5, 0.0), 0.0), Vec3(2.0, 0.0, 0.0));
}

TEST(RollingCone, SingleContactCcpMeetsItsKktConditionsAndBeatsSamples) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 500; ++trial) {
    const RollingCone k = random_cone(rng);
    const Mat6 G = random_spd(rng, 100.0);
    const Vec6 c = random_vector(rng);
    const RollingCcpBlock b = prepare_rolling_ccp(G, k);
    const RollingCcpResult r = solve_rolling_ccp(b, c, Vec6::Zero());
    ASSERT_TRUE(r.converged) << trial << " after " << r.iterations;
    const Vec6 y = G * r.z - c;
    const double scale = c.norm();
    EXPECT_GE(cone_slack(r.z, k) * r.z.norm(), -1e-9 * scale / G.norm()) << trial;
    EXPECT_GE(dual_slack(y, k) * y.norm(), -1e-9 * scale) << trial;
    EXPECT_NEAR(r.z.dot(y), 0.0, 1e-9 * scale * scale / G.norm()) << trial;
    const double f = 0.5 * r.z.dot(G * r.z) - c.dot(r.z);
    for (int s = 0; s < 200; ++s) {
      const Vec6 feasible = project_onto_rolling_cone(r.z + 0.1 * u(rng) * random_vector(rng), k);
      EXPECT_GE(0.5 * feasible.dot(G * feasible) - c.dot(feasible), f - 1e-12 * std::abs(f));
    }
  }
}

TEST(RollingCone, UncoupledWithoutRollingItIsTheExactCcp) {
  std::mt19937_64 rng(10);
  for (int trial = 0; trial < 500; ++trial) {
    const double mu = 0.05 + random_cone(rng).mu;
    Mat6 G = Mat6::Zero();
    const Mat6 full = random_spd(rng, 50.0);
    G.topLeftCorner<3, 3>() = full.topLeftCorner<3, 3>();
    G.bottomRightCorner<3, 3>() = full.bottomRightCorner<3, 3>();
    const Vec6 c = random_vector(rng);
    const RollingCcpResult r =
        solve_rolling_ccp(prepare_rolling_ccp(G, {mu, 0.0, 0.0}), c, Vec6::Zero());
    const Impulse exact = ccp_impulse(G.topLeftCorner<3, 3>(), c.head<3>(), mu);
    EXPECT_LT((r.z.head<3>() - exact.x).norm(), 1e-9 * std::max(exact.x.norm(), 1e-3)) << trial;
    EXPECT_EQ(r.z.tail<3>().norm(), 0.0) << trial;
  }
}

TEST(RollingCone, ProjectionJacobianMatchesFiniteDifferences) {
  // Central differences with step h have error O(h²‖Π'''‖) away from Π's kinks; points within
  // 1e-3 of a kink (a block norm at its radius, ν at 0) are skipped.
  std::mt19937_64 rng(11);
  const double h = 1e-6;
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const RollingCone k = random_cone(rng);
    const Vec6 z = random_vector(rng);
    Mat6 J;
    const Vec6 x = project_onto_rolling_cone(z, k, &J);
    const double nu = x[0];
    bool near_kink = nu < 1e-3 && nu > 0.0;
    for (const auto& [f, n, mu] :
         {std::tuple{1, 2, k.mu}, std::tuple{3, 1, k.spinning}, std::tuple{4, 2, k.rolling}})
      near_kink = near_kink || std::abs(block(z, f, n) - mu * nu) < 1e-3 || block(z, f, n) < 1e-3;
    if (near_kink) continue;
    Mat6 numeric;
    for (int i = 0; i < 6; ++i) {
      Vec6 e = Vec6::Zero();
      e[i] = h;
      numeric.col(i) =
          (project_onto_rolling_cone(z + e, k) - project_onto_rolling_cone(z - e, k)) / (2 * h);
    }
    EXPECT_LT((J - numeric).norm(), 1e-6) << trial;
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

TEST(RollingCone, NewtonNeedsFewStepsFromAWarmStart) {
  // From the answer of a nearby problem (c perturbed by 1 %), as in a Gauss–Seidel sweep:
  // quadratic convergence takes an error of 1e-2 below 1e-14 in 3 to 4 steps, plus the step
  // that confirms it; the bound 8 leaves room for a few line searches at kinks.
  std::mt19937_64 rng(12);
  int total = 0;
  const int trials = 500;
  for (int trial = 0; trial < trials; ++trial) {
    const RollingCone k = random_cone(rng);
    const Mat6 G = random_spd(rng, 100.0);
    const Vec6 c = random_vector(rng);
    const RollingCcpBlock b = prepare_rolling_ccp(G, k);
    const Vec6 near = solve_rolling_ccp(b, c + 0.01 * random_vector(rng), Vec6::Zero()).z;
    const RollingCcpResult r = solve_rolling_ccp(b, c, near);
    ASSERT_TRUE(r.converged);
    total += r.iterations;
  }
  EXPECT_LT(double(total) / trials, 8.0);
}
