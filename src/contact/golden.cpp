// Maximum-dissipation model minimised numerically: golden-section search over the polar angle α
// of the boundary of the conic section, the method of waLBerla pe (HCSITS,
// relaxInelasticGeneralizedMaximumDissipationContacts, 20 sub-iterations by default). Cross-check
// and speed baseline for the analytic solver (max_dissipation.cpp).
//
// Sliding branch (b_n > 0, μ > 0, x0 = A⁻¹b outside the cone; everything else is decided by the
// structogram prologue shared with mdp): on the plane of maximum compression the objective is
// f_obj(α) = ½γᵀÂγ − γᵀb̂ (+ const) on the boundary γ(α) = r̄(α)(cos α, sin α),
// r̄ = μ b_n / f_r(α), f_r(α) = A_nn + μ a·(cos α, sin α), a = (A_nt, A_no) (paper §3.2). The
// search is restricted to the arc I ∩ J:
//   I = {α : f_r(α) > 0} = α0 ± acos(−A_nn/(μ‖a‖)), α0 = atan2(A_no, A_nt) (Eq. 6; the whole
//       circle if A_nn > μ‖a‖);
//   J = αx ± acos((μ/A_nn)(b_n/‖x0,to‖ − ‖a‖ cos(αx − α0))), αx the direction of x0,to: the
//       angles whose boundary point has x0,to on the outer (closed) side of its tangent line,
//       ∇g(γ)·(x0,to − γ) ≥ 0 with g(x) = A_nn‖x‖ + μ a·x, K = {g ≤ μ b_n} the conic section.
//
// Why the bracket is unimodal. The reduced objective is ½(x − x0,to)ᵀÂ(x − x0,to) + const with
// Â SPD, K is convex with a smooth, strictly convex boundary (b_n > 0) and x0,to ∉ K. A stationary
// point of f_obj(α) in I is a boundary point where ∇f = Â(γ − x0,to) = λ∇g(γ) for some λ ≠ 0
// (γ ≠ x0,to). Then ∇g·(x0,to − γ) = −(γ − x0,to)ᵀÂ(γ − x0,to)/λ, so in J only λ < 0 remains,
// i.e. a KKT point with multiplier −λ > 0, and the strictly convex problem has exactly one KKT
// point: α* is the only stationary point of f_obj on I ∩ J. I ∩ J is, moreover, connected:
// it is the part of the boundary visible from x0,to (a point of a smooth convex boundary is
// visible from an outside point iff that point is on the outer side of its tangent), the image
// of the interval of directions from x0,to towards K under the continuous first-hit map. So the
// arc I ∩ J contains α*, f_obj decreases towards it and increases after it, and golden-section
// search converges to the global minimum. On all of I, f_obj can have a second local minimum
// (paper Fig. 4; on the problem of §4.1 one at −0.414 besides the global −0.634): a stationary
// point with the wrong multiplier sign, which J excludes.
// In floating point the two arcs are intersected from rounded ends; like pe we keep a single
// piece if the rounded arcs overlap twice (in exact arithmetic they never do). Where
// f_r ≤ 0 (outside I, reachable only through rounding of the ends) f_obj = +∞.
//
// As in pe: one new point per iteration, kept in golden proportion to the one retained interior
// point, so `iterations` boundary evaluations shrink the bracket by φ^−iterations; the answer is
// the best point sampled, finally compared with the boundary point in the direction of x0,to.
// Deviations from pe's code, none in exact arithmetic: the new point is placed at golden ratio
// inside the larger sub-interval measured from the interior point (pe mirrors the interior point,
// lo + hi − mid, which is the same point exactly, but its rounding errors grow by a factor of
// about 2.5 per iteration: the golden proportion is off by ~1e-4 after 30 iterations and by
// O(1) after 40, so a 200-iteration reference solve would no longer shrink the bracket by the
// golden ratio); the separating / sticking / μ = 0 / b_n = 0 cases go through the structogram
// prologue; the impulse is returned on the cone, x_n = r̄/μ (pe takes x_n from the plane, whose
// cone error ~eps·μ‖a‖/A_nn is large for huge μ).
#include "granite/contact/conic_section.hpp"
#include "granite/contact/single_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

