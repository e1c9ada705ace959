#include "granite/collision/segments.hpp"

#include <algorithm>

namespace granite::collision {

namespace {
double clamp01(double x) { return std::clamp(x, 0.0, 1.0); }
}  // namespace

double closest_parameter(const Vec3& x, const Vec3& a, const Vec3& d) {
  const double dd = d.squaredNorm();
  return dd > 0.0 ? clamp01((x - a).dot(d) / dd) : 0.0;
}

// With w = a1 − a2, a = d1·d1,
// b = d1·d2, c = d1·w, e = d2·d2, f = d2·w, the lines' closest points are s = (b f − c e) /
// (a e − b²), t = (b s + f) / e. By Lagrange's identity, with n = d1 × d2, a e − b² = |n|² and
// b f − c e = (d2 × w)·n: written so, neither cancels for near-parallel segments, where
// a e − b² would be mostly rounding. Parallel lines (n = 0): any s will do, s = 0.
std::pair<double, double> closest_parameters(const Vec3& a1, const Vec3& d1, const Vec3& a2,
                                             const Vec3& d2) {
  const Vec3 w = a1 - a2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(w);
  if (a == 0.0) return {0.0, e > 0.0 ? clamp01(f / e) : 0.0};  // segment 1 is a point
  const double c = d1.dot(w);
  if (e == 0.0) return {clamp01(-c / a), 0.0};  // segment 2 is a point
  const Vec3 n = cross(d1, d2);
  const double nn = n.squaredNorm();
  double s = nn > 0.0 ? clamp01(cross(d2, w).dot(n) / nn) : 0.0;
  // Segment 2's point nearest a1 + s d1; if outside [0, 1], clamp it and redo s for that end.
  const double b = d1.dot(d2);
  double t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = clamp01(-c / a);
  } else if (t > 1.0) {
    t = 1.0;
    s = clamp01((b - c) / a);
  }
  return {s, t};
}

}  // namespace granite::collision
