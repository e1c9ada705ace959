#pragma once
// The one list of particle fields. Every per-particle array of body::Particles is declared here
// once, with its name in files, its unit, a description, and where it goes:
//   checkpointed  a /particles dataset of checkpoints (restart restores it bit for bit)
//   snapshotted   a /particles dataset of snapshots (output for analysis and ParaView)
//   migrated      in parallel::BodyRecord, sent with the body to its new owner and to ghosts
//   refreshed     in parallel::GhostState, sent to the ghosts at every step between two
//                 neighbour-list rebuilds: what a step or the fixes between steps may change
//                 (the id, so that a deleted body can be sent as id -1)
// Particles' storage operations (add, remove_if, clear, reserve), the migration/ghost record,
// the checkpoint and snapshot files and the dataset tables of docs/output.md are generated
// from it. Adding a field is a row here, its array in Particles, its value in ParticleInit,
// and the code that uses it.
//
// Derived fields (the inverse mass) are computed from the stored fields whenever a body is added
// and are never written or sent, so every copy of a body computes them the same way. (I0⁻¹ is
// formed where it is used, Particles::inverse_body_inertia: 72 bytes per body not stored.)
#include "granite/body/particles.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace granite::body {

// --- one element as a flat run of scalars (files and records) --------------------------------

/// Arithmetic elements: one scalar.
template <class T>
struct FlatLayout {
  static_assert(std::is_arithmetic_v<T>);
  using Scalar = T;
  static constexpr std::size_t components = 1;
  static constexpr bool same_as_memory = true;  // a std::vector<T> is already the flat rows
  static void flatten(const T& value, Scalar* out) { out[0] = value; }
  static T unflatten(const Scalar* in) { return in[0]; }
};

template <>
struct FlatLayout<Vec3> {
  using Scalar = double;
  static constexpr std::size_t components = 3;
  static constexpr bool same_as_memory = sizeof(Vec3) == 3 * sizeof(double);
  static void flatten(const Vec3& v, double* out) { std::copy_n(v.data(), 3, out); }
  static Vec3 unflatten(const double* in) { return Eigen::Map<const Vec3>(in); }
};

/// Quaternions as (w, x, y, z), the paper's order (Eigen stores x, y, z, w).
template <>
struct FlatLayout<Quat> {
  using Scalar = double;
  static constexpr std::size_t components = 4;
  static constexpr bool same_as_memory = false;
  static void flatten(const Quat& q, double* out) {
    out[0] = q.w();
    out[1] = q.x();
    out[2] = q.y();
    out[3] = q.z();
  }
  static Quat unflatten(const double* in) { return Quat(in[0], in[1], in[2], in[3]); }
};

/// 3x3 matrices as 9 columns, column-major (Eigen's storage order).
template <>
struct FlatLayout<Mat3> {
  using Scalar = double;
  static constexpr std::size_t components = 9;
  static constexpr bool same_as_memory = sizeof(Mat3) == 9 * sizeof(double);
  static void flatten(const Mat3& m, double* out) { std::copy_n(m.data(), 9, out); }
  static Mat3 unflatten(const double* in) { return Eigen::Map<const Mat3>(in); }
};

// --- the table ---------------------------------------------------------------------------------

enum ParticleFieldFlag : unsigned {
  kCheckpointed = 1u << 0,
  kSnapshotted = 1u << 1,
  kMigrated = 1u << 2,
  kRefreshed = 1u << 3,
};
inline constexpr unsigned kEverywhere = kCheckpointed | kSnapshotted | kMigrated;

/// One field: the array Particles::*array of elements T. A stored field takes its value from
/// ParticleInit::*source; a derived one is computed by derive() and has no flags.
template <class T>
struct ParticleField {
  using Element = T;
  using Layout = FlatLayout<T>;
  const char* name;  // dataset name in files
  std::vector<T> Particles::*array;
  T ParticleInit::*source;
  T (*derive)(const ParticleInit&);
  const char* unit;  // "" for dimensionless
  const char* description;
  unsigned flags;

  constexpr bool has(unsigned flag) const { return (flags & flag) != 0; }
  constexpr bool derived() const { return derive != nullptr; }
  /// The value of this field for a body described by `row`.
  T value(const ParticleInit& row) const { return derive ? derive(row) : row.*source; }
};

