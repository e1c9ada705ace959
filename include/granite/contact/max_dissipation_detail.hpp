#pragma once
// Building blocks of the maximum-dissipation solvers, exposed for the unit tests, and the
// solver with its prologue inline for the relaxation's sweep.
#include "granite/contact/conic_section.hpp"
#include "granite/contact/quartic.hpp"
#include "granite/contact/single_contact.hpp"
#include "granite/core/types.hpp"

#include <cmath>

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

/// A block as a Mat3: a Mat3 itself, any other block its full().
inline const Mat3& matrix_of(const Mat3& A) { return A; }
template <class Block>
inline Mat3 matrix_of(const Block& A) {
  return A.full();
}

/// Whether A = diag(A_nn, a, a) exactly: the block of two spheres with isotropic inertia
/// (solver::sphere_contact_delassus).
template <class Block>
inline bool sphere_block(const Block& A) {
  return A(0, 1) == 0.0 && A(0, 2) == 0.0 && A(1, 2) == 0.0 && A(1, 1) == A(2, 2);
}

/// The structogram for A = diag(A_nn, a, a), bit for bit what the general prologue computes for
/// it (x0 = A⁻¹b by the same products, the zero couplings dropped), with the sliding branch in
/// closed form: the plane of maximum compression is x_n = b_n/A_nn, the conic section the disc
/// ‖x_to‖ ≤ μx_n on it, and the minimum of ½a‖x_to‖² − b_toᵀx_to over the disc, with
/// x0,to = b_to/a outside it, is its boundary point along x0,to (Eq. (8)'s root is x0,to's
/// direction). b_n = 0 with μ > 0 and x0 outside the cone (Eq. 9) returns false.
template <class Block>
inline bool sphere_block_impulse(const Block& A, const BlockReduction& reduction, const Vec3& b,
                                 double mu, Impulse& result) {
  if (separating_or_frictionless(A, b[0], mu, result)) return true;
  const double bn = b[0];
  const double xn = bn * reduction.inv_Ann;
  // Â = diag(A_tt, A_oo) exactly, as the Schur complement forms it for a_to = 0.
  const double xt = A(2, 2) * b[1] * reduction.inv_det;
  const double xo = A(1, 1) * b[2] * reduction.inv_det;
  const double t2 = xt * xt + xo * xo;
  if (xn >= 0.0 && t2 <= mu * mu * xn * xn) {
    result = {Vec3(xn, xt, xo), ContactCase::sticking};
    return true;
  }
  if (bn == 0.0) return false;
  const double scale = mu * xn / std::sqrt(t2);  // ‖x0,to‖ > μx_n > 0
  result = {Vec3(xn, scale * xt, scale * xo), ContactCase::sliding};
  return true;
}

/// max_dissipation_impulse with the structogram's prologue inlined into the caller (the
/// relaxation's sweep): only sliding contacts of blocks other than a sphere's make a call.
/// A is a Mat3 or any block with entries A(i, j) and full() (the solver's symmetric block):
/// the full matrix is formed only past a sphere's block.
template <class Block>
inline Impulse max_dissipation_inline(const Block& A, const BlockReduction& reduction,
                                      const Vec3& b, double mu) {
  Impulse result;
  if (sphere_block(A) && sphere_block_impulse(A, reduction, b, mu, result)) return result;
  const Mat3& full = matrix_of(A);
  ReducedProblem p;
  if (structogram_prologue(full, reduction, b, mu, p, result)) return result;
  return max_dissipation_sliding(full, p, b, mu);
}

}  // namespace granite::contact
