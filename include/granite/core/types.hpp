#pragma once
// Eigen aliases and scalar types used throughout Granite. Units are SI everywhere.
#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cstdint>

namespace granite {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;  // stored (w, x, y, z) in the paper's notation phi

/// a × b written out by components, for inner loops. Eigen's cross() lets GCC pair lanes through
/// a stack round trip (two scalar stores read back as one vector) that stalls the relaxation
/// sweep (docs/performance.md).
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

/// Whether m = kE (e.g. a sphere's inertia tensor, in every frame).
inline bool is_isotropic(const Mat3& m) { return m == m(0, 0) * Mat3::Identity(); }

/// Globally unique body identifier (stable across ranks, restarts and migration).
using BodyId = std::int64_t;

}  // namespace granite
