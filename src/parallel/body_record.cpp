// Packing a particle into a BodyRecord or GhostState and back, field by field from the table.
#include "granite/parallel/body_record.hpp"

namespace granite::parallel {

namespace {
// Writes `value` as its flat scalars at `out`; returns the end.
template <class T>
std::byte* put(const T& value, std::byte* out) {
  using Layout = body::FlatLayout<T>;
  typename Layout::Scalar flat[Layout::components];
  Layout::flatten(value, flat);
  std::memcpy(out, flat, sizeof flat);
  return out + sizeof flat;
}

// Reads `value` from the flat scalars at `in`; returns the end.
template <class T>
const std::byte* take(const std::byte* in, T& value) {
  using Layout = body::FlatLayout<T>;
  typename Layout::Scalar flat[Layout::components];
  std::memcpy(flat, in, sizeof flat);
  value = Layout::unflatten(flat);
  return in + sizeof flat;
}

// The fields of particle i with the record's flag, as stored.
template <class Record>
Record pack_fields(const body::Particles& p, std::size_t i) {
  Record r;
  std::byte* out = r.bytes.data();
  body::for_each_particle_field([&](const auto& field) {
    if (field.has(Record::flag)) out = put((p.*field.array)[i], out);
  });
  return r;
}

// The same, the position moved by `shift`.
template <class Record>
Record pack_fields(const body::Particles& p, std::size_t i, const Vec3& shift) {
  Record r = pack_fields<Record>(p, i);
  constexpr std::size_t position = detail::record_offset<Record::flag>(&body::Particles::position);
  put(Vec3(p.position[i] + shift), r.bytes.data() + position);  // the periodic image
  return r;
}
}  // namespace

BodyRecord pack(const body::Particles& p, std::size_t i) { return pack_fields<BodyRecord>(p, i); }

BodyRecord pack(const body::Particles& p, std::size_t i, const Vec3& shift) {
  BodyRecord r = pack_fields<BodyRecord>(p, i, shift);
  constexpr std::size_t reference = detail::record_offset(&body::Particles::neighbour_reference);
  put(Vec3(p.neighbour_reference[i] + shift), r.bytes.data() + reference);
  return r;
}

void unpack(const BodyRecord& r, body::Particles& particles) {
  body::ParticleInit row;
  const std::byte* in = r.bytes.data();
  body::for_each_particle_field([&](const auto& field) {
    if (field.has(body::kMigrated)) in = take(in, row.*field.source);
  });
  particles.add_exact(row);
}

GhostState pack_state(const body::Particles& p, std::size_t i, const Vec3& shift) {
  return pack_fields<GhostState>(p, i, shift);
}

void write_state(const GhostState& state, body::Particles& particles, std::size_t i) {
  const std::byte* in = state.bytes.data();
  body::for_each_particle_field([&](const auto& field) {
    if (field.has(body::kRefreshed)) in = take(in, (particles.*field.array)[i]);
  });
}

GhostState deleted_state() {
  GhostState r{};
  put(BodyId(-1), r.bytes.data() + detail::record_offset<body::kRefreshed>(&body::Particles::id));
  return r;
}

}  // namespace granite::parallel
