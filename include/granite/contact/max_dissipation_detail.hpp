#pragma once
// Building blocks of the maximum-dissipation solvers, exposed for the unit tests, and the
// solver with its prologue inline for the relaxation's sweep.
#include "granite/contact/conic_section.hpp"
#include "granite/contact/quartic.hpp"
#include "granite/contact/single_contact.hpp"
#include "granite/core/types.hpp"

namespace granite::contact {

/// Eq. (8) with the constants c0, c1, c2, φ1, φ2 of Appendix A, as a trigonometric polynomial in
/// α (α measured from t towards o). Equals f_obj'(α) f_r(α)³/(μ b_n) up to a positive power-of-two
/// factor (A and b are rescaled to order one before the constants are formed).
TrigPoly2 eq8_coefficients(const Mat3& A, const Vec3& b, double mu);

/// max_dissipation_impulse without its fast path: the sliding branch always searches every root
/// of Eq. (8) (the paper's method). max_dissipation_impulse first tries Newton on Eq. (8) from the
/// direction of x0,to and keeps the root if kkt_boundary_minimum certifies it.
Impulse max_dissipation_all_roots_impulse(const Mat3& A, const Vec3& b, double mu);

/// The sliding branch of max_dissipation_impulse for a problem the prologue did not decide.
Impulse max_dissipation_sliding(const Mat3& A, const ReducedProblem& p, const Vec3& b, double mu);

/// max_dissipation_impulse with the structogram's prologue inlined into the caller (the
/// relaxation's sweep): only sliding contacts make a call.
inline Impulse max_dissipation_inline(const Mat3& A, const BlockReduction& reduction, const Vec3& b,
                                      double mu) {
  ReducedProblem p;
  Impulse result;
  if (structogram_prologue(A, reduction, b, mu, p, result)) return result;
  return max_dissipation_sliding(A, p, b, mu);
}

}  // namespace granite::contact
