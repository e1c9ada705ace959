#pragma once
// Particles made elsewhere (`type: file`, docs/particle_sources.md): the rows of a CSV table or
// of a Granite snapshot or checkpoint (HDF5 /particles). A malformed file is one InputError
// naming the file (and, for a CSV, the line).
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

/// The rows of `path`: a CSV file (name ending in .csv, any case) with a header line naming its
/// columns — x, y, z, radius required; vx, vy, vz, wx, wy, wz (all three or none of a
/// vector), material (a name of `materials`), group optional; '#' comment lines and blank
/// lines skipped — or else a Granite snapshot or checkpoint, its /particles datasets (position,
/// radius required; velocity, angular_velocity, orientation, material, group if present) in
/// the order of their ids; a snapshot's or checkpoint's /particles/shape, if present, gives
/// shaped rows, whose index must be below `shape_count`, the configuration's number of shapes).
/// Positions finite, radii > 0, materials and shapes known; otherwise InputError
/// "PATH:LINE: ..." (CSV) or "PATH: ..." (HDF5).
std::vector<ParticleRow> read_particle_file(const std::string& path,
                                            const std::vector<std::string>& materials,
                                            std::size_t shape_count = 0);

}  // namespace granite::io
