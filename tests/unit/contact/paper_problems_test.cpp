// The paper's worked single-contact problems: §4.1 (Table 1) and §4.2 (Painlevé).
#include "contact_test_support.hpp"

#include "granite/contact/single_contact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace granite::contact {
namespace {

using testing::academic_problem;
using testing::painleve_problem;

// Table 1 prints two significant digits; a printed value v agrees if |x − v| ≤ half a unit in
// its last printed digit (plus a hair for the rounding of the rounding).
void expect_printed(double actual, double printed, double last_digit) {
  EXPECT_NEAR(actual, printed, 0.5 * last_digit * 1.0001) << "printed " << printed;
}

TEST(AcademicProblem, ThreeCoulombSolutionsAsInTable1) {
  const auto p = academic_problem();
  const CoulombSolutions all = coulomb_all_solutions(p.A, p.b, p.mu);
  std::vector<Impulse> sliding;
  for (const Impulse& s : all) {
    EXPECT_EQ(s.kind, ContactCase::sliding);
    sliding.push_back(s);
  }
  ASSERT_EQ(sliding.size(), 3u);
  std::sort(sliding.begin(), sliding.end(),
            [](const Impulse& a, const Impulse& b) { return a.x[0] < b.x[0]; });
  // x_i, A x_i − b, objective (Table 1)
  const double x[3][3] = {{0.12, -0.44, -0.065}, {0.29, -0.89, -0.62}, {1.56, -0.99, -5.7}};
  const double xd[3][3] = {{0.01, 0.01, 0.001}, {0.01, 0.01, 0.01}, {0.01, 0.01, 0.1}};
  const double u[3][3] = {{0.0, 0.40, 0.060}, {0.0, 0.082, 0.057}, {0.0, 0.0061, 0.035}};
  const double ud[3][3] = {{1e-3, 0.01, 0.001}, {1e-3, 0.001, 0.001}, {1e-3, 0.0001, 0.001}};
  const double f[3] = {-0.252, -0.393, -0.631};
  for (int i = 0; i < 3; ++i) {
    const Vec3 v = p.A * sliding[i].x - p.b;
    for (int k = 0; k < 3; ++k) {
      expect_printed(sliding[i].x[k], x[i][k], xd[i][k]);
      expect_printed(v[k], u[i][k], ud[i][k]);
    }
    expect_printed(objective(p.A, p.b, sliding[i].x), f[i], 0.001);
    // the frictional impulse directly opposes the slip: x_to = −μ x_n v_to/‖v_to‖
    const Eigen::Vector2d xto(sliding[i].x[1], sliding[i].x[2]);
    const Eigen::Vector2d vto(v[1], v[2]);
    EXPECT_NEAR((xto + p.mu * sliding[i].x[0] * vto.normalized()).norm(), 0.0, 1e-12);
  }
}

TEST(AcademicProblem, UniqueMaximumDissipationSolutionAsInTable1) {
  const auto p = academic_problem();
  const Impulse mdp = max_dissipation_impulse(p.A, p.b, p.mu);
  EXPECT_EQ(mdp.kind, ContactCase::sliding);
  const Vec3 v = p.A * mdp.x - p.b;
  expect_printed(mdp.x[0], 1.6, 0.1);
  expect_printed(mdp.x[1], -1.1, 0.1);
  expect_printed(mdp.x[2], -5.8, 0.1);
  expect_printed(v[0], 0.0, 1e-3);
  expect_printed(v[1], -0.057, 0.001);
  expect_printed(v[2], 0.034, 0.001);
  expect_printed(objective(p.A, p.b, mdp.x), -0.634, 0.001);
  // and it dissipates more than every Coulomb solution
  for (const Impulse& s : coulomb_all_solutions(p.A, p.b, p.mu)) {
    EXPECT_LT(objective(p.A, p.b, mdp.x), objective(p.A, p.b, s.x));
  }
  // the golden-section solver agrees once converged
  const Impulse golden = max_dissipation_golden_impulse(p.A, p.b, p.mu, 200);
  EXPECT_NEAR(objective(p.A, p.b, golden.x), objective(p.A, p.b, mdp.x), 1e-12);
}

// §4.2: the rod grazing the plane. b_n = 0, so the structogram goes through P1 and Eq. (9).
TEST(Painleve, StickingAboveCriticalFrictionZeroBelow) {
  const double v0 = 1.7;
  int checked_above = 0;
  int checked_below = 0;
  for (int i = 1; i < 60; ++i) {
    const double theta0 = 0.5 * std::numbers::pi * i / 60.0;
    const double s = std::sin(theta0);
    const double c = std::cos(theta0);
    const double mu_star = (c + 1.0 / (3.0 * c)) / s;
    const Vec3 lambda0 =
        v0 / 8.0 * Vec3(3.0 * std::sin(2 * theta0), 5.0 + 3.0 * std::cos(2 * theta0), 0.0);
    for (const double factor : {0.5, 0.9, 0.999, 1.001, 1.1, 2.0, 10.0}) {
      const double mu = factor * mu_star;
      const auto p = painleve_problem(theta0, v0, mu);
      const Impulse x = max_dissipation_impulse(p.A, p.b, mu);
      if (factor > 1.0) {
        EXPECT_EQ(x.kind, ContactCase::sticking) << "theta0 " << theta0 << " mu " << mu;
        EXPECT_LE((x.x - lambda0).norm(), 1e-12 * lambda0.norm()) << "theta0 " << theta0;
        ++checked_above;
      } else {
        EXPECT_EQ(x.kind, ContactCase::degenerate) << "theta0 " << theta0 << " mu " << mu;
        EXPECT_EQ(x.x, Vec3::Zero()) << "theta0 " << theta0 << " mu " << mu;
        ++checked_below;
      }
      // the golden-section variant shares the structogram
      const Impulse g = max_dissipation_golden_impulse(p.A, p.b, mu, 20);
      EXPECT_LE((g.x - x.x).norm(), 1e-12 * std::max(1.0, lambda0.norm()));
    }
  }
  EXPECT_EQ(checked_above, 59 * 4);
  EXPECT_EQ(checked_below, 59 * 3);
}

TEST(Painleve, CoulombAdmitsBothZeroAndStickingAboveCriticalFriction) {
  const double theta0 = 0.5 * std::acos(-0.6);  // where μ* is lowest, 4/3
  const double mu_star = 4.0 / 3.0;
  const auto above = painleve_problem(theta0, 1.0, 1.5 * mu_star);
  int zero = 0;
  int sticking = 0;
  for (const Impulse& s : coulomb_all_solutions(above.A, above.b, above.mu)) {
    zero += s.x == Vec3::Zero();
    sticking += s.kind == ContactCase::sticking;
  }
  EXPECT_EQ(zero, 1);
  EXPECT_EQ(sticking, 1);
  const auto below = painleve_problem(theta0, 1.0, 0.75 * mu_star);
  const CoulombSolutions only_zero = coulomb_all_solutions(below.A, below.b, below.mu);
  ASSERT_EQ(only_zero.size(), 1u);
  EXPECT_EQ(only_zero[0].x, Vec3::Zero());
}

}  // namespace
}  // namespace granite::contact
