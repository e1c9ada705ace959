// Purely inelastic impact with Coulomb friction by normal/tangential decoupling, as in
// time-stepping codes (waLBerla pe: InelasticCoulombContactByDecoupling and its default
// ApproximateInelasticCoulombContactByDecoupling).
#include "granite/contact/conic_section.hpp"
#include "granite/contact/single_contact.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace granite::contact {
namespace {

constexpr int kMaxDecouplingIterations = 100;
constexpr double kDecouplingTolerance = 1e-13;  // relative change of the impulse

// argmin ½ yᵀM y − yᵀc over the friction disc ‖y‖ ≤ ρ, M the 2×2 SPD tangential block.
// If the unconstrained minimum lies outside, the KKT conditions (M + λI) y = c, ‖y‖ = ρ, λ > 0
// say the frictional impulse opposes the tangential slip M y − c = −λ y. λ is found by Newton
// on 1/ρ − 1/‖y(λ)‖, which is concave and increasing, so the iteration from λ = 0 converges
// monotonically (Moré & Sorensen 1983). pe does a 20-step golden-section search on the circle
// instead; this is exact to rounding.
void disc_minimum(double m11, double m12, double m22, double c1, double c2, double rho, double& y1,
                  double& y2) {
  y1 = 0.0;
  y2 = 0.0;
  if (!(rho > 0.0)) {
    return;
  }
  double lambda = 0.0;
  for (int it = 0; it < 60; ++it) {
    const double a11 = m11 + lambda;
    const double a22 = m22 + lambda;
    const double inv_det = 1.0 / (a11 * a22 - m12 * m12);
    y1 = (a22 * c1 - m12 * c2) * inv_det;
    y2 = (a11 * c2 - m12 * c1) * inv_det;
    const double ny = std::sqrt(y1 * y1 + y2 * y2);
    if (ny <= rho) {
      if (it == 0) {
        return;  // unconstrained minimum inside the disc
      }
      break;
    }
    if (ny - rho <= 1e-15 * rho) {
      break;
    }
    const double w1 = (a22 * y1 - m12 * y2) * inv_det;  // w = (M + λI)⁻¹ y
    const double w2 = (a11 * y2 - m12 * y1) * inv_det;
    const double ytw = y1 * w1 + y2 * w2;
    const double step = (ny - rho) * ny * ny / (rho * ytw);
    if (!(step > 0.0)) {
      break;
    }
    lambda += step;
  }
  // on the circle exactly: ‖y‖ = ρ
  const double ny = std::sqrt(y1 * y1 + y2 * y2);
  if (ny > 0.0) {
    y1 *= rho / ny;
    y2 *= rho / ny;
  }
}

// Decoupling leaves a_nᵀx − b_n = 0 only if the last normal step saw the final tangential
// impulse. pe relies on later sweeps for that; a single-contact answer must be feasible itself,
// so the normal component is recomputed from the plane of maximum compression and, if the
// tangential impulse then leaves the cone, it is shortened along its direction to the boundary
// of the conic section: κ‖x_to‖ = μ (b_n − κ a·x_to)/A_nn (this is r̄(α) of §3.2). At a converged
// decoupling fixed point nothing changes.
Vec3 restore_signorini(const Mat3& A, double bn, double mu, double xt, double xo) {
  const double a_dot = A(0, 1) * xt + A(0, 2) * xo;
  double xn = (bn - a_dot) / A(0, 0);
  const double s = std::sqrt(xt * xt + xo * xo);
  if (s > mu * xn) {
    const double kappa = mu * bn / (s * A(0, 0) + mu * a_dot);
    xt *= kappa;
    xo *= kappa;
    xn = kappa * s / mu;  // on the cone boundary (see boundary_impulse in conic_section.hpp)
  }
  return {xn, xt, xo};
}

// The cases both Coulomb variants settle before decoupling: separating (b_n <= 0, which
// includes b_n = 0 as in pe), frictionless, and sticking when x0 = A⁻¹b lies in the cone.
std::optional<Impulse> coulomb_static_cases(const Mat3& A, const Vec3& b, double mu, Vec3& x0) {
  const double bn = b[0];
  if (bn <= 0.0) return Impulse{Vec3::Zero(), ContactCase::separating};
  if (mu == 0.0) return Impulse{Vec3(bn / A(0, 0), 0.0, 0.0), ContactCase::frictionless};
  x0 = reduce(A, b, mu).x0;
  if (x0[0] >= 0.0 && x0[1] * x0[1] + x0[2] * x0[2] <= mu * mu * x0[0] * x0[0])
    return Impulse{x0, ContactCase::sticking};
  return std::nullopt;
}

}  // namespace

Impulse coulomb_impulse(const Mat3& A, const Vec3& b, double mu) {
  Vec3 x0;
  if (const auto settled = coulomb_static_cases(A, b, mu, x0)) return *settled;
  const double bn = b[0];
  // Dynamic: alternate a normal step with the tangential impulse fixed and a tangential step
  // (energy minimum on the friction disc) with the normal impulse fixed, starting from the
  // tangential part of the static impulse as pe does. A fixed point is a Coulomb solution.
  double xt = x0[1];
  double xo = x0[2];
  double xn = 0.0;
  for (int it = 0; it < kMaxDecouplingIterations; ++it) {
    const double new_xn = std::max(0.0, (bn - A(0, 1) * xt - A(0, 2) * xo) / A(0, 0));
    double nt;
    double no;
    disc_minimum(A(1, 1), A(1, 2), A(2, 2), b[1] - A(1, 0) * new_xn, b[2] - A(2, 0) * new_xn,
                 mu * new_xn, nt, no);
    const double change = std::abs(new_xn - xn) + std::abs(nt - xt) + std::abs(no - xo);
    xn = new_xn;
    xt = nt;
    xo = no;
    if (change <= kDecouplingTolerance * (std::abs(xn) + std::abs(xt) + std::abs(xo))) {
      break;
    }
  }
  return {restore_signorini(A, bn, mu, xt, xo), ContactCase::sliding};
}

Impulse coulomb_approx_impulse(const Mat3& A, const Vec3& b, double mu) {
  Vec3 x0;
  if (const auto settled = coulomb_static_cases(A, b, mu, x0)) return *settled;
  const double bn = b[0];
  // One decoupling pass with no previous tangential impulse: normal step, then the tangential
  // step with the friction limit enforced by radial projection (pe's approximate variant).
  const double xn = bn / A(0, 0);
  const double c1 = b[1] - A(1, 0) * xn;
  const double c2 = b[2] - A(2, 0) * xn;
  const double inv_det = 1.0 / (A(1, 1) * A(2, 2) - A(1, 2) * A(1, 2));
  double xt = (A(2, 2) * c1 - A(1, 2) * c2) * inv_det;
  double xo = (A(1, 1) * c2 - A(1, 2) * c1) * inv_det;
  const double limit = mu * xn;
  const double s = std::sqrt(xt * xt + xo * xo);
  if (s > limit) {
    xt *= limit / s;
    xo *= limit / s;
  }
  return {restore_signorini(A, bn, mu, xt, xo), ContactCase::sliding};
}

}  // namespace granite::contact
