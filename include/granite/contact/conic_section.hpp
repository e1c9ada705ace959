#pragma once
// The single-contact problem reduced to the plane of maximum compression (paper §3.2), shared by
// the maximum-dissipation solvers (analytic and golden-section) and the Coulomb enumeration.
// Internal to the contact module (the relaxation inlines the prologue through
// max_dissipation_detail.hpp).
//
// On the plane a_nᵀx = b_n the normal component is eliminated, x_n = (b_n − A_nt x_t − A_no x_o)/A_nn,
// and the objective becomes ½ x_toᵀÂ x_to − x_toᵀb̂ − b_n²/(2A_nn) with the Schur complement Â and
// b̂ of §3.2. In polar coordinates x_to = r (cos α, sin α) the friction cone reads
// r f_r(α) ≤ μ b_n with f_r(α) = A_nn + μ (A_nt cos α + A_no sin α), so the boundary of the conic
// section is r̄(α) = μ b_n / f_r(α) where f_r > 0 (the interval 𝓘 of Eq. 6).
#include "granite/contact/single_contact.hpp"

namespace granite::contact {

struct ReducedProblem {
  double Ann, Ant, Ano;  // a_n = (A_nn, A_nt, A_no)
  double bn;
  double mu;
  double h11, h12, h22;  // Â
  double bh1, bh2;       // b̂
  Vec3 x0;               // unconstrained minimum A⁻¹b (via the Schur complement)

  /// f_r(α) at u = (c, s)
  double fr(double c, double s) const { return Ann + mu * (Ant * c + Ano * s); }
  /// uᵀÂu
  double quad(double c, double s) const { return h11 * c * c + 2.0 * h12 * c * s + h22 * s * s; }
  /// uᵀb̂
  double lin(double c, double s) const { return bh1 * c + bh2 * s; }
  /// The impulse with tangential part r·u on the plane of maximum compression.
  Vec3 impulse(double r, double c, double s) const {
    return Vec3((bn - r * (Ant * c + Ano * s)) / Ann, r * c, r * s);
  }
  /// The impulse with tangential part r·u on the cone boundary: x_n = r/μ. On the boundary of
  /// the conic section this equals impulse(r, c, s) in exact arithmetic, but keeps the cone
  /// exact; computing x_n from the plane would carry a cone error ~eps·μ‖a_to‖/A_nn, large for
  /// huge μ, while the plane error of this form stays at rounding relative to its terms.
  Vec3 boundary_impulse(double r, double c, double s) const { return Vec3(r / mu, r * c, r * s); }
};

inline ReducedProblem reduce(const Mat3& A, const BlockReduction& reduction, const Vec3& b,
                             double mu) {
  ReducedProblem p{};
  p.Ann = A(0, 0);
  p.Ant = A(0, 1);
  p.Ano = A(0, 2);
  p.bn = b[0];
  p.mu = mu;
  const double inv = reduction.inv_Ann;
  const SchurComplement h = schur_complement(A, inv);
  p.h11 = h.h11;
  p.h12 = h.h12;
  p.h22 = h.h22;
  // b̂ of §3.2.
  p.bh1 = b[1] - p.Ant * p.bn * inv;
  p.bh2 = b[2] - p.Ano * p.bn * inv;
  // x0 = A⁻¹b by block elimination: x0_to = Â⁻¹b̂, x0_n from the first row.
  const double inv_det = reduction.inv_det;
  const double xt = (p.h22 * p.bh1 - p.h12 * p.bh2) * inv_det;
  const double xo = (p.h11 * p.bh2 - p.h12 * p.bh1) * inv_det;
  p.x0 = Vec3((p.bn - p.Ant * xt - p.Ano * xo) * inv, xt, xo);
  return p;
}
inline ReducedProblem reduce(const Mat3& A, const Vec3& b, double mu) {
  return reduce(A, block_reduction(A), b, mu);
}

/// Eq. (9): b_n = 0, μ > 0, x0 outside the cone.
Impulse degenerate_impulse(const ReducedProblem& p);

/// The structogram's first two branches (Fig. 5): b_n < 0 → 0; μ = 0 → (b_n/A_nn, 0, 0).
/// (A is any 3 × 3 block with entries A(i, j): a Mat3, or the solver's symmetric block.)
template <class Block>
inline bool separating_or_frictionless(const Block& A, double bn, double mu, Impulse& result) {
  if (bn < 0.0) {
    result = {Vec3::Zero(), ContactCase::separating};
    return true;
  }
  if (mu == 0.0) {
    result = {Vec3(bn / A(0, 0), 0.0, 0.0), ContactCase::frictionless};
    return true;
  }
  return false;
}

/// The structogram of Fig. 5 up to the sliding branch: b_n < 0 → 0; μ = 0 → (b_n/A_nn, 0, 0);
/// P1 (x0 = A⁻¹b in the cone) → x0; b_n = 0 → Eq. (9). Returns true and sets `result` when one of
/// these decides; otherwise fills `reduced` and returns false (b_n > 0, μ > 0, x0 infeasible).
/// Inline: the relaxation's sweep decides most contacts here without a call.
inline bool structogram_prologue(const Mat3& A, const BlockReduction& reduction, const Vec3& b,
                                 double mu, ReducedProblem& reduced, Impulse& result) {
  if (separating_or_frictionless(A, b[0], mu, result)) return true;
  const double bn = b[0];
  reduced = reduce(A, reduction, b, mu);
  const Vec3& x0 = reduced.x0;
  // P1: x0,n ≥ 0 ∧ ‖x0,to‖ ≤ μ x0,n
  if (x0[0] >= 0.0 && x0[1] * x0[1] + x0[2] * x0[2] <= mu * mu * x0[0] * x0[0]) {
    result = {x0, ContactCase::sticking};
    return true;
  }
  if (bn == 0.0) {
    result = degenerate_impulse(reduced);
    return true;
  }
  return false;
}
inline bool structogram_prologue(const Mat3& A, const Vec3& b, double mu, ReducedProblem& reduced,
                                 Impulse& result) {
  return structogram_prologue(A, block_reduction(A), b, mu, reduced, result);
}

/// Best feasible point along the direction u = (c, s): r ∈ [0, r̄] (r̄ = ∞ where f_r ≤ 0)
/// minimising ½r² uᵀÂu − r uᵀb̂. At the optimal direction this is the boundary point r̄(α*),
/// elsewhere a feasible point no better than the optimum, so candidates can be compared safely.
struct DirectionCandidate {
  double r;
  double c, s;
  double f;  // reduced objective ½r²uᵀÂu − r uᵀb̂ (without the constant −b_n²/(2A_nn))
  bool on_boundary;  // r = r̄(α)

