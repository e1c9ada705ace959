#pragma once
// Particles made elsewhere (`type: file`, docs/particle_sources.md): the rows of a CSV table or
// of a Granite snapshot or checkpoint (HDF5 /particles). A malformed file is one InputError
// naming the file (and, for a CSV, the line).
#include "granite/comm/communicator.hpp"
#include "granite/core/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace granite::io {

struct ParticleRow {
  Vec3 position = Vec3::Zero();
  double radius = 0.0;
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero();
  Quat orientation = Quat::Identity();
  int material = -1;  // index into the configuration's materials; -1: the source's
  std::int32_t group = 0;
  bool has_group = false;   // a group column / dataset gave it
  std::int32_t shape = -1;  // index into the configuration's shapes; -1: a sphere of radius
};

/// This rank's share of the rows of `path`, read collectively: a CSV file (name ending in .csv,
/// any case) with a header line naming its columns — x, y, z, radius required; vx, vy, vz, wx,
/// wy, wz (all three or none of a vector), material (a name of `materials`), group optional;
/// '#' comment lines and blank lines skipped — or else a Granite snapshot or checkpoint, its
/// /particles datasets (position, radius required; velocity, angular_velocity, orientation,
/// material, group if present); a snapshot's or checkpoint's /particles/shape, if present,
/// gives shaped rows, whose index must be below `shape_count`, the configuration's number of
/// shapes). Each rank reads about 1/P of the file: a CSV's lines starting in its 1/P of the
/// bytes after the header, a snapshot's rows [N r/P, N (r + 1)/P). A row's `index` is its
/// place in the file's order: a CSV's line order, a snapshot's order of ids (numbered by a
/// distributed sort, parallel::id_order), so that the same file gives the same numbering at
/// every rank count and whichever rank count wrote the snapshot.
/// Positions finite, radii > 0, materials and shapes known, a snapshot's ids unique;
/// otherwise InputError on every rank, the file's first bad line "PATH:LINE: ..." (CSV) or
/// "PATH: ..." (HDF5).
struct ParticleShare {
  std::vector<ParticleRow> rows;
  std::vector<std::int64_t> index;  // index[i]: rows[i]'s place in the file's order
  std::int64_t total = 0;           // the file's rows (all ranks)
  std::int64_t rows_read = 0;       // rows this rank parsed or read from the datasets
};
ParticleShare read_particle_file(const std::string& path, const std::vector<std::string>& materials,
                                 std::size_t shape_count, const comm::Communicator& comm);

}  // namespace granite::io
