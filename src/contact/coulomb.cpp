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

// One decoupling step of a contact: the normal impulse that meets the Signorini plane for a
// tangential impulse, and the tangential energy minimum on the friction disc of a normal one.
struct Decoupling {
  const Mat3& A;
  const Vec3& b;
  double mu;

  double normal(double xt, double xo) const {
    return std::max(0.0, (b[0] - A(0, 1) * xt - A(0, 2) * xo) / A(0, 0));
  }
  // G(x_n): the tangential minimum (xt, xo) at x_n, and the normal impulse it leads to.
  double operator()(double xn, double& xt, double& xo) const {
    disc_minimum(A(1, 1), A(1, 2), A(2, 2), b[1] - A(1, 0) * xn, b[2] - A(2, 0) * xn, mu * xn, xt,
                 xo);
    return normal(xt, xo);
  }
  // A fixed point to the relative tolerance: x_n and G(x_n) agree.
  static bool converged(double xn, double next, double xt, double xo) {
    return std::abs(next - xn) <=
           kDecouplingTolerance * (std::abs(next) + std::abs(xt) + std::abs(xo));
  }
};

// Coulomb's sliding impulse on the cone boundary, x = x_n (1, μ cos α, μ sin α), found by
// Newton's method on the slip direction from the angle α. With d = (cos α, sin α), a = (A_nt,
// A_no) and M the tangential block, u_n = 0 gives x_n = b_n / (A_nn + μ a·d), and the slip
// u_t = v / (A_nn + μ a·d) with v(α) = b_n (a + μ M d) − (A_nn + μ a·d) b_t. Coulomb's law
// asks u_t = −σ d, σ >= 0: F(α) = d⊥·v = 0 with d·v <= 0 (a trigonometric polynomial of degree
// 2, the equation coulomb_all_solutions solves for every root). Returns nothing if Newton does
// not reach such a root from α (the caller then iterates the decoupling).
std::optional<Vec3> coulomb_sliding_newton(const Mat3& A, const Vec3& b, double mu, double alpha) {
  const double ant = A(0, 1);
  const double ano = A(0, 2);
  const double scale =
      std::abs(b[0]) * (std::hypot(ant, ano) + mu * A.bottomRightCorner<2, 2>().norm()) +
      (A(0, 0) + mu * std::hypot(ant, ano)) * std::hypot(b[1], b[2]);
  for (int it = 0; it < 30; ++it) {
    const double c = std::cos(alpha);
    const double s = std::sin(alpha);
    const double md1 = A(1, 1) * c + A(1, 2) * s;  // M d
    const double md2 = A(2, 1) * c + A(2, 2) * s;
    const double mp1 = -A(1, 1) * s + A(1, 2) * c;  // M d⊥
    const double mp2 = -A(2, 1) * s + A(2, 2) * c;
    const double den = A(0, 0) + mu * (ant * c + ano * s);
    const double v1 = b[0] * (ant + mu * md1) - den * b[1];
    const double v2 = b[0] * (ano + mu * md2) - den * b[2];
    const double f = -s * v1 + c * v2;
    const double a_perp = -ant * s + ano * c;
    const double w1 = b[0] * mu * mp1 - mu * a_perp * b[1];  // v'(α)
    const double w2 = b[0] * mu * mp2 - mu * a_perp * b[2];
    const double df = -(c * v1 + s * v2) + (-s * w1 + c * w2);
    if (std::abs(f) <= 1e-13 * scale || std::abs(f) <= 1e-13 * std::abs(df)) {
      if (!(den > 0.0) || c * v1 + s * v2 > 0.0) return std::nullopt;
      const double xn = b[0] / den;
      return Vec3(xn, mu * xn * c, mu * xn * s);
    }
    if (!(df != 0.0)) return std::nullopt;
    alpha -= std::clamp(f / df, -0.5, 0.5);
  }
  return std::nullopt;
}

}  // namespace

Impulse coulomb_impulse(const Mat3& A, const Vec3& b, double mu) {
  Vec3 x0;
  if (const auto settled = coulomb_static_cases(A, b, mu, x0)) return *settled;
  // Dynamic: alternate a normal step with the tangential impulse fixed and a tangential step
  // (energy minimum on the friction disc) with the normal impulse fixed, starting from the
  // tangential part of the static impulse as pe does. A fixed point is a Coulomb solution.
  // The tangential step depends on the normal impulse alone, so the alternation is the scalar
  // iteration x_n ← G(x_n); it converges linearly, slowly where the normal and tangential
  // directions are strongly coupled (off-centre contacts of non-spherical bodies: tens of
  // steps). Steffensen's method (Aitken's Δ² on two plain steps) reaches the same fixed point
  // quadratically; an extrapolation that is not finite or not >= 0 is replaced by the plain step.
  Decoupling step{A, b, mu};
  double xn = step.normal(x0[1], x0[2]);
  double xt = 0.0;
  double xo = 0.0;
  // Uncoupled (a = 0, every sphere contact), the decoupling is exact after one step.
  const bool coupled = A(0, 1) != 0.0 || A(0, 2) != 0.0;
  // Coupled: Newton on the slip direction from the first step's friction direction.
  if (coupled) {
    step(xn, xt, xo);
    if (xt != 0.0 || xo != 0.0)
      if (const auto x = coulomb_sliding_newton(A, b, mu, std::atan2(xo, xt)))
        return {*x, ContactCase::sliding};
  }
  bool converged = false;
  for (int evaluations = 0; evaluations < kMaxDecouplingIterations && !converged;) {
    const double p1 = step(xn, xt, xo);
    if ((converged = step.converged(xn, p1, xt, xo))) {
      xn = p1;
      break;
    }
    const double p2 = step(p1, xt, xo);
    evaluations += 2;
    if ((converged = step.converged(p1, p2, xt, xo))) {
      xn = p2;
      break;
    }
    const double curvature = p2 - 2.0 * p1 + xn;
    const double extrapolated = xn - (p1 - xn) * (p1 - xn) / curvature;
    xn = std::isfinite(extrapolated) && extrapolated >= 0.0 ? extrapolated : p2;
  }
  step(xn, xt, xo);  // the tangential impulse of the final normal impulse
  const Vec3 x = restore_signorini(A, b[0], mu, xt, xo);
  if (converged) return {x, ContactCase::sliding};
  // Neither found a fixed point (rare: about 1 in 7000 well-conditioned coupled blocks): the
  // sliding solution nearest to the last iterate among all of them, if there is one.
  const CoulombSolutions all = coulomb_all_solutions(A, b, mu);
  const Impulse* nearest = nullptr;
  for (std::size_t i = 0; i < all.count; ++i)
    if (all.items[i].kind == ContactCase::sliding &&
        (!nearest || (all.items[i].x - x).norm() < (nearest->x - x).norm()))
      nearest = &all.items[i];
  return nearest ? *nearest : Impulse{x, ContactCase::sliding};
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
