#include "granite/body/prescribed_motion.hpp"

#include <cmath>

namespace granite::body {

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

// ∫_0^t v(s) ds of the piecewise-linear table (trapezoids: exact for linear pieces).
Vec3 table_displacement(const std::vector<double>& t, const std::vector<Vec3>& v, double until) {
  // The velocity at time s, and the integral of v over [a, b] within one linear piece.
  auto velocity_at = [&](std::size_t k, double s) -> Vec3 {  // s in [t[k], t[k+1]]
    const double w = (s - t[k]) / (t[k + 1] - t[k]);
    return (1.0 - w) * v[k] + w * v[k + 1];
  };
  Vec3 d = Vec3::Zero();
  double s = 0.0;
  if (until <= s) return d;
  const double first = std::min(t.front(), until);  // before the table: v[0]
  if (first > s) {
    d += (first - s) * v.front();
    s = first;
  }
  for (std::size_t k = 0; k + 1 < t.size() && s < until; ++k) {
    const double a = std::max(s, t[k]), b = std::min(until, t[k + 1]);
    if (b <= a) continue;
    d += 0.5 * (b - a) * (velocity_at(k, a) + velocity_at(k, b));
    s = b;
  }
  if (until > s) d += (until - std::max(s, t.back())) * v.back();  // after the table
  return d;
}

}  // namespace

Vec3 PrescribedMotion::displacement(double t) const {
  switch (kind) {
  case Kind::oscillation:
    return amplitude * (std::sin(kTwoPi * frequency * t + phase) - std::sin(phase));
  case Kind::table:
    return table_displacement(times, velocities, t);
  default:
    return Vec3::Zero();
  }
}

Quat PrescribedMotion::rotation(double t) const {
  const double rate = angular_velocity.norm();
  if (!(rate > 0.0)) return Quat::Identity();
  return Quat(Eigen::AngleAxisd(rate * t, angular_velocity / rate));
}

void PrescribedMotion::place(const std::vector<Primitive>& configured, double t,
                             std::vector<Primitive>& parts) const {
  const Vec3 d = displacement(t);
  const bool turned = rotates();
  const Quat q = rotation(t);
  parts = configured;
  for (Primitive& part : parts) {
    if (turned) rotate(part, q, center);
    translate(part, d);
  }
}

}  // namespace granite::body
