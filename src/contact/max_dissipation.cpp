// The paper's analytic maximum-dissipation solution (§3.2, Fig. 5, Eqs. 6–9, Appendix A).
#include "granite/contact/conic_section.hpp"
#include "granite/contact/max_dissipation_detail.hpp"
#include "granite/contact/quartic.hpp"
#include "granite/contact/single_contact.hpp"

#include <cmath>

namespace granite::contact {

TrigPoly2 eq8_coefficients(const Mat3& A_in, const Vec3& b_in, double mu) {
  // Eq. (8): c0 + c1 cos(α + φ1) + c2 cos(2α + φ2) = 0 with the constants of Appendix A, which is
  // f_obj'(α) · f_r(α)³/(μ b_n). The appendix writes c1 = |Z1|, φ1 = arg Z1 and c2 = ½μA_nn|Z2|,
  // φ2 = arg Z2 for the two atan2 arguments Z = X + iY (checked numerically), so the Cartesian
  // form c1 cos(α + φ1) = X1 cos α − Y1 sin α needs neither the square roots nor the atan2s.
  //
  // The critical angles do not change when A and b are scaled, so both are scaled by powers of
  // two (exact) to order one first: the constants are quartic in the entries and would
  // otherwise overflow/underflow for extreme units. With A_nn and max|b| inside
  // (2⁻¹⁰⁰, 2¹⁰⁰) nothing overflows, and the scaling would change no bit of the roots: every
  // constant carries the same factor sa²·sb, the roots' search normalises T, and a product
  // can only fall below the normal range if it is ~2⁻⁶⁰⁰ of the leading ones. It is skipped there.
  constexpr double kUnscaled = 0x1p100;
  const double b_max = b_in.cwiseAbs().maxCoeff();
  double sa = 1.0;
  double sb = 1.0;
  if (!(A_in(0, 0) < kUnscaled && A_in(0, 0) > 1.0 / kUnscaled && b_max < kUnscaled &&
        b_max > 1.0 / kUnscaled)) {
    int ea = 0;
    int eb = 0;
    std::frexp(A_in(0, 0), &ea);
    std::frexp(b_max, &eb);
    sa = std::ldexp(1.0, -ea);
    sb = std::ldexp(1.0, -eb);
  }
  const double Ann = A_in(0, 0) * sa, Ant = A_in(0, 1) * sa, Ano = A_in(0, 2) * sa;
  const double Att = A_in(1, 1) * sa, Ato = A_in(1, 2) * sa, Aoo = A_in(2, 2) * sa;
  const double bn = b_in[0] * sb, bt = b_in[1] * sb, bo = b_in[2] * sb;
  const double mu2 = mu * mu;

  const double c0 = 1.5 * mu * Ann * (Ano * bt - Ant * bo);
  // φ1 = atan2(Y1, X1)
  const double Y1 = mu2 * ((Ano * Ato - Ant * Aoo) * bn - Ano * Ano * bt + Ant * Ano * bo) -
                    Ann * Ann * bt + Ann * Ant * bn;
  const double X1 = mu2 * ((Ant * Ato - Ano * Att) * bn + Ant * Ano * bt - Ant * Ant * bo) -
                    Ann * Ann * bo + Ann * Ano * bn;
  // φ2 = atan2(Y2, X2)
  const double Y2 = (Att - Aoo) * bn - Ant * bt + Ano * bo;
  const double X2 = 2.0 * Ato * bn - Ano * bt - Ant * bo;
  const double half_mu_Ann = 0.5 * mu * Ann;

  TrigPoly2 T;
  T.k0 = c0;
  T.k1c = X1;
  T.k1s = -Y1;
  T.k2c = half_mu_Ann * X2;
  T.k2s = -half_mu_Ann * Y2;
  return T;
}

namespace {

// Newton steps the fast path allows before it falls back to all roots of Eq. (8).
constexpr int kNewtonSteps = 8;

// The unit direction (c, s) of x0,to, the unconstrained minimum's tangential part; false if zero.
bool x0_direction(const ReducedProblem& p, double& c, double& s) {
  const double n0 = std::sqrt(p.x0[1] * p.x0[1] + p.x0[2] * p.x0[2]);
  if (!(n0 > 0.0)) return false;
  c = p.x0[1] / n0;
  s = p.x0[2] / n0;
  return true;
}

// The sliding minimum by Newton on Eq. (8) from the direction of x0,to, certified by
// kkt_boundary_minimum: the boundary point r̄(α)(c, s), or false (then all roots are searched).
bool newton_sliding(const ReducedProblem& p, const TrigPoly2& T, double& r, double& c, double& s) {
  return x0_direction(p, c, s) && trig_poly_newton_root(T, c, s, kNewtonSteps) &&
         kkt_boundary_minimum(p, c, s, r);
}

// Sliding: the minimum lies on the boundary r̄(α) of the conic section at a root of Eq. (8)
// inside 𝓘 (Eq. 6). f_obj → +∞ at the ends of 𝓘 (hyperbola/parabola) and is periodic for the
// ellipse, so the global minimum is always one of these roots. Each root direction is evaluated
// as the best feasible point along it (best_along), which equals the boundary point inside 𝓘 and
// stays feasible for spurious or rounding-perturbed roots; the minimum objective decides
// (structogram: argmin over 𝓘 ∩ 𝒮).
DirectionCandidate best_root(const ReducedProblem& p, const TrigPoly2& T) {
  double c[4];
  double s[4];
  const int n = trig_poly_unit_roots(T, c, s);
  // Safety net: the direction of the unconstrained minimum (pe's "primitive dissipative"
  // candidate). It never wins over a correct root, but keeps the answer sensible if a root were
  // lost.
  DirectionCandidate best{0.0, 1.0, 0.0, 0.0, false};
  double c0, s0;
  if (x0_direction(p, c0, s0)) {
    best = best_along(p, c0, s0);
  }
  for (int i = 0; i < n; ++i) {
    const DirectionCandidate cand = best_along(p, c[i], s[i]);
    if (cand.f < best.f) {
      best = cand;
    }
  }
  return best;
}

}  // namespace

Impulse max_dissipation_sliding(const Mat3& A, const ReducedProblem& p, const Vec3& b, double mu) {
  const TrigPoly2 T = eq8_coefficients(A, b, mu);
  double r, c, s;
  if (newton_sliding(p, T, r, c, s)) return {p.boundary_impulse(r, c, s), ContactCase::sliding};
  return {best_root(p, T).impulse(p), ContactCase::sliding};
}

Impulse max_dissipation_impulse(const Mat3& A, const BlockReduction& reduction, const Vec3& b,
                                double mu) {
  return max_dissipation_inline(A, reduction, b, mu);
}

Impulse max_dissipation_impulse(const Mat3& A, const Vec3& b, double mu) {
  return max_dissipation_impulse(A, block_reduction(A), b, mu);
}

Impulse max_dissipation_all_roots_impulse(const Mat3& A, const Vec3& b, double mu) {
  ReducedProblem p;
  Impulse result;
  if (structogram_prologue(A, b, mu, p, result)) return result;
  return {best_root(p, eq8_coefficients(A, b, mu)).impulse(p), ContactCase::sliding};
}

}  // namespace granite::contact
