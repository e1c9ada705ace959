// Lemke's method (contact/lemke.hpp): the cases (1-D with q < 0, q ≥ 0, a degenerate
// problem with ties, ray termination, the paper's copositive-not-copositive-plus matrix of
// Eqs. 18–19) and seeded random P-matrix LCPs compared with an independent enumeration of every
// complementary basis. Every returned solution is checked for complementarity here, too.
#include "granite/contact/lemke.hpp"
#include "granite/contact/polyhedral.hpp"

#include <Eigen/LU>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace granite::contact {
namespace {

// The check of the test, independent of lcp_check: z ≥ 0, w = Mz + q ≥ −tol, |z_i w_i| ≤ tol,
// tol = 1e-12 × (‖q‖ + ‖M‖‖z‖) (a few pivots of a well-scaled problem lose a few digits).
void expect_solves(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z) {
  const Eigen::VectorXd w = M * z + q;
  const double tol = 1e-12 * (q.lpNorm<Eigen::Infinity>() + M.norm() * z.lpNorm<Eigen::Infinity>());
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    EXPECT_GE(z[i], 0.0) << i;
    EXPECT_GE(w[i], -tol) << i;
    EXPECT_LE(std::fabs(z[i] * w[i]), tol * (1.0 + z.lpNorm<Eigen::Infinity>())) << i;
  }
}

Eigen::MatrixXd mat(std::initializer_list<std::initializer_list<double>> rows) {
  Eigen::MatrixXd M(rows.size(), rows.begin()->size());
  int i = 0;
  for (const auto& r : rows) {
    int j = 0;
    for (double v : r) M(i, j++) = v;
    ++i;
  }
  return M;
}

TEST(Lemke, OneDimensionalWithNegativeQ) {
  // w = m z + q: z = −q/m (the 1-D case that failed in DART), also for tiny and large m.
  Lemke lemke;
  for (const double m : {1.0, 2.0, 1e-6, 1e6}) {
    const Eigen::MatrixXd M = Eigen::MatrixXd::Constant(1, 1, m);
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, -3.0);
    Eigen::VectorXd z;
    const LemkeResult r = lemke.solve(M, q, z);
    ASSERT_EQ(r.status, LemkeStatus::solution) << m;
    EXPECT_NEAR(z[0], 3.0 / m, 1e-14 * 3.0 / m);
    EXPECT_LE(r.error, 1e-12 * r.scale);
    expect_solves(M, q, z);
  }
}

TEST(Lemke, NonnegativeQGivesZero) {
  Lemke lemke;
  const Eigen::MatrixXd M = mat({{1, 2}, {3, 4}});
  const Eigen::VectorXd q = Eigen::Vector2d(0.0, 5.0);
  Eigen::VectorXd z;
  const LemkeResult r = lemke.solve(M, q, z);
  EXPECT_EQ(r.status, LemkeStatus::solution);
  EXPECT_EQ(r.pivots, 0);
  EXPECT_EQ(z, Eigen::VectorXd::Zero(2));
  EXPECT_EQ(r.error, 0.0);
}

TEST(Lemke, DegenerateTiesTerminate) {
  // Every ratio of the first pivot ties (q = −e, d = e), and later ratios tie at zero: the
  // lexicographic rule must still end on the solution z = e/3 (M z = e).
  Lemke lemke;
  const Eigen::MatrixXd M = mat({{1, 2, 0}, {0, 1, 2}, {2, 0, 1}});
  const Eigen::VectorXd q = -Eigen::VectorXd::Ones(3);
  Eigen::VectorXd z;
  const LemkeResult r = lemke.solve(M, q, z);
  ASSERT_EQ(r.status, LemkeStatus::solution);
  EXPECT_LT(r.pivots, 20);
  expect_solves(M, q, z);
  EXPECT_NEAR((M * z + q).cwiseAbs().maxCoeff(), 0.0, 1e-14);  // all w = 0 here
  // A degenerate q with zero entries and a repeated row (ties in every ratio test).
  const Eigen::MatrixXd M2 = mat({{2, 1, 1, 0}, {2, 1, 1, 0}, {1, 1, 2, 1}, {0, 0, 1, 1}});
  const Eigen::VectorXd q2 = Eigen::Vector4d(-1.0, -1.0, 0.0, 0.0);
  const LemkeResult r2 = lemke.solve(M2, q2, z);
  ASSERT_EQ(r2.status, LemkeStatus::solution);
  expect_solves(M2, q2, z);
}

TEST(Lemke, RayTerminationIsReported) {
  Lemke lemke;
  Eigen::VectorXd z;
  // w = −z − 1 ≥ 0 has no solution with z ≥ 0.
  EXPECT_EQ(
      lemke.solve(Eigen::MatrixXd::Constant(1, 1, -1.0), Eigen::VectorXd::Constant(1, -1.0), z)
          .status,
      LemkeStatus::ray_termination);
  // w1 + w2 = −2 for every z: infeasible.
  EXPECT_EQ(lemke.solve(mat({{1, -1}, {-1, 1}}), Eigen::Vector2d(-1.0, -1.0), z).status,
            LemkeStatus::ray_termination);
}