  Vec3 impulse(const ReducedProblem& p) const {
    return on_boundary ? p.boundary_impulse(r, c, s) : p.impulse(r, c, s);
  }
};
inline DirectionCandidate best_along(const ReducedProblem& p, double c, double s) {
  const double quad = p.quad(c, s);
  const double lin = p.lin(c, s);
  const double fr = p.fr(c, s);
  double r = lin > 0.0 ? lin / quad : 0.0;
  bool on_boundary = false;
  if (fr > 0.0) {
    const double r_bar = p.mu * p.bn / fr;
    if (r_bar <= r) {
      r = r_bar;
      on_boundary = true;
    }
  }
  return {r, c, s, r * (0.5 * r * quad - lin), on_boundary};
}

/// Whether the boundary point of direction u = (c, s), x_to = r̄(α) u, is the minimum over the
/// conic section (§3.2): on the plane of maximum compression the problem is convex (Â is SPD, and
/// the section {g ≤ 0}, g(x_to) = ‖x_to‖ − μ x_n(x_to) with x_n affine, is convex), so a boundary
/// point is the unique minimum iff it satisfies KKT, ∇f = −λ∇g with λ ≥ 0. At a root of Eq. (8)
/// inside 𝓘, ∇f ∥ ∇g (zero derivative along the boundary), and the sign of ∇f·∇g tells the
/// minimum (antiparallel) from the other roots (parallel); the test asks for a cosine below −½,
/// so that points that are not roots, or roots where ∇f vanishes to rounding, are not certified.
/// It also asks for uᵀ∇f < 0 (implied in exact arithmetic: uᵀ∇g = f_r/A_nn > 0), i.e. r̄ below
/// the unconstrained minimum along u, so that the certified point is best_along's boundary point;
/// r_bar is set to r̄(α) when certified.
bool kkt_boundary_minimum(const ReducedProblem& p, double c, double s, double& r_bar);
inline bool kkt_boundary_minimum(const ReducedProblem& p, double c, double s) {
  double r_bar;
  return kkt_boundary_minimum(p, c, s, r_bar);
}

}  // namespace granite::contact
