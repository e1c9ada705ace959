// Packing a particle into a BodyRecord and back, field by field from the table.
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
}  // namespace

BodyRecord pack(const body::Particles& p, std::size_t i, const Vec3& shift) {
  BodyRecord r;
  std::byte* out = r.bytes.data();
  body::for_each_particle_field([&](const auto& field) {
    if (field.has(body::kMigrated)) out = put((p.*field.array)[i], out);
  });
  constexpr std::size_t position = detail::record_offset(&body::Particles::position);
  put(Vec3(p.position[i] + shift), r.bytes.data() + position);  // the periodic image
  constexpr std::size_t reference = detail::record_offset(&body::Particles::neighbour_reference);
  put(Vec3(p.neighbour_reference[i] + shift), r.bytes.data() + reference);
  return r;
}

BodyRecord deleted_record() {
  BodyRecord r{};
  put(BodyId(-1), r.bytes.data() + detail::record_offset(&body::Particles::id));
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

}  // namespace granite::parallel