TEST(Lemke, InvalidInputAndPivotLimit) {
  Lemke lemke;
  Eigen::VectorXd z;
  EXPECT_EQ(lemke.solve(Eigen::MatrixXd::Identity(2, 2), Eigen::VectorXd::Ones(3), z).status,
            LemkeStatus::invalid_input);
  Eigen::VectorXd q = -Eigen::VectorXd::Ones(2);
  q[1] = std::nan("");
  EXPECT_EQ(lemke.solve(Eigen::MatrixXd::Identity(2, 2), q, z).status, LemkeStatus::invalid_input);
  // Identity with q = −e needs n + 1 pivots (z0, then each z_i): a limit of 2 stops it.
  LemkeOptions options;
  options.max_pivots = 2;
  const LemkeResult r =
      lemke.solve(Eigen::MatrixXd::Identity(4, 4), -Eigen::VectorXd::Ones(4), z, options);
  EXPECT_EQ(r.status, LemkeStatus::pivot_limit);
  EXPECT_EQ(r.pivots, 2);
}

// The paper's Eqs. (17)–(19): N = [[DᵀM⁻¹D, DᵀM⁻¹n, e], [nᵀM⁻¹D, nᵀM⁻¹n, 0], [−eᵀ, μ, 0]] is
// copositive but not copositive-plus; Lemke's method must still solve LCP(N, b) for every b of
// the form (17). polyhedral_lcp builds the same matrix (order (c_n, β, λ), A = M⁻¹ in the frame).
TEST(Lemke, CopositiveNotCopositivePlusMatrixOfThePaper) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Lemke lemke;
  Eigen::MatrixXd N;
  Eigen::VectorXd q, z;
  const int k = 8;
  for (int trial = 0; trial < 500; ++trial) {
    Mat3 R = Mat3::Random();
    const Mat3 A = R * R.transpose() + 0.1 * Mat3::Identity();
    const Vec3 b(u(rng), 3.0 * u(rng), 3.0 * u(rng));
    const double mu = 0.05 + std::fabs(u(rng));
    polyhedral_lcp(A, b, mu, k, N, q);
    if (trial == 0) {
      // Copositive (Eq. 18): zᵀN z = xᵀAx + μ x_n λ ≥ 0 on z ≥ 0; zero for z = (0, β, λ) with
      // Dβ = 0 (opposite directions), yet (N + Nᵀ) z ≠ 0: not copositive-plus.
      Eigen::VectorXd zz = Eigen::VectorXd::Zero(k + 2);
      zz[1] = zz[1 + k / 2] = 1.0;  // d_0 + d_{k/2} = 0
      zz[k + 1] = 1.0;
      EXPECT_NEAR(zz.dot(N * zz), 0.0, 1e-12);
      // (N + Nᵀ) z = μλ e_n: the e and −eᵀ blocks cancel, the μ entry does not.
      EXPECT_NEAR(((N + N.transpose()) * zz).norm(), mu, 1e-12);
      for (int s = 0; s < 1000; ++s) {
        const Eigen::VectorXd p = Eigen::VectorXd::Random(k + 2).cwiseAbs();
        EXPECT_GE(p.dot(N * p), -1e-12 * p.squaredNorm() * N.norm());
      }
    }
    const LemkeResult r = lemke.solve(N, q, z);
    ASSERT_EQ(r.status, LemkeStatus::solution) << trial;
    expect_solves(N, q, z);
  }
}

// Seeded random LCPs with positive definite (not necessarily symmetric) M, hence P-matrices and a
// unique solution for every q: Lemke's z equals the solution found by enumerating all 2ⁿ
// complementary bases α (z_α = −M_αα⁻¹ q_α, w = Mz + q ≥ 0, z ≥ 0).
TEST(Lemke, RandomPMatricesMatchEnumeration) {
  std::mt19937 rng(16);
  std::normal_distribution<double> g;
  Lemke lemke;
  Eigen::VectorXd z;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 6;
    Eigen::MatrixXd B(n, n), S(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        B(i, j) = g(rng);
        S(i, j) = g(rng);
      }
    const Eigen::MatrixXd M =
        B * B.transpose() + 0.05 * Eigen::MatrixXd::Identity(n, n) +
        (trial % 2 ? Eigen::MatrixXd(S - S.transpose()) : Eigen::MatrixXd::Zero(n, n));
    Eigen::VectorXd q(n);
    for (int i = 0; i < n; ++i) q[i] = g(rng);
    const LemkeResult r = lemke.solve(M, q, z);
    ASSERT_EQ(r.status, LemkeStatus::solution) << trial;
    expect_solves(M, q, z);
    int found = 0;
    for (int mask = 0; mask < (1 << n); ++mask) {
      Eigen::VectorXd ze = Eigen::VectorXd::Zero(n);
      std::vector<int> alpha;
      for (int i = 0; i < n; ++i)
        if (mask >> i & 1) alpha.push_back(i);
      const int m = static_cast<int>(alpha.size());
      if (m > 0) {
        Eigen::MatrixXd Ma(m, m);
        Eigen::VectorXd qa(m);
        for (int i = 0; i < m; ++i) {
          qa[i] = q[alpha[i]];
          for (int j = 0; j < m; ++j) Ma(i, j) = M(alpha[i], alpha[j]);
        }
        const Eigen::VectorXd za = Ma.partialPivLu().solve(-qa);
        for (int i = 0; i < m; ++i) ze[alpha[i]] = za[i];
      }
      const Eigen::VectorXd we = M * ze + q;
      const double tol = 1e-10 * (1.0 + ze.norm());
      if (ze.minCoeff() < -tol || we.minCoeff() < -tol) continue;
      ++found;
      EXPECT_NEAR((ze - z).norm(), 0.0, 1e-9 * (1.0 + ze.norm())) << trial;
    }
    EXPECT_EQ(found, 1) << trial;  // P-matrix: exactly one (up to degenerate duplicates)
  }
}

}  // namespace
}  // namespace granite::contact
