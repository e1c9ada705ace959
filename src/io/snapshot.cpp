// Parallel HDF5 snapshots: every rank writes its owned bodies into one file with collective
// MPI-IO transfers, at the offset given by an exclusive scan of the per-rank counts.
#include "granite/io/snapshot.hpp"

#include "contact_datasets.hpp"
#include "hdf5_util.hpp"
#include "particle_datasets_hdf5.hpp"
#include "snapshot_xdmf.hpp"

#include "granite/core/build_info.hpp"
#include "granite/core/error.hpp"
#include "granite/io/shape_surface.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <unistd.h>

namespace granite::io {
namespace {

using detail::check_id;
using detail::check_status;
using detail::Handle;
using detail::Slab;
using detail::write_attribute;
using detail::write_string_attribute;

constexpr const char* kFormatName = "granite-snapshot";
constexpr int kFormatVersion = 4;  // 2: /particles/group; 3: /particles/fixed; 4: /particles/shape

std::string xdmf_path_for(const std::string& h5_path) {
  std::filesystem::path path(h5_path);
  path.replace_extension(".xdmf");
  return path.string();
}

// This rank's part of the /shapes mesh and its rows in the file; totals 0 (no /shapes) without
// shaped particles on any rank. Collective.
struct ShapeRows {
  ShapeSurfaces mesh;
  Slab vertices, triangles;
};

ShapeRows shape_rows(const body::Particles& particles, const SnapshotInfo& info,
                     const comm::Communicator& comm) {
  ShapeRows rows;
  if (info.shapes == nullptr || info.shapes->empty()) return rows;  // the same on every rank
  rows.mesh = shape_surfaces(particles, *info.shapes);
  rows.vertices = detail::slab_of(rows.mesh.vertices.size(), comm);
  rows.triangles = detail::slab_of(rows.mesh.triangles.size(), comm);
  // Indices into the file's vertices: this rank's start at its vertex offset.
  const auto first = std::int64_t(rows.vertices.offset);
  for (auto& triangle : rows.mesh.triangles)
    for (std::int64_t& vertex : triangle) vertex += first;
  return rows;
}

// A triangle mesh's group (detail::TriangleGroup): vertices (V x 3), triangles (T x 3) and the
// cell attribute (T, of `attribute_type`), each rank's rows at its slabs' offsets; leaves the
// group open in `group` for the caller's attributes. Collective.
void write_triangle_group(hid_t root, const detail::TriangleGroup& kind, const Vec3* vertices,
                          Slab vertex_rows, const std::array<std::int64_t, 3>* triangles,
                          Slab triangle_rows, const void* attribute, hid_t attribute_type,
                          hid_t transfer, int compression, const comm::Communicator& comm,
                          const std::string& file_name, Handle& group) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double));
  static_assert(sizeof(std::array<std::int64_t, 3>) == 3 * sizeof(std::int64_t));
  const std::string path = std::string("/") + kind.name;
  group.adopt(H5Gcreate2(root, kind.name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  detail::agree(&comm, group.get() < 0 ? detail::failure_text("H5Gcreate2",
                                                              "group " + path + " in " + file_name)
                                       : std::string());
  for (Slab* slab : {&vertex_rows, &triangle_rows}) {
    slab->compression = compression;
    slab->transfer = transfer;
  }
  const hid_t g = group.get();
  const hid_t file_type = kind.cell_attribute_bytes == 8 ? H5T_STD_I64LE : H5T_STD_I32LE;
  detail::write_dataset(g, path.c_str(), "vertices", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, vertices,
                        vertex_rows);
  detail::write_dataset(g, path.c_str(), "triangles", H5T_STD_I64LE, H5T_NATIVE_INT64, 3, triangles,
                        triangle_rows);
  detail::write_dataset(g, path.c_str(), kind.cell_attribute, file_type, attribute_type, 1,
                        attribute, triangle_rows);
  const auto vertex_count = std::int64_t(vertex_rows.total);
  const auto triangle_count = std::int64_t(triangle_rows.total);
  write_attribute(g, "vertex_count", H5T_STD_I64LE, H5T_NATIVE_INT64, &vertex_count);
  write_attribute(g, "triangle_count", H5T_STD_I64LE, H5T_NATIVE_INT64, &triangle_count);
}

// /shapes: vertices (V x 3), triangles (T x 3), id (T), each rank's rows at its offsets.
void write_shape_datasets(hid_t root, ShapeRows& rows, hid_t transfer, int compression,
                          const comm::Communicator& comm, const std::string& file_name) {
  Handle group(-1, H5Gclose);
  write_triangle_group(root, detail::kShapesGroup, rows.mesh.vertices.data(), rows.vertices,
                       rows.mesh.triangles.data(), rows.triangles, rows.mesh.id.data(),
                       H5T_NATIVE_INT64, transfer, compression, comm, file_name, group);
  const std::int32_t subdivisions = kIcosphereSubdivisions;
  write_attribute(group.get(), "icosphere_subdivisions", H5T_STD_I32LE, H5T_NATIVE_INT32,
                  &subdivisions);
}

// This rank's part of the /global_bodies mesh (SnapshotInfo::global_bodies) and its rows in the
// file, its triangles' vertex indices shifted to its vertex rows. Collective.
struct GlobalBodyRows {
  const SurfaceMesh* mesh = nullptr;
  std::vector<std::array<std::int64_t, 3>> triangles;
  Slab vertices, rows;
};

GlobalBodyRows global_body_rows(const SnapshotInfo& info, const comm::Communicator& comm) {
  static const SurfaceMesh kNone;
  GlobalBodyRows rows;
  rows.mesh = info.global_bodies ? info.global_bodies : &kNone;
  rows.vertices = detail::slab_of(rows.mesh->points.size(), comm);
  rows.rows = detail::slab_of(rows.mesh->triangles.size(), comm);
  rows.triangles = rows.mesh->triangles;
  const auto first = std::int64_t(rows.vertices.offset);
  for (auto& triangle : rows.triangles)
    for (std::int64_t& vertex : triangle) vertex += first;
  return rows;
}

// /global_bodies: vertices (V x 3), triangles (T x 3), body (T), each rank's rows at its offsets.
void write_global_body_datasets(hid_t root, const GlobalBodyRows& rows, hid_t transfer,
                                int compression, const comm::Communicator& comm,
                                const std::string& file_name) {
  Handle group(-1, H5Gclose);
  write_triangle_group(root, detail::kGlobalBodiesGroup, rows.mesh->points.data(), rows.vertices,
                       rows.triangles.data(), rows.rows, rows.mesh->body.data(), H5T_NATIVE_INT32,
                       transfer, compression, comm, file_name, group);
}

// Returns the number of contacts written (0 without info.contacts).
std::int64_t write_hdf5_file(const std::string& file_name, const std::string& path,
                             const body::Particles& particles, const SnapshotInfo& info,
                             const Slab& slab_without_transfer, ShapeRows& shapes,
                             const GlobalBodyRows& bodies, int rank, int ranks,
                             const comm::Communicator& comm) {
  std::int64_t contacts = 0;
  const std::string what = "file " + file_name;
  detail::write_parallel_file(file_name, path, comm, [&](hid_t root) {
    Handle transfer(check_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate", what), H5Pclose);
    check_status(H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio", what);
    Slab slab = slab_without_transfer;
    slab.transfer = transfer.get();

    Handle group(H5Gcreate2(root, "particles", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    detail::agree(&comm, group.get() < 0 ? detail::failure_text("H5Gcreate2",
                                                                "group /particles in " + file_name)
                                         : std::string());
    detail::write_particle_datasets(group.get(), particles, body::kSnapshotted, rank, slab);
    if (bodies.rows.total > 0)
      write_global_body_datasets(root, bodies, transfer.get(), info.compression, comm, file_name);
    if (shapes.triangles.total > 0)
      write_shape_datasets(root, shapes, transfer.get(), info.compression, comm, file_name);
    if (info.contacts)
      contacts = detail::write_contact_datasets(root, *info.contacts, transfer.get(),
                                                info.compression, rank, comm);

    // File (root group) attributes; every rank passes the same values.
    const std::int64_t count = std::int64_t(slab.total);
    const std::int32_t ranks32 = ranks;
    const std::int32_t version = kFormatVersion;
    const std::int32_t decomposition[3] = {info.decomposition[0], info.decomposition[1],
                                           info.decomposition[2]};
    write_string_attribute(root, "format", kFormatName);
    write_attribute(root, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &version);
    write_attribute(root, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &info.time);
    write_attribute(root, "step", H5T_STD_I64LE, H5T_NATIVE_INT64, &info.step);
    write_attribute(root, "particle_count", H5T_STD_I64LE, H5T_NATIVE_INT64, &count);
    write_string_attribute(root, "units", "SI: m, s, kg");
    write_string_attribute(root, "config", info.config);
    write_string_attribute(root, "granite_version", build_info::version());
    write_string_attribute(root, "git_commit", build_info::git_commit());
    write_attribute(root, "ranks", H5T_STD_I32LE, H5T_NATIVE_INT32, &ranks32);
    write_attribute(root, "decomposition", H5T_STD_I32LE, H5T_NATIVE_INT32, decomposition, 3);
    write_attribute(root, "compression", H5T_STD_I32LE, H5T_NATIVE_INT32, &info.compression);
    for (const auto& [name, text] : info.text_attributes)
      write_string_attribute(root, name.c_str(), text);
    for (const auto& [name, value] : info.number_attributes)
      write_attribute(root, name.c_str(), H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
  });
  return contacts;
}

}  // namespace

std::string snapshot_file_name(std::int64_t step) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "snapshot_%08lld.h5", static_cast<long long>(step));
  return buffer;
}

namespace {

// Writes the snapshot and its XDMF sidecar; returns its <Grid> block for series.xdmf (on every
// rank). Collective.
std::string write_snapshot_grid(const std::string& path, const body::Particles& particles,
                                const SnapshotInfo& info, const comm::Communicator& comm) {
  const int rank = comm.rank();
  const int ranks = comm.size();

  if (info.compression < 0 || info.compression > 9) {
    throw InputError("snapshot compression must be a gzip level 0..9, got " +
                     std::to_string(info.compression));
  }

  Slab slab = detail::slab_of(particles.size(), comm);
  slab.compression = info.compression;
  const auto total = std::int64_t(slab.total);

  // Can the destination be written? Rank 0 tries, everyone gets the same answer.
  const std::string tmp = path + ".tmp";
  detail::probe_destination(path, "snapshot", comm,
                            detail::expected_file_bytes(slab.total, body::kSnapshotted));

  ShapeRows shapes = shape_rows(particles, info, comm);
  const GlobalBodyRows bodies = global_body_rows(info, comm);
  std::int64_t contacts = 0;
  {
    detail::SilenceHdf5Errors silence;
    try {
      contacts =
          write_hdf5_file(tmp, path, particles, info, slab, shapes, bodies, rank, ranks, comm);
    } catch (...) {
      if (rank == 0) std::remove(tmp.c_str());
      throw;
    }
  }

  // The particles, the global bodies, then the shapes: the first two keep their places in the
  // spatial collection whether or not there are shapes. A run with shapes has a collection at
  // every step, also before its first shaped particle (a pour).
  const std::string h5_name = std::filesystem::path(path).filename().string();
  const std::string grid =
      detail::xdmf_grid(h5_name, total, info.time, info.step,
                        detail::xdmf_triangle_grid(h5_name, detail::kGlobalBodiesGroup,
                                                   std::int64_t(bodies.vertices.total),
                                                   std::int64_t(bodies.rows.total), "      ") +
                            detail::xdmf_triangle_grid(
                                h5_name, detail::kShapesGroup, std::int64_t(shapes.vertices.total),
                                std::int64_t(shapes.triangles.total), "      "),
                        info.shapes != nullptr && !info.shapes->empty());

  // Every rank has closed the file: rank 0 publishes it under the final name, then the XDMF.
  io::on_root_collectively(comm, [&] {
    detail::rename_into_place(tmp, path);
    detail::write_text_atomically(xdmf_path_for(path), detail::xdmf_document(grid));
    if (info.contacts)
      detail::write_text_atomically(detail::contacts_xdmf_path_for(path),
                                    detail::xdmf_contacts_document(h5_name, contacts, info.time,
                                                                   info.step,
                                                                   info.contacts->compatible));
  });
  return grid;
}

}  // namespace

void write_snapshot(const std::string& path, const body::Particles& particles,
                    const SnapshotInfo& info, const comm::Communicator& comm) {
  write_snapshot_grid(path, particles, info, comm);
}

SnapshotWriter::SnapshotWriter(std::string dir, const comm::Communicator& comm) :
    dir_(std::move(dir)), comm_(comm) {
  comm::on_root(comm_, [&] {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_, ec)) {
      throw InputError("cannot create snapshot directory '" + dir_ +
                       "': " + (ec ? ec.message() : std::string("not a directory")));
    }
    const std::string probe_path = (fs::path(dir_) / ".granite_write_probe").string();
    const int probe = create_new(probe_path);
    if (probe < 0) {
      throw InputError("snapshot directory '" + dir_ +
                       "' is not writable: " + std::strerror(errno));
    }
    ::close(probe);
    std::remove(probe_path.c_str());
    series_ = detail::scan_snapshot_grids(dir_);
  });
}

std::string SnapshotWriter::write(const body::Particles& particles, const SnapshotInfo& info) {
  const std::filesystem::path h5 = std::filesystem::path(dir_) / snapshot_file_name(info.step);
  const std::string grid = write_snapshot_grid(h5.string(), particles, info, comm_);
  io::on_root_collectively(comm_, [&] {
    series_[info.step] = grid;
    detail::write_text_atomically((std::filesystem::path(dir_) / "series.xdmf").string(),
                                  detail::xdmf_series_document(series_));
  });
  return h5.string();
}

}  // namespace granite::io
