#pragma once
// The state of one particle as a flat, trivially copyable record. A BodyRecord is what migration
// sends to a new owner and ghost creation sends to neighbours: the fields marked `migrated` in
// body/particle_fields.hpp. A GhostState is what a halo refresh sends to a ghost between two
// neighbour-list rebuilds: the fields marked `refreshed` (what a step changes). Each holds its
// fields in the table's order, each as its flat scalars (quaternions w, x, y, z; matrices
// column-major), back to back; unpack() recomputes the derived fields.
#include "granite/body/particle_fields.hpp"

#include <array>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace granite::parallel {

namespace detail {
template <class Field>
constexpr std::size_t record_bytes_of(const Field&) {
  using Layout = typename Field::Layout;
  return Layout::components * sizeof(typename Layout::Scalar);
}

template <unsigned Flag>
constexpr std::size_t record_bytes() {
  std::size_t bytes = 0;
  body::for_each_particle_field([&](const auto& field) {
    if (field.has(Flag)) bytes += record_bytes_of(field);
  });
  return bytes;
}

// Byte offset of the field with `Flag` whose array is `array` (a compile-time error otherwise).
template <unsigned Flag = body::kMigrated, class T>
constexpr std::size_t record_offset(std::vector<T> body::Particles::*array) {
  std::size_t offset = 0, found = record_bytes<Flag>();
  body::for_each_particle_field([&](const auto& field) {
    if (!field.has(Flag)) return;
    if constexpr (std::is_same_v<typename std::decay_t<decltype(field)>::Element, T>) {
      if (field.array == array) found = offset;
    }
    offset += record_bytes_of(field);
  });
  if (found == record_bytes<Flag>()) throw "not a particle field with this flag";
  return found;
}
}  // namespace detail

/// The fields with `Flag` of one particle.
template <unsigned Flag>
struct FieldRecord {
  static constexpr unsigned flag = Flag;
  std::array<std::byte, detail::record_bytes<Flag>()> bytes;

  /// The value of one field, e.g. record.get<&body::Particles::velocity>().
  template <auto Array>
  auto get() const {
    using T = typename std::remove_reference_t<decltype(std::declval<body::Particles&>().*
                                                        Array)>::value_type;
    using Layout = body::FlatLayout<T>;
    typename Layout::Scalar flat[Layout::components];
    constexpr std::size_t offset = detail::record_offset<Flag>(Array);
    std::memcpy(flat, bytes.data() + offset, sizeof flat);
    return Layout::unflatten(flat);
  }
};

using BodyRecord = FieldRecord<body::kMigrated>;
using GhostState = FieldRecord<body::kRefreshed>;
static_assert(std::is_trivially_copyable_v<BodyRecord>);
static_assert(std::is_trivially_copyable_v<GhostState>);

/// Record of particle i, its position moved by `shift` (periodic images).
BodyRecord pack(const body::Particles& particles, std::size_t i, const Vec3& shift);
/// Particle i exactly as stored (no shift: every bit, a −0 included), e.g. a checkpoint's row
/// on its way to the rank that owns it.
BodyRecord pack(const body::Particles& particles, std::size_t i);
/// Appends the record as a new particle, bit for bit (same id, orientation not renormalised).
void unpack(const BodyRecord& record, body::Particles& particles);

/// The refreshed fields of particle i, its position moved by `shift`.
GhostState pack_state(const body::Particles& particles, std::size_t i,
                      const Vec3& shift = Vec3::Zero());
/// Writes the state's fields into particle i of `particles`, bit for bit (the id included).
void write_state(const GhostState& state, body::Particles& particles, std::size_t i);

/// The state that a halo refresh sends in place of a body deleted since the plan was made
/// (its id is -1; nothing else in it is meaningful), and the test for it.
GhostState deleted_state();
inline bool is_deleted(const GhostState& state) { return state.get<&body::Particles::id>() < 0; }

}  // namespace granite::parallel
