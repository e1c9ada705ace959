// The Coulomb model's sliding impulse on blocks with normal–tangential coupling (non-spherical
// bodies): Newton on the slip direction, with the decoupling iteration (accelerated by
// Steffensen) behind it. Its answer must satisfy Coulomb's law, checked from its definition
// (u = A x − b: u_n = 0, x on the cone boundary, the slip opposite to the friction), and be one of
// the solutions that coulomb_all_solutions enumerates independently (the roots of the quartic).
#include "contact_test_support.hpp"

#include "granite/contact/single_contact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace granite::contact {
namespace {

using testing::Problem;
using testing::ProblemClass;
using testing::ProblemGenerator;

// Rounding of an O(1)-scaled 3 × 3 product and a few angle updates: u_n and the cone boundary
// to 1e-10 relative, the slip direction to 1e-7 rad (the angle's residual is 1e-13 of the
// equation's scale, its sensitivity grows with the block's condition, below 1e3 in this class).
constexpr double kNormalTolerance = 1e-10;
constexpr double kDirectionTolerance = 1e-7;

// Coulomb's law for a sliding x: u_n = 0 and ‖x_t‖ = μ x_n (relative to the problem's scale),
// and the slip u_t opposite to x_t (the angle between −u_t and x_t).
void expect_sliding_coulomb_solution(const Problem& p, const Vec3& x, int index) {
  const Vec3 u = p.A * x - p.b;
  const double scale = p.A.norm() * x.norm() + p.b.norm();
  EXPECT_LE(std::abs(u[0]), kNormalTolerance * scale) << "problem " << index;
  const double xt = std::hypot(x[1], x[2]);
  EXPECT_LE(std::abs(xt - p.mu * x[0]), kNormalTolerance * scale) << "problem " << index;
  const double ut = std::hypot(u[1], u[2]);
  if (xt > 0.0 && ut > kNormalTolerance * scale) {
    const double cosine = -(u[1] * x[1] + u[2] * x[2]) / (ut * xt);
    EXPECT_LE(std::acos(std::clamp(cosine, -1.0, 1.0)), kDirectionTolerance) << "problem " << index;
  }
}

TEST(CoulombImpulse, SlidingAnswersOfCoupledBlocksAreCoulombSolutions) {
  ProblemGenerator gen(2718u);
  int sliding = 0;
  int enumerated = 0;
  for (int i = 0; i < 20000; ++i) {
    const Problem p = gen.next(ProblemClass::well_conditioned);
    const Impulse x = coulomb_impulse(p.A, p.b, p.mu);
    if (x.kind != ContactCase::sliding) continue;
    ++sliding;
    expect_sliding_coulomb_solution(p, x.x, i);
    if (i % 4 != 0) continue;
    double nearest = 1e300;
    for (const Impulse& s : coulomb_all_solutions(p.A, p.b, p.mu))
      nearest = std::min(nearest, (s.x - x.x).norm() / x.x.norm());
    ++enumerated;
    EXPECT_LE(nearest, 1e-6) << "problem " << i << ": not among the enumerated solutions";
  }
  EXPECT_GT(sliding, 10000);  // the class slides in about 72 % of its problems
  std::printf("[ coulomb ] %d sliding answers, %d matched against coulomb_all_solutions\n", sliding,
              enumerated);
}

// Sphere contacts (a = 0) keep the one-step decoupling: x_n = b_n / A_nn and the friction disc's
// energy minimum, which for M = m I is the radial projection of M⁻¹ b_t.
TEST(CoulombImpulse, UncoupledIsotropicBlockGivesTheRadialProjection) {
  Mat3 A = Mat3::Zero();
  A(0, 0) = 2.0;
  A(1, 1) = A(2, 2) = 3.0;
  const Vec3 b(1.0, 4.0, -3.0);
  const double mu = 0.4;
  const Impulse x = coulomb_impulse(A, b, mu);
  ASSERT_EQ(x.kind, ContactCase::sliding);
  const double xn = 0.5;
  EXPECT_DOUBLE_EQ(x.x[0], xn);
  EXPECT_NEAR(x.x[1], mu * xn * 0.8, 1e-15);
  EXPECT_NEAR(x.x[2], -mu * xn * 0.6, 1e-15);
}

}  // namespace
}  // namespace granite::contact
