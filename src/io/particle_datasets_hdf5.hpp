#pragma once
// The /particles datasets of snapshots and checkpoints, generated from the particle field table
// (granite/body/particle_fields.hpp): the HDF5 and XDMF types of each field's scalars, and
// writing one dataset per field. Both files add owner_rank, the rank that wrote each row.
// Private to src/io.
#include "hdf5_util.hpp"

#include "granite/body/particle_fields.hpp"

#include <hdf5.h>

#include <cstdint>
#include <vector>

namespace granite::io::detail {

inline constexpr const char* kOwnerRank = "owner_rank";

/// How a scalar type is stored: HDF5 file (little-endian) and memory types, the name used in
/// docs/output.md, and the XDMF NumberType and Precision.
template <class Scalar>
struct ScalarType;
template <>
struct ScalarType<double> {
  using Scalar = double;
  static hid_t file() { return H5T_IEEE_F64LE; }
  static hid_t memory() { return H5T_NATIVE_DOUBLE; }
  static constexpr const char* name = "float64";
  static constexpr const char* xdmf = "Float";
};
template <>
struct ScalarType<std::int64_t> {
  using Scalar = std::int64_t;
  static hid_t file() { return H5T_STD_I64LE; }
  static hid_t memory() { return H5T_NATIVE_INT64; }
  static constexpr const char* name = "int64";
  static constexpr const char* xdmf = "Int";
};
template <>
struct ScalarType<std::int32_t> {
  using Scalar = std::int32_t;
  static hid_t file() { return H5T_STD_I32LE; }
  static hid_t memory() { return H5T_NATIVE_INT32; }
  static constexpr const char* name = "int32";
  static constexpr const char* xdmf = "Int";
};
template <>
struct ScalarType<std::uint32_t> {
  using Scalar = std::uint32_t;
  static hid_t file() { return H5T_STD_U32LE; }
  static hid_t memory() { return H5T_NATIVE_UINT32; }
  static constexpr const char* name = "uint32";
  static constexpr const char* xdmf = "UInt";
};

/// Calls f(name, ScalarType<Scalar>{}, components) for every /particles dataset of a file that
/// holds the fields with `flag` (body::kCheckpointed or body::kSnapshotted), owner_rank last.
template <class F>
void for_each_particle_dataset(unsigned flag, F&& f) {
  body::for_each_particle_field([&](const auto& field) {
    using Layout = typename std::decay_t<decltype(field)>::Layout;
    if (field.has(flag)) f(field.name, ScalarType<typename Layout::Scalar>{}, Layout::components);
  });
  f(kOwnerRank, ScalarType<std::int32_t>{}, std::size_t(1));
}

/// Collective. Creates /particles/<name> for every field with `flag` and owner_rank (= `rank`
/// on every row) in `group`, and writes this rank's rows (see write_dataset).
void write_particle_datasets(hid_t group, const body::Particles& particles, unsigned flag, int rank,
                             const Slab& slab);

}  // namespace granite::io::detail
