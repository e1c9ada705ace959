#pragma once
// Contact-frame quantities of paper §3.1: the Delassus diagonal block (Eq. 2) and the gap term
// of the discrete Signorini condition with error reduction ε.
#include "granite/core/types.hpp"
#include "granite/solver/body_state.hpp"

namespace granite::solver {

/// [r]×, the matrix with [r]× a = r × a.
Mat3 cross_matrix(const Vec3& r);

/// Contribution of one body to the Delassus block in world coordinates:
/// m⁻¹E − [r]× I⁻¹ [r]× (Eq. 2), r from the body's centre to the contact point.
Mat3 body_delassus(double inverse_mass, const Mat3& inverse_inertia, const Vec3& r);

/// A_jj = Qᵀ (Σ_bodies m⁻¹E − [r]× I⁻¹ [r]×) Q with Q = [n t o] orthonormal (Eq. 2): maps a contact-frame
/// impulse (+ on body 1, − on body 2) to the change of the contact-frame relative velocity
/// u = v1 + ω1×r1 − v2 − ω2×r2. A body of infinite mass contributes nothing (pass zeros).
/// The form for any lever arms; the setup's contacts, between spheres, use
/// sphere_contact_delassus, which the tests check against this.
Mat3 delassus_diagonal(const Mat3& frame, double inverse_mass1, const Mat3& inverse_inertia1,
                       const Vec3& r1, double inverse_mass2, const Mat3& inverse_inertia2,
                       const Vec3& r2);

namespace detail {

// One sphere's rotational part of Eq. (2): with r = ∓R n, J = [r × n, r × t, r × o] = ∓R [0, o, −t]
// (n × t = o, n × o = −t), so JᵀI⁻¹J = R² [0 0 0; 0 oᵀI⁻¹o −oᵀI⁻¹t; 0 −tᵀI⁻¹o tᵀI⁻¹t], and
// kR² diag(0, 1, 1) for I⁻¹ = kE.
inline void add_sphere_rotational(const Mat3& frame, const BodyState& body, double R, Mat3& A) {
  const double R2 = R * R;
  if (body.isotropic()) {
    const double k = body.inverse_inertia_k * R2;
    A(1, 1) += k;
    A(2, 2) += k;
    return;
  }
  const Vec3 It = *body.general * frame.col(1);
  const Vec3 Io = *body.general * frame.col(2);
  const double Ato = -R2 * frame.col(2).dot(It);
  A(1, 1) += R2 * frame.col(2).dot(Io);
  A(2, 2) += R2 * frame.col(1).dot(It);
  A(1, 2) += Ato;
  A(2, 1) += Ato;
}

}  // namespace detail

/// delassus_diagonal for a contact between spheres (every particle's contact shape): a sphere's
/// lever arm is r = ∓R n, so its rotational part has no normal row or column and A is built from
/// that structure, A_nt = A_no = 0 exactly, and A_tt = A_oo exactly where the inertia is
/// isotropic (which the relaxation's closed-form sliding branch recognises). R2 = 0 for a global
/// body (no rotational part). Equal to delassus_diagonal with r = ∓R n to rounding. Inline: the
/// setup forms one per contact and step.
inline Mat3 sphere_contact_delassus(const Mat3& frame, const BodyState& body1, double R1,
                                    const BodyState& body2, double R2) {
  Mat3 A = (body1.inverse_mass + body2.inverse_mass) * Mat3::Identity();
  detail::add_sphere_rotational(frame, body1, R1, A);
  if (R2 > 0.0) detail::add_sphere_rotational(frame, body2, R2, A);
  return A;
}

/// Gap term of the discrete Signorini condition ξ/dt + δv'_n ≥ 0 (§3.1):
/// g = ε min(0, ξ/dt) + max(0, ξ/dt), ε ∈ [0, 1]. The right-hand side gets b_n = −(u_n + g).
inline double signorini_gap_term(double gap, double dt, double epsilon) {
  const double rate = gap / dt;
  return rate < 0.0 ? epsilon * rate : rate;
}

}  // namespace granite::solver
