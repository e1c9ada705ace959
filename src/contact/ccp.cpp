// The single-contact cone complementarity problem (CCP, Tasora–Anitescu; the seed's Eq. for
// one contact): argmin ½xᵀAx − xᵀb over the friction cone K = {‖x_to‖ ≤ μ x_n}, i.e. the
// A-metric projection of the unconstrained minimiser A⁻¹b onto K. Its optimality conditions
//   x ∈ K ⊥ y = A x − b ∈ K* = {μ‖y_to‖ ≤ y_n}
// relax Signorini: a sliding contact leaves with y_n = μ‖y_to‖ > 0 (the "lift" artefact).
#include "granite/contact/real_roots.hpp"
#include "granite/contact/single_contact.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace granite::contact {
namespace {

struct Linear {  // c0 + c1 σ
  double c0, c1;
};
struct Quadratic {  // c[0] + c[1] σ + c[2] σ²
  double c[3];
  Quadratic operator-(const Quadratic& o) const {
    return {{c[0] - o.c[0], c[1] - o.c[1], c[2] - o.c[2]}};
  }
  Quadratic operator+(const Quadratic& o) const {
    return {{c[0] + o.c[0], c[1] + o.c[1], c[2] + o.c[2]}};
  }
  Quadratic operator*(double s) const { return {{c[0] * s, c[1] * s, c[2] * s}}; }
};
Quadratic operator*(const Linear& a, const Linear& b) {
  return {{a.c0 * b.c0, a.c0 * b.c1 + a.c1 * b.c0, a.c1 * b.c1}};
}
void add_square(double out[5], const Quadratic& q, double weight) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[i + j] += weight * q.c[i] * q.c[j];
}

// The unit cone K₁ = {‖x_to‖ ≤ x_n} (the problem is mapped onto it, see ccp_impulse).
bool in_cone(const Vec3& x) { return std::hypot(x[1], x[2]) <= x[0]; }

// The point of ∂K₁ with x's tangential part (x_n > 0 assumed by the caller).
Vec3 onto_boundary(Vec3 x) {
  x[0] = std::hypot(x[1], x[2]);
  return x;
}

// Newton steps on φ(σ) = x(σ)ᵀD x(σ), x(σ) = (A − σD)⁻¹b, evaluated directly: the roots of the
// quartic's expanded coefficients carry their cancellation, so they are polished here.
// φ'(σ) = 2 x'ᵀD x with x' = (A − σD)⁻¹ D x. Returns x at the polished σ (or the start).
Vec3 polished(const Mat3& A, const Vec3& b, double sigma, Vec3 x) {
  const Vec3 D(1.0, -1.0, -1.0);
  for (int it = 0; it < 4; ++it) {
    Mat3 M = A;
    M.diagonal() -= sigma * D;
    const Eigen::FullPivLU<Mat3> lu(M);
    if (!lu.isInvertible()) break;
    const Vec3 xs = lu.solve(b);
    const Vec3 Dx = D.cwiseProduct(xs);
    const double phi = xs.dot(Dx);
    const double dphi = 2.0 * lu.solve(Dx).dot(Dx);
    x = xs;
    if (!(dphi != 0.0) || !std::isfinite(phi / dphi)) break;
    const double next = sigma - phi / dphi;
    if (!(next >= 0.0) || next == sigma) break;
    sigma = next;
  }
  return x;
}

// Boundary candidates from the KKT conditions: on the boundary the dual y = Ax − b lies on
// ∂K* orthogonal to x, y = σ D x with D = diag(μ², −1, −1) and σ ≥ 0. So x(σ) = (A − σD)⁻¹b
// and xᵀD x = 0; with w = adj(A − σD) b this is the quartic μ² w_n² − w_t² − w_o² = 0 in σ.
// (Here on the unit cone, μ = 1.)
// The problem is strictly convex, so the feasible candidate of least objective is the minimiser.
bool boundary_minimiser(const Mat3& A, const Vec3& b, Vec3& best) {
  const Linear m00{A(0, 0), -1.0}, m11{A(1, 1), 1.0}, m22{A(2, 2), 1.0};
  const Linear m01{A(0, 1), 0.0}, m02{A(0, 2), 0.0}, m12{A(1, 2), 0.0};
  const Quadratic adj00 = m11 * m22 - m12 * m12, adj11 = m00 * m22 - m02 * m02,
                  adj22 = m00 * m11 - m01 * m01, adj01 = m02 * m12 - m01 * m22,
                  adj02 = m01 * m12 - m02 * m11, adj12 = m01 * m02 - m00 * m12;
  const Quadratic w[3] = {adj00 * b[0] + adj01 * b[1] + adj02 * b[2],
                          adj01 * b[0] + adj11 * b[1] + adj12 * b[2],
                          adj02 * b[0] + adj12 * b[1] + adj22 * b[2]};
  double h[5] = {0, 0, 0, 0, 0};
  add_square(h, w[0], 1.0);
  add_square(h, w[1], -1.0);
  add_square(h, w[2], -1.0);
  const RealRoots sigma = real_roots(h, 4, 0.0, root_bound(h, 4));
  bool found = false;
  double best_objective = std::numeric_limits<double>::infinity();
  for (int i = 0; i < sigma.count; ++i) {
    const double s = sigma.value[i];
    Mat3 M = A;
    M(0, 0) -= s;
    M(1, 1) += s;
    M(2, 2) += s;
    const Eigen::FullPivLU<Mat3> lu(M);
    if (!lu.isInvertible()) continue;
    const Vec3 x = polished(A, b, s, lu.solve(b));
    if (!(x[0] > 0.0)) continue;
    const Vec3 xb = onto_boundary(x);
    const double f = objective(A, b, xb);
    if (f < best_objective) {
      best_objective = f;
      best = xb;
      found = true;
    }
  }
  return found;
}

