// The cone complementarity model's single-contact solution (ccp_impulse): a sliding sphere
// derived by hand, the optimality certificate (KKT) on seeded random problems of every class,
// and agreement with the other models where the CCP and Coulomb models coincide.
#include "contact_test_support.hpp"

#include "granite/contact/single_contact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace granite::contact {
namespace {

using testing::class_name;
using testing::Problem;
using testing::ProblemClass;
using testing::ProblemGenerator;

// A sphere (mass m, I = 2/5 m r²) sliding at v0 along t on a fixed plane, gap 0, no spin, step
// h under gravity g. In the frame (n, t, o), A = diag(1/m, 7/(2m), 7/(2m)) and b = −u_pred =
// (g h, −v0, 0). Sliding (v0 large), the impulse is on the cone's boundary, x = (x_n, −μ x_n, 0),
// and the KKT conditions give y = A x − b = σ (μ² x_n, μ x_n, 0):
//   x_n/m − g h = μ (v0 − 7μ x_n/(2m))  =>  x_n = m (g h + μ v0) / (1 + 7μ²/2),
// post-step velocities u_t = v0 − 7μ x_n/(2m) and u_n = μ u_t > 0 (the CCP lift).
TEST(CcpImpulse, SlidingSphereByHand) {
  const double m = 0.3, g = 9.81, h = 1e-3, v0 = 2.0, mu = 0.4;
  Mat3 A = Mat3::Zero();
  A.diagonal() << 1.0 / m, 3.5 / m, 3.5 / m;
  const Vec3 b(g * h, -v0, 0.0);
  const double xn = m * (g * h + mu * v0) / (1.0 + 3.5 * mu * mu);
  const double ut = v0 - 3.5 * mu * xn / m;
  ASSERT_GT(ut, 0.0);  // the case is sliding
  const Impulse ccp = ccp_impulse(A, b, mu);
  EXPECT_EQ(ccp.kind, ContactCase::sliding);
  EXPECT_NEAR(ccp.x[0], xn, 1e-12 * xn);
  EXPECT_NEAR(ccp.x[1], -mu * xn, 1e-12 * xn);
  EXPECT_NEAR(ccp.x[2], 0.0, 1e-12 * xn);
  const Vec3 u = A * ccp.x - b;
  EXPECT_NEAR(u[1], ut, 1e-12 * v0);
  EXPECT_NEAR(u[0], mu * ut, 1e-12 * v0);
  // The Coulomb-type models keep the sphere on the plane: u_n = 0 (x_n = m g h).
  for (const Impulse& other : {max_dissipation_impulse(A, b, mu), coulomb_impulse(A, b, mu)}) {
    const Vec3 v = A * other.x - b;
    EXPECT_NEAR(v[0], 0.0, 1e-12 * v0);
    EXPECT_NEAR(other.x[0], m * g * h, 1e-12 * m * g * h);
  }
}

// Without gravity (b_n = 0) a Coulomb model does nothing, but the CCP still pushes: friction
// needs a normal impulse, and its cone alone admits one.
TEST(CcpImpulse, GrazingContactIsLifted) {
  Mat3 A = Mat3::Zero();
  A.diagonal() << 1.0, 3.5, 3.5;
  const Impulse ccp = ccp_impulse(A, Vec3(0.0, -1.0, 0.0), 0.5);
  EXPECT_GT(ccp.x[0], 0.0);
  EXPECT_EQ(coulomb_impulse(A, Vec3(0.0, -1.0, 0.0), 0.5).kind, ContactCase::separating);
}

// Optimality certificate of the convex problem, independent of how x was found:
// x ∈ K, y = A x − b ∈ K*, xᵀy = 0, each to rounding relative to the problem's scale
// (the tolerances are ~10⁴ ε for the cone conditions of the unit-scaled problem).
class CcpRandom : public ::testing::TestWithParam<ProblemClass> {};

TEST_P(CcpRandom, SatisfiesTheConeComplementarityConditions) {
  const ProblemClass cls = GetParam();
  ProblemGenerator gen(777u + static_cast<unsigned>(cls) * 131u);
  int failures = 0;
  for (int i = 0; i < 5000; ++i) {
    const Problem p = gen.next(cls);
    const Vec3 x = ccp_impulse(p.A, p.b, p.mu).x;
    const Vec3 y = p.A * x - p.b;
    const double xs = p.A.norm() * x.norm() + p.b.norm();  // scale of y
    const double tol = 1e-9;
    const double x_cone = std::hypot(x[1], x[2]) - p.mu * x[0];
    const double y_cone = p.mu * std::hypot(y[1], y[2]) - y[0];
    const bool ok =
        x[0] >= -tol * x.norm() && x_cone <= tol * x.norm() * (1.0 + p.mu) &&
        (p.mu == 0.0
             ? (y[0] >= -tol * xs && std::fabs(x[0] * y[0]) <= tol * xs * x.norm())
             : (y_cone <= tol * xs * (1.0 + p.mu) && std::fabs(x.dot(y)) <= tol * xs * x.norm()));
    if (!ok && ++failures <= 5)
      ADD_FAILURE() << class_name(cls) << ": x = " << x.transpose() << ", y = " << y.transpose()
                    << ", mu = " << p.mu << ", b = " << p.b.transpose();
  }
  EXPECT_EQ(failures, 0);
}

INSTANTIATE_TEST_SUITE_P(AllClasses, CcpRandom, ::testing::ValuesIn(testing::kAllClasses),
                         [](const auto& info) { return class_name(info.param); });

// Where the two models coincide: sticking (A⁻¹b inside the cone) and frictionless contacts give
// the maximum-dissipation answer.
TEST(CcpImpulse, CoincidesWithMaximumDissipationWhenSticking) {
  ProblemGenerator gen(99u);
  int sticking = 0;
  for (int i = 0; i < 2000; ++i) {
    const Problem p = gen.next(ProblemClass::well_conditioned);
    const Impulse ccp = ccp_impulse(p.A, p.b, p.mu);
    if (ccp.kind != ContactCase::sticking) continue;
    ++sticking;
    const Vec3 mdp = max_dissipation_impulse(p.A, p.b, p.mu).x;
    EXPECT_LE((ccp.x - mdp).norm(), 1e-12 * mdp.norm());
  }
  EXPECT_GT(sticking, 0);
  const Problem p = gen.next(ProblemClass::well_conditioned);
  EXPECT_EQ(ccp_impulse(p.A, p.b, 0.0).x, frictionless_impulse(p.A, p.b, 0.0).x);
}

}  // namespace
}  // namespace granite::contact
