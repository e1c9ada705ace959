// The polyhedral model (Stewart–Trinkle, one contact): equal to mdp on sticking and frictionless
// problems, and on a sliding sphere the friction lies within π/k of the opposite of the slip and
// decelerates it between μ x_n cos(π/k) and μ x_n (the analytic bound), approaching the
// Coulomb solution as k grows.
#include "granite/contact/polyhedral.hpp"
#include "granite/contact/single_contact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace granite::contact {
namespace {

constexpr double kPi = std::numbers::pi;

Mat3 random_spd(std::mt19937& rng) {
  std::normal_distribution<double> g;
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = g(rng);
  return R * R.transpose() + 0.2 * Mat3::Identity();
}

// Sticking: x0 = A⁻¹b strictly inside the inscribed pyramid (‖x0_to‖ < μ x0_n cos(π/k)) with
// b_n > 0 (for b_n < 0 the LCP also admits x = 0, which mdp returns) is the mdp answer and the polyhedral one (u = 0 is reached in both). Frictionless: μ = 0. Rounding:
// a few pivots on a well-conditioned 10 × 10 tableau, 1e-12 relative.
TEST(Polyhedral, StickingAndFrictionlessEqualMdp) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int sticking = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Mat3 A = random_spd(rng);
    const int k = 4 + 2 * (trial % 8);
    const double mu = 0.1 + 2.0 * std::fabs(u(rng));
    const Vec3 x0(1.0 + u(rng), u(rng), u(rng));
    const Vec3 b = A * x0;
    const bool inside =
        std::hypot(x0[1], x0[2]) < 0.999 * mu * x0[0] * std::cos(kPi / k) && b[0] > 0.0;
    const Impulse mdp = max_dissipation_impulse(A, b, mu);
    const Impulse poly = polyhedral_impulse(A, b, mu, k);
    if (inside) {
      ++sticking;
      EXPECT_EQ(poly.kind, ContactCase::sticking);
      EXPECT_EQ(mdp.kind, ContactCase::sticking);
      EXPECT_NEAR((poly.x - mdp.x).norm(), 0.0, 1e-12 * x0.norm()) << trial;
    }
    const Impulse f0 = polyhedral_impulse(A, b, 0.0, k);
    EXPECT_EQ(f0.x, max_dissipation_impulse(A, b, 0.0).x);
  }
  EXPECT_GT(sticking, 200);
}

// A separating contact (b_n < 0, −b in the polar of every cone with b_to = 0) gets x = 0.
TEST(Polyhedral, SeparatingGivesZero) {
  const Mat3 A = Vec3(1.0, 3.5, 3.5).asDiagonal();
  const Impulse p = polyhedral_impulse(A, Vec3(-1.0, 0.3, -0.2), 0.5, 8);
  EXPECT_EQ(p.kind, ContactCase::separating);
  EXPECT_EQ(p.x, Vec3::Zero());
}

// A sphere (m, I = 2/5 m r²) sliding on a plane at v0 in the direction φ: A = diag(1/m, 7/(2m),
// 7/(2m)), b = (g h, −v0 cos φ, −v0 sin φ). It stays on the plane (x_n = m g h) and, while it
// still slides after the step, the friction x_to (a point of the pyramid's boundary, a vertex or
// an edge facing the slip) has its component along −ŝ (ŝ the post-step slip direction) between
// μ x_n cos(π/k) and μ x_n, and makes an angle ≤ π/k with −ŝ. Its distance to the Coulomb
// friction −μ x_n ŝ_c is then at most 2 μ x_n sin(π/(2k)) (up to the slip-direction change),
// and the error decreases with k.
TEST(Polyhedral, SlidingApproachesCoulombWithinPiOverK) {
  const double m = 0.3, g = 9.81, h = 1e-3, v0 = 2.0, mu = 0.4;
  const Mat3 A = Vec3(1.0 / m, 3.5 / m, 3.5 / m).asDiagonal();
  const double xn = m * g * h;
  double previous_worst = INFINITY;
  for (const int k : {4, 8, 16, 32}) {
    double worst = 0.0;
    for (int i = 0; i < 97; ++i) {
      const double phi = 2.0 * kPi * i / 97.0;
      const Vec3 b(g * h, -v0 * std::cos(phi), -v0 * std::sin(phi));
      const Impulse p = polyhedral_impulse(A, b, mu, k);
      ASSERT_EQ(p.kind, ContactCase::sliding) << k << ' ' << phi;
      EXPECT_NEAR(p.x[0], xn, 1e-13 * xn);
      const Vec3 uu = A * p.x - b;
      EXPECT_NEAR(uu[0], 0.0, 1e-13 * v0);
      const Eigen::Vector2d s = uu.tail<2>().normalized();
      const Eigen::Vector2d f = p.x.tail<2>();
      const double along = -f.dot(s);
      const double tol = 1e-12 * mu * xn;
      EXPECT_GE(along, mu * xn * std::cos(kPi / k) - tol) << k << ' ' << phi;
      EXPECT_LE(f.norm(), mu * xn + tol) << k << ' ' << phi;
      EXPECT_LE(std::acos(std::min(1.0, along / f.norm())), kPi / k + 1e-9) << k << ' ' << phi;
      const Impulse c = coulomb_impulse(A, b, mu);
      const double distance = (p.x - c.x).norm();
      worst = std::max(worst, distance);
      // The slip directions differ by at most the angle the tangential impulses (both ≤ μ x_n)
      // can turn the slip of size ≥ v0 − 3.5 μ x_n/m: add that to the bound.
      const double turn = 2.0 * 3.5 * mu * xn / m / (v0 - 3.5 * mu * xn / m);
      EXPECT_LE(distance, mu * xn * (2.0 * std::sin(kPi / (2 * k)) + turn)) << k << ' ' << phi;
    }
    EXPECT_LT(worst, previous_worst) << k;
    previous_worst = worst;
  }
}

// The LCP matrix: zᵀN z = xᵀA x + μ x_n λ with x = G z (Eq. 18).
TEST(Polyhedral, LcpMatrixIsCopositiveByEq18) {
  std::mt19937 rng(18);
  Eigen::MatrixXd N;
  Eigen::VectorXd q;
  const Mat3 A = random_spd(rng);
  const int k = 6;
  const double mu = 0.7;
  polyhedral_lcp(A, Vec3(1.0, 2.0, 3.0), mu, k, N, q);
  const Eigen::VectorXd z = Eigen::VectorXd::Random(k + 2).cwiseAbs();
  Vec3 x(z[0], 0.0, 0.0);
  for (int j = 0; j < k; ++j) x.tail<2>() += z[j + 1] * friction_direction(j, k);
  EXPECT_NEAR(z.dot(N * z), x.dot(A * x) + mu * z[0] * z[k + 1], 1e-12 * N.norm());
}

}  // namespace
}  // namespace granite::contact
