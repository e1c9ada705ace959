#pragma once
// Prescribed motion of a global body as a pure function of time (vibrated beds, moving walls,
// gates): the displacement d(t) from the configured position, and the time window in which the
// body exists. Being a function of time, nothing of it is restart state: a restarted run
// recomputes it from its clock.
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
  // the body takes part in contacts in the steps that start at t with from <= t < until
  double active_from = 0.0;
  double active_until = std::numeric_limits<double>::infinity();

  bool moves() const { return kind != Kind::none; }
  bool has_window() const {
    return active_from > 0.0 || active_until != std::numeric_limits<double>::infinity();
  }
  bool active_at(double t) const { return active_from <= t && t < active_until; }
  /// d(t), m.
  Vec3 displacement(double t) const;
};

}  // namespace granite::body
