#pragma once
// Closest points of segments, shared by the capsule and polyhedron narrow phases. A segment is
// a + t d, t ∈ [0, 1]; d = 0 is a point.
#include "granite/core/types.hpp"

#include <utility>

namespace granite::collision {

/// The parameter t ∈ [0, 1] of the point a + t d closest to x: the projection on the line,
/// clamped (0 for a point segment).
double closest_parameter(const Vec3& x, const Vec3& a, const Vec3& d);

/// Parameters (s, t) of the closest points of the segments a1 + s d1 and a2 + t d2 (Ericson,
/// Real-Time Collision Detection §5.1.9); parallel segments get s = 0 and its closest t.
std::pair<double, double> closest_parameters(const Vec3& a1, const Vec3& d1, const Vec3& a2,
                                             const Vec3& d2);

}  // namespace granite::collision
