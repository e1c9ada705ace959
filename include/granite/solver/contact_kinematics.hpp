#pragma once
// The two operations every contact solver performs on a contact's bodies: read the relative
// velocity at the contact (the current corrections included) and apply a world-frame impulse
// to the corrections. Inline: they are the inner loop of the relaxation and of APGD's product.
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"

namespace granite::solver {

/// u = v1 + ω1×r1 − v2 − ω2×r2 with the current corrections included (world frame).
inline Vec3 relative_velocity(const SolverContact& c, const BodyState& b1, const BodyState& b2) {
  return ((b1.v + b1.dv) - (b2.v + b2.dv)) +
         (cross(b1.w + b1.dw, c.r1) - cross(b2.w + b2.dw, c.r2));
}

/// The predicted part alone (no corrections): v1 + ω1×r1 − v2 − ω2×r2.
inline Vec3 predicted_velocity(const SolverContact& c, const BodyState& b1, const BodyState& b2) {
  return (b1.v - b2.v) + (cross(b1.w, c.r1) - cross(b2.w, c.r2));
}

/// The corrections' part of the relative velocity alone: dv1 + dω1×r1 − dv2 − dω2×r2.
inline Vec3 relative_correction(const SolverContact& c, const BodyState& b1, const BodyState& b2) {
  return (b1.dv - b2.dv) + (cross(b1.dw, c.r1) - cross(b2.dw, c.r2));
}

/// ω1 − ω2 with the current corrections included (world frame): the relative angular velocity
/// that rolling and spinning resistance act on.
inline Vec3 relative_angular_velocity(const BodyState& b1, const BodyState& b2) {
  return (b1.w + b1.dw) - (b2.w + b2.dw);
}

/// Applies the world-frame couple m (+ on body 1, − on body 2) to the corrections.
inline void apply_couple(const Vec3& m, BodyState& b1, BodyState& b2) {
  b1.dw += b1.angular_response(m);
  b2.dw -= b2.angular_response(m);
}

/// Applies the world-frame impulse p (+ on body 1, − on body 2) to the corrections. Always
/// inlined: GCC otherwise keeps it out of the sweep's loop (docs/performance.md).
[[gnu::always_inline]] inline void apply_impulse(const SolverContact& c, const Vec3& p,
                                                 BodyState& b1, BodyState& b2) {
  b1.dv += b1.inverse_mass * p;
  b1.dw += b1.angular_response(cross(c.r1, p));
  b2.dv -= b2.inverse_mass * p;
  b2.dw -= b2.angular_response(cross(c.r2, p));
}

}  // namespace granite::solver