// Fallback, only if the candidates above fail the optimality check (non-generic A, b): on the
// boundary x = ρ d(α), d = (1, cos α, sin α), the best ρ is (bᵀd)₊/(dᵀAd), so maximise
// g(α) = (bᵀd)₊²/(dᵀAd) by a scan and golden-section refinement.
Vec3 boundary_minimiser_by_angle(const Mat3& A, const Vec3& b) {
  const auto direction = [](double a) { return Vec3(1.0, std::cos(a), std::sin(a)); };
  const auto g = [&](double a) {
    const Vec3 d = direction(a);
    const double p = std::max(0.0, b.dot(d));
    return p * p / d.dot(A * d);
  };
  constexpr int kScan = 720;
  const double step = 2.0 * std::numbers::pi / kScan;
  int best = 0;
  for (int k = 1; k < kScan; ++k)
    if (g(k * step) > g(best * step)) best = k;
  double lo = (best - 1) * step, hi = (best + 1) * step;
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int it = 0; it < 100; ++it) {
    const double a = hi - ratio * (hi - lo), c = lo + ratio * (hi - lo);
    if (g(a) > g(c))
      hi = c;
    else
      lo = a;
  }
  const Vec3 d = direction(0.5 * (lo + hi));
  return std::max(0.0, b.dot(d)) / d.dot(A * d) * d;
}

// x ∈ K ⊥ Ax − b ∈ K*, to rounding relative to the problem's scale.
bool optimal(const Mat3& A, const Vec3& b, const Vec3& x) {
  const Vec3 y = A * x - b;
  const double scale = 1e-10 * (b.norm() + A.norm() * x.norm());
  return std::hypot(x[1], x[2]) <= x[0] + 1e-10 * x.norm() &&
         std::hypot(y[1], y[2]) <= y[0] + scale && std::fabs(x.dot(y)) <= scale * x.norm();
}

}  // namespace

Impulse ccp_impulse(const Mat3& A_in, const Vec3& b_in, double mu) {
  // With μ = 0 the cone is the normal ray and the CCP is the frictionless problem.
  if (!(mu > 0.0)) return frictionless_impulse(A_in, b_in, mu);
  // x = 0 is the minimiser iff −b ∈ K*.
  if (mu * std::hypot(b_in[1], b_in[2]) <= -b_in[0]) return {Vec3::Zero(), ContactCase::separating};
  // Unit cone: x = S x' with S = diag(1/μ, 1, 1) maps K onto ‖x'_to‖ ≤ x'_n, so the problem is
  // the same with A' = S A S, b' = S b and μ = 1; its quartic and solves are then well scaled
  // for any μ (for large μ the original x_n is tiny and y_to = y_n/μ: both kept to rounding).
  // Then A' and b' are scaled by powers of two (exact) to order one.
  const Vec3 S(1.0 / mu, 1.0, 1.0);
  Mat3 A = S.asDiagonal() * A_in * S.asDiagonal();
  Vec3 b = S.cwiseProduct(b_in);
  int ea = 0, eb = 0;
  std::frexp(A.cwiseAbs().maxCoeff(), &ea);
  std::frexp(b.cwiseAbs().maxCoeff(), &eb);
  const double sa = std::ldexp(1.0, -ea), sb = std::ldexp(1.0, -eb);
  A *= sa;
  b *= sb;
  const Vec3 unscale = S * (sa / sb);  // x = unscale ∘ x'

  const Vec3 free = A.ldlt().solve(b);
  if (in_cone(free)) return {unscale.cwiseProduct(free), ContactCase::sticking};
  Vec3 x = Vec3::Zero();
  if (!boundary_minimiser(A, b, x) || !optimal(A, b, x)) x = boundary_minimiser_by_angle(A, b);
  return {unscale.cwiseProduct(x), ContactCase::sliding};
}

}  // namespace granite::contact
