#pragma once
// The complete state of one particle as a flat, trivially copyable record: what migration
// sends to a new owner and ghost creation sends to neighbours.
#include "granite/body/particles.hpp"

#include <array>
#include <type_traits>

namespace granite::parallel {

// Plain arrays rather than Eigen types, which are not trivially copyable.
struct BodyRecord {
  BodyId id;
  std::array<double, 3> position;
  std::array<double, 4> orientation;  // w, x, y, z
  std::array<double, 3> velocity;
  std::array<double, 3> angular_velocity;
  std::array<double, 3> force;
  std::array<double, 3> torque;
  double mass;
  std::array<double, 9> body_inertia;  // column-major
  double radius;
  body::MaterialIndex material;
};
static_assert(std::is_trivially_copyable_v<BodyRecord>);

/// Record of particle i, its position moved by `shift` (periodic images).
BodyRecord pack(const body::Particles& particles, std::size_t i, const Vec3& shift = Vec3::Zero());
/// Appends the record as a new particle (same id).
void unpack(const BodyRecord& record, body::Particles& particles);

}  // namespace granite::parallel