template <class T>
constexpr ParticleField<T> stored(const char* name, std::vector<T> Particles::*array,
                                  std::type_identity_t<T> ParticleInit::*source, const char* unit,
                                  const char* description, unsigned flags) {
  return {name, array, source, nullptr, unit, description, flags};
}

template <class T>
constexpr ParticleField<T> derived(const char* name, std::vector<T> Particles::*array,
                                   std::type_identity_t<T> (*derive)(const ParticleInit&),
                                   const char* unit, const char* description) {
  return {name, array, nullptr, derive, unit, description, 0u};
}

// In the order of the arrays in Particles, which is also the order of datasets in files and of
// fields in a BodyRecord.
inline constexpr std::tuple kParticleFields{
    stored("id", &Particles::id, &ParticleInit::id, "",
           "globally unique body id (stable across ranks and restarts)", kEverywhere | kRefreshed),
    stored("position", &Particles::position, &ParticleInit::position, "m",
           "centre of mass (x, y, z)", kEverywhere | kRefreshed),
    stored("orientation", &Particles::orientation, &ParticleInit::orientation, "",
           "unit quaternion, columns w, x, y, z (body → world)", kEverywhere | kRefreshed),
    stored("velocity", &Particles::velocity, &ParticleInit::velocity, "m/s", "linear velocity",
           kEverywhere | kRefreshed),
    stored("angular_velocity", &Particles::angular_velocity, &ParticleInit::angular_velocity,
           "rad/s", "angular velocity, world frame", kEverywhere | kRefreshed),
    stored("force", &Particles::force, &ParticleInit::force, "N",
           "constant external force besides gravity, user-set", kCheckpointed | kMigrated),
    stored("torque", &Particles::torque, &ParticleInit::torque, "N m",
           "constant external torque, world frame, user-set", kCheckpointed | kMigrated),
    stored("mass", &Particles::mass, &ParticleInit::mass, "kg", "mass", kCheckpointed | kMigrated),
    derived(
        "inverse_mass", &Particles::inverse_mass,
        [](const ParticleInit& row) { return row.fixed != 0 ? 0.0 : 1.0 / row.mass; }, "1/kg",
        "1 / mass (0 if fixed)"),
    stored("body_inertia", &Particles::body_inertia, &ParticleInit::body_inertia, "kg m²",
           "body-frame inertia tensor I0, 9 columns, column-major", kCheckpointed | kMigrated),
    stored("radius", &Particles::radius, &ParticleInit::radius, "m",
           "contact sphere radius; a shaped body's bounding radius (from its centre of mass)",
           kEverywhere),
    stored("shape", &Particles::shape, &ParticleInit::shape, "",
           "index into the configuration's `shapes` (docs/shapes.md); -1: a sphere of radius",
           kEverywhere),
    stored("material", &Particles::material, &ParticleInit::material, "",
           "index into the configuration's material table", kEverywhere),
    stored("group", &Particles::group, &ParticleInit::group, "",
           "user tag set by the particle source; carried through migration, snapshots and "
           "checkpoints",
           kEverywhere),
    stored("fixed", &Particles::fixed, &ParticleInit::fixed, "",
           "1: a fixed particle, which never moves (infinite mass and inertia for its contacts: "
           "a pile's base, a rough wall), 0: free",
           kEverywhere),
    stored("neighbour_reference", &Particles::neighbour_reference,
           &ParticleInit::neighbour_reference, "m",
           "position at the last neighbour-list build (contact.skin): the lists and ghosts of "
           "a restart are rebuilt from it",
           kCheckpointed | kMigrated),
};

/// Calls f(field) for every field of the table, in order.
template <class F>
constexpr void for_each_particle_field(F&& f) {
  std::apply([&](const auto&... field) { (f(field), ...); }, kParticleFields);
}

namespace detail {
constexpr bool fields_are_consistent() {
  bool ok = true;
  for_each_particle_field([&](const auto& field) {
    // A stored field has a source in ParticleInit and no derive function, and a restart must
    // restore it; a derived field is recomputed, never stored. Told apart by `source`: with
    // sanitizers GCC does not assume function addresses are non-null, so comparing `derive`
    // (a lambda's address) with nullptr is not a constant expression there.
    ok = ok && (field.source != nullptr ? field.derive == nullptr && field.has(kCheckpointed)
                                        : field.flags == 0);
  });
  return ok;
}
}  // namespace detail
static_assert(detail::fields_are_consistent());

}  // namespace granite::body