namespace granite::contact {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

struct BoundarySample {
  double f;        // f_obj(α) without the constant −b_n²/(2A_nn); +∞ where f_r ≤ 0
  double r, c, s;  // r̄(α), cos α, sin α
};

BoundarySample sample_boundary(const ReducedProblem& p, double alpha) {
  const double c = std::cos(alpha);
  const double s = std::sin(alpha);
  const double fr = p.fr(c, s);
  if (!(fr > 0.0)) {
    return {std::numeric_limits<double>::infinity(), 0.0, c, s};
  }
  const double r = p.mu * p.bn / fr;
  return {r * (0.5 * r * p.quad(c, s) - p.lin(c, s)), r, c, s};
}

struct Arc {
  double lo, hi;
};

// centre ± half_width, the left end moved into [0, 2π) (as in pe)
Arc arc_around(double centre, double half_width) {
  Arc a{centre - half_width, centre + half_width};
  if (a.lo < 0.0) {
    a.lo += kTwoPi;
    a.hi += kTwoPi;
  }
  return a;
}

// Intersection of two arcs that both contain α* and (in exact arithmetic) overlap in one piece.
Arc intersect(Arc first, Arc second) {
  if (first.lo > second.lo) {
    std::swap(first, second);
  }
  if (second.lo > first.hi) {
    // no overlap within the same turn: the previous turn of `second` overlaps `first` on the left
    first.hi = std::min(first.hi, second.hi - kTwoPi);
    return first;
  }
  return {second.lo, std::min(first.hi, second.hi)};
}

// the search arc I ∩ J
Arc search_arc(const ReducedProblem& p) {
  const double norm_a = std::hypot(p.Ant, p.Ano);
  const double alpha0 = std::atan2(p.Ano, p.Ant);
  const double x0_norm = std::hypot(p.x0[1], p.x0[2]);
  const double alpha_x = std::atan2(p.x0[2], p.x0[1]);
  // cos of the half-widths; < −1 means the whole circle. x0,to ∉ K gives cos_J < 1 exactly.
  const double cos_I = -p.Ann / (p.mu * norm_a);
  const double cos_J =
      std::min(p.mu / p.Ann * (p.bn / x0_norm - norm_a * std::cos(alpha_x - alpha0)), 1.0);
  const bool I_whole = !(cos_I >= -1.0);  // also for a = 0
  if (cos_J < -1.0) {
    // J is the whole circle (only for the hyperbola; the guard covers rounding)
    return arc_around(alpha0, I_whole ? std::numbers::pi : std::acos(cos_I));
  }
  const Arc J = arc_around(alpha_x, std::acos(cos_J));
  return I_whole ? J : intersect(J, arc_around(alpha0, std::acos(cos_I)));
}

}  // namespace

Impulse max_dissipation_golden_impulse(const Mat3& A, const Vec3& b, double mu, int iterations) {
  return max_dissipation_golden_impulse(A, block_reduction(A), b, mu, iterations);
}

Impulse max_dissipation_golden_impulse(const Mat3& A, const BlockReduction& reduction,
                                       const Vec3& b, double mu, int iterations) {
  ReducedProblem p;
  Impulse result;
  if (structogram_prologue(A, reduction, b, mu, p, result)) {
    return result;
  }
  const Arc arc = search_arc(p);
  constexpr double c_gold = 0.38196601125010515180;  // 1 − 1/φ = 1/φ²
  double lo = arc.lo;
  double hi = arc.hi;
  double mid = lo + c_gold * (hi - lo);
  BoundarySample best = sample_boundary(p, mid);
  for (int k = 0; k < iterations; ++k) {
    // the new point in the larger sub-interval, at golden ratio from the interior point
    const bool right = hi - mid > mid - lo;
    const double probe = right ? mid + c_gold * (hi - mid) : mid - c_gold * (mid - lo);
    const BoundarySample next = sample_boundary(p, probe);
    if (next.f < best.f) {
      (right ? lo : hi) = mid;
      mid = probe;
      best = next;
    } else {
      (right ? hi : lo) = probe;
    }
  }
  // the boundary point in the direction of x0,to (pe's "primitive dissipative solution")
  const BoundarySample radial = sample_boundary(p, std::atan2(p.x0[2], p.x0[1]));
  if (radial.f < best.f) {
    best = radial;
  }
  if (!(best.f < std::numeric_limits<double>::infinity())) {
    // not reachable for b_n > 0 (the direction of x0,to is in I ∩ J ⊆ I); keep the answer
    // feasible regardless
    return {Vec3(p.bn / p.Ann, 0.0, 0.0), ContactCase::sliding};
  }
  return {p.boundary_impulse(best.r, best.c, best.s), ContactCase::sliding};
}

}  // namespace granite::contact
