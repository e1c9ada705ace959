#pragma once
// Prescribed motion of a global body as a pure function of time (vibrated beds, moving walls,
// gates, rotating drums): the displacement d(t) from the configured position, the rotation
// R(t) = rotation by the angle |ω| t about ω through the point c + d(t), and the time window
// in which the body exists. Being a function of time, nothing of it is restart state: a restarted run
// recomputes it from its clock.
#include "granite/body/global_body.hpp"
#include "granite/core/types.hpp"

#include <limits>
#include <vector>

namespace granite::body {

struct PrescribedMotion {
  enum class Kind { none, oscillation, table };
  Kind kind = Kind::none;
  // oscillation: d(t) = A (sin(2π f t + φ) − sin φ), so d(0) = 0
  Vec3 amplitude = Vec3::Zero();  // m
  double frequency = 0.0;         // Hz
  double phase = 0.0;             // rad
  // table: velocity piecewise linear between (times[k], velocities[k]) (times increasing),
  // constant before the first and after the last; d(t) its exact integral from 0
  std::vector<double> times;     // s
  std::vector<Vec3> velocities;  // m/s
  // rotation: constant angular velocity ω (rad/s) about the axis through `center` (configured
  // position; it moves with d(t)); the body at t is x -> c + d(t) + R(t) (x − c)
  Vec3 angular_velocity = Vec3::Zero();
  Vec3 center = Vec3::Zero();  // m
  // the body takes part in contacts in the steps that start at t with from <= t < until
  double active_from = 0.0;
  double active_until = std::numeric_limits<double>::infinity();

  bool moves() const { return kind != Kind::none || rotates(); }
  bool translates() const { return kind != Kind::none; }
  bool rotates() const { return angular_velocity != Vec3::Zero(); }
  bool has_window() const {
    return active_from > 0.0 || active_until != std::numeric_limits<double>::infinity();
  }
  bool active_at(double t) const { return active_from <= t && t < active_until; }
  /// d(t), m.
  Vec3 displacement(double t) const;
  /// R(t): the rotation by the angle |ω| t about ω (computed from t, never accumulated).
  Quat rotation(double t) const;
  /// The body at time t from its configured parts: each part rotated by R(t) about the
  /// configured centre, then translated by d(t).
  void place(const std::vector<Primitive>& configured, double t,
             std::vector<Primitive>& parts) const;
};

}  // namespace granite::body
