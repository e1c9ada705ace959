// Stewart–Trinkle's polyhedral friction cone for one contact, solved by Lemke's method
// (see include/granite/contact/polyhedral.hpp for the LCP).
#include "granite/contact/polyhedral.hpp"

#include "granite/contact/lemke.hpp"
#include "granite/contact/single_contact.hpp"

#include <Eigen/Cholesky>

#include <cmath>
#include <numbers>

namespace granite::contact {

Eigen::Vector2d friction_direction(int j, int directions) {
  const double angle = 2.0 * std::numbers::pi * j / directions;
  return {std::cos(angle), std::sin(angle)};
}

Eigen::Matrix<double, 3, Eigen::Dynamic> polyhedral_basis(int k) {
  Eigen::Matrix<double, 3, Eigen::Dynamic> G =
      Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, k + 1);
  G(0, 0) = 1.0;
  for (int j = 0; j < k; ++j) G.block<2, 1>(1, j + 1) = friction_direction(j, k);
  return G;
}

double power_of_two_scale(double magnitude) {
  int e = 0;
  std::frexp(magnitude, &e);
  return std::ldexp(1.0, -e);
}

void add_polyhedral_cone_rows(Eigen::MatrixXd& N, Eigen::Index at, double mu, int k) {
  N.block(at + 1, at + k + 1, k, 1).setOnes();  // λ e in w_β
  N(at + k + 1, at) = mu;                       // μ x_n − eᵀβ
  N.block(at + k + 1, at + 1, 1, k).setConstant(-1.0);
}

void polyhedral_lcp(const Mat3& A, const Vec3& b, double mu, int k, Eigen::MatrixXd& N,
                    Eigen::VectorXd& q) {
  const Eigen::Matrix<double, 3, Eigen::Dynamic> G = polyhedral_basis(k);
  N.setZero(k + 2, k + 2);
  N.topLeftCorner(k + 1, k + 1).noalias() = G.transpose() * A * G;
  add_polyhedral_cone_rows(N, 0, mu, k);
  q.resize(k + 2);
  q.head(k + 1).noalias() = -G.transpose() * b;
  q[k + 1] = 0.0;
}

// Lemke cannot fail on this LCP (up to rounding): N is copositive, zᵀN z = xᵀA x + μ x_n λ
// (Eq. 18), and if z ≥ 0, N z ≥ 0, zᵀN z = 0 then x = 0, so x_n = 0 and the last row of N z,
// −eᵀβ ≥ 0, gives β = 0: z = (0, 0, λ) and zᵀq = 0 ≥ 0 (Eq. 19). By Cottle–Pang–Stone
// Thm. 4.4.13 Lemke's method with the lexicographic rule then ends on a solution, never on a ray.
// Should rounding still defeat the check, the frictionless impulse is returned (admissible: in
// every cone, Signorini satisfied) marked ContactCase::failed, so that callers can see it.
Impulse polyhedral_impulse(const Mat3& A, const Vec3& b, double mu, int k) {
  if (!(mu > 0.0)) return frictionless_impulse(A, b, mu);
  // The LCP may have several solutions when A couples the normal and tangential parts (as the
  // Coulomb problem does). Like mdp (Fig. 5, P1), prefer sticking: x0 = A⁻¹b with b_n > 0 in the
  // pyramid solves the LCP with u = 0, λ = 0 (x0_to = Dβ, eᵀβ ≤ μ x0_n on the two directions
  // either side of it). Its faces have normals at (2j + 1)π/k, at distance μ x_n cos(π/k).
  if (b[0] > 0.0) {
    const Vec3 x0 = A.ldlt().solve(b);
    bool inside = x0[0] > 0.0;
    const double face = mu * x0[0] * std::cos(std::numbers::pi / k);
    for (int j = 0; j < k && inside; ++j) {
      const double a = (2 * j + 1) * std::numbers::pi / k;
      inside = x0[1] * std::cos(a) + x0[2] * std::sin(a) <= face;
    }
    if (inside) return {x0, ContactCase::sticking};
  }
  // Workspace per thread: repeated solves of the same k do not allocate.
  thread_local Eigen::MatrixXd N;
  thread_local Eigen::VectorXd q, z;
  thread_local Lemke lemke;
  // Scaled by powers of two (exact) so that A, b and the λ row (entries μ, 1) are of order one.
  const double sa = power_of_two_scale(A.cwiseAbs().maxCoeff());
  const double sb = power_of_two_scale(b.cwiseAbs().maxCoeff());
  polyhedral_lcp(sa * A, sb * b, mu, k, N, q);  // x' = x sa/sb
  const LemkeResult result = lemke.solve(N, q, z);
  z *= sa / sb;
  if (result.status != LemkeStatus::solution) {
    return {frictionless_impulse(A, b, mu).x, ContactCase::failed};
  }
  Vec3 x(z[0], 0.0, 0.0);
  for (int j = 0; j < k; ++j) x.tail<2>() += z[j + 1] * friction_direction(j, k);
  if (!(x[0] > 0.0)) return {Vec3::Zero(), ContactCase::separating};
  // λ > 0 only while sliding (λ is the slip speed; w_β ≥ 0 for every ±d_j forces u_to = 0 at λ = 0).
  return {x, z[k + 1] > 0.0 ? ContactCase::sliding : ContactCase::sticking};
}

}  // namespace granite::contact
