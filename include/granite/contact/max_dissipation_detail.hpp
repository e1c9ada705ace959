#pragma once
// Building blocks of the maximum-dissipation solvers, exposed for the unit tests.
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

}  // namespace granite::contact
