#pragma once
// Eigen aliases and scalar types used throughout Granite. Units are SI everywhere.
#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cstdint>

namespace granite {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;  // stored (w, x, y, z) in the paper's notation phi

/// Globally unique body identifier (stable across ranks, restarts and migration).
using BodyId = std::int64_t;

}  // namespace granite
