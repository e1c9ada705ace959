// Parallel HDF5 snapshots: every rank writes its owned bodies into one file with collective
// MPI-IO transfers, at the offset given by an exclusive scan of the per-rank counts.
#include "granite/io/snapshot.hpp"

#include "snapshot_xdmf.hpp"

#include "granite/core/build_info.hpp"
#include "granite/core/error.hpp"

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

namespace granite::io {
namespace {

static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 arrays are written as N x 3 doubles");

// Rows per chunk along N: 32768 rows are 256 KiB for a scalar dataset and 1 MiB for the
// N x 4 orientation, i.e. every chunk fits the default 1 MiB chunk cache.
constexpr hsize_t kChunkRows = 32768;

constexpr const char* kFormatName = "granite-snapshot";
constexpr int kFormatVersion = 1;

// --- HDF5 error handling -------------------------------------------------------------------

// Turns off HDF5's automatic error-stack printing while a snapshot is written (the stack is
// turned into the exception message instead) and restores the caller's handler afterwards.
class SilenceHdf5Errors {
public:
  SilenceHdf5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~SilenceHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }
  SilenceHdf5Errors(const SilenceHdf5Errors&) = delete;
  SilenceHdf5Errors& operator=(const SilenceHdf5Errors&) = delete;

private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

// The innermost entry of the current HDF5 error stack, e.g. "H5FD_mpio_open: file open failed".
std::string hdf5_error_detail() {
  std::string detail;
  auto walk = [](unsigned n, const H5E_error2_t* error, void* client) -> herr_t {
    if (n == 0) {
      auto* out = static_cast<std::string*>(client);
      *out = std::string(error->func_name ? error->func_name : "?") + ": " +
             (error->desc ? error->desc : "");
      char minor[256] = "";
      if (H5Eget_msg(error->min_num, nullptr, minor, sizeof minor) > 0) {
        *out += std::string(" (") + minor + ")";
      }
    }
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk, &detail);
  return detail.empty() ? "no HDF5 error detail" : detail;
}

[[noreturn]] void hdf5_failure(const char* call, const std::string& what) {
  throw std::runtime_error(std::string("HDF5 ") + call + " failed (" + what +
                           "): " + hdf5_error_detail());
}

hid_t check_id(hid_t id, const char* call, const std::string& what) {
  if (id < 0) hdf5_failure(call, what);
  return id;
}

void check_status(herr_t status, const char* call, const std::string& what) {
  if (status < 0) hdf5_failure(call, what);
}

// Owns an HDF5 identifier; closes it with the matching H5?close on destruction.
class Handle {
public:
  using Closer = herr_t (*)(hid_t);
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~Handle() { reset(); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  // Closes now and reports failure (a file close flushes, so its status matters).
  herr_t close() {
    const herr_t status = id_ >= 0 ? closer_(id_) : 0;
    id_ = -1;
    return status;
  }

private:
  void reset() {
    if (id_ >= 0) closer_(id_);
    id_ = -1;
  }
  hid_t id_;
  Closer closer_;
};

// --- attributes ------------------------------------------------------------------------------

void write_attribute(hid_t object, const char* name, hid_t file_type, hid_t memory_type,
                     const void* value, hsize_t count = 0) {
  const std::string what = std::string("attribute ") + name;
  Handle space(count == 0 ? check_id(H5Screate(H5S_SCALAR), "H5Screate", what)
                          : check_id(H5Screate_simple(1, &count, nullptr), "H5Screate_simple", what),
               H5Sclose);
  Handle attribute(check_id(H5Acreate2(object, name, file_type, space.get(), H5P_DEFAULT,
                                       H5P_DEFAULT),
                            "H5Acreate2", what),
                   H5Aclose);
  check_status(H5Awrite(attribute.get(), memory_type, value), "H5Awrite", what);
}

// Variable-length UTF-8 string attribute (h5py reads it as str).
void write_string_attribute(hid_t object, const char* name, const std::string& value) {
  const std::string what = std::string("attribute ") + name;
  Handle type(check_id(H5Tcopy(H5T_C_S1), "H5Tcopy", what), H5Tclose);
  check_status(H5Tset_size(type.get(), H5T_VARIABLE), "H5Tset_size", what);
  check_status(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset", what);
  const char* pointer = value.c_str();
  write_attribute(object, name, type.get(), type.get(), &pointer);
}

// --- datasets --------------------------------------------------------------------------------

struct Slab {
  hsize_t total = 0;   // global number of bodies
  hsize_t offset = 0;  // first row of this rank
  hsize_t local = 0;   // rows of this rank
  int compression = 0;
  hid_t transfer = H5P_DEFAULT;  // collective transfer property list
};

// Creates /particles/<name> of shape (total) or (total, columns) and writes this rank's rows
// collectively. Every rank calls this, also with zero local rows.
void write_dataset(hid_t group, const char* name, hid_t file_type, hid_t memory_type,
                   hsize_t columns, const void* data, const Slab& slab) {
  const std::string what = std::string("dataset /particles/") + name;
  const int rank = columns > 1 ? 2 : 1;
  const hsize_t dims[2] = {slab.total, columns};
  // Unlimited along N so that a chunk may be larger than a small (or empty) dataset.
  const hsize_t max_dims[2] = {H5S_UNLIMITED, columns};
  const hsize_t chunk[2] = {std::clamp<hsize_t>(slab.total, 1, kChunkRows), columns};

  Handle file_space(check_id(H5Screate_simple(rank, dims, max_dims), "H5Screate_simple", what),
                    H5Sclose);
  Handle create(check_id(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate", what), H5Pclose);
  check_status(H5Pset_chunk(create.get(), rank, chunk), "H5Pset_chunk", what);
  check_status(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time", what);
  if (slab.compression > 0) {
    check_status(H5Pset_shuffle(create.get()), "H5Pset_shuffle", what);
    check_status(H5Pset_deflate(create.get(), unsigned(slab.compression)), "H5Pset_deflate",
                 what);
  }
  Handle dataset(check_id(H5Dcreate2(group, name, file_type, file_space.get(), H5P_DEFAULT,
                                     create.get(), H5P_DEFAULT),
                          "H5Dcreate2", what),
                 H5Dclose);
  if (slab.total == 0) return;  // nothing to transfer (the same decision on every rank)

  const hsize_t start[2] = {slab.offset, 0};
  const hsize_t count[2] = {slab.local, columns};
  const hsize_t memory_dims[2] = {std::max<hsize_t>(slab.local, 1), columns};
  Handle memory_space(check_id(H5Screate_simple(rank, memory_dims, nullptr), "H5Screate_simple",
                               what),
                      H5Sclose);
  if (slab.local > 0) {
    check_status(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count,
                                     nullptr),
                 "H5Sselect_hyperslab", what);
  } else {
    // A rank without bodies still takes part in the collective transfer, selecting nothing.
    check_status(H5Sselect_none(file_space.get()), "H5Sselect_none", what);
    check_status(H5Sselect_none(memory_space.get()), "H5Sselect_none", what);
  }
  static const double kDummy[4] = {};
  check_status(H5Dwrite(dataset.get(), memory_type, memory_space.get(), file_space.get(),
                        slab.transfer, slab.local > 0 ? data : kDummy),
               "H5Dwrite", what);
}

// --- rank-0 decisions ------------------------------------------------------------------------

// Rank 0's error message ("" = success) on every rank.
std::string broadcast_message(std::string message, MPI_Comm comm) {
  int length = int(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  message.resize(std::size_t(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, 0, comm);
  return message;
}

// Runs `action` on rank 0; an InputError (or any exception) there is rethrown as an InputError
// with the same message on every rank.
template <class Action>
void on_rank_zero(MPI_Comm comm, Action&& action) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string message;
  if (rank == 0) {
    try {
      action();
    } catch (const std::exception& error) {
      message = error.what();
      if (message.empty()) message = "unknown error";
    }
  }
  message = broadcast_message(std::move(message), comm);
  if (!message.empty()) throw InputError(message);
}

std::string xdmf_path_for(const std::string& h5_path) {
  std::filesystem::path path(h5_path);
  path.replace_extension(".xdmf");
  return path.string();
}

void write_hdf5_file(const std::string& file_name, const body::Particles& particles,
                     const SnapshotInfo& info, const Slab& slab_without_transfer, int rank,
                     int ranks, MPI_Comm comm) {
  const std::string what = "file " + file_name;
  Handle access(check_id(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate", what), H5Pclose);
  check_status(H5Pset_fapl_mpio(access.get(), comm, MPI_INFO_NULL), "H5Pset_fapl_mpio", what);
  // The 1.8 object format: large attributes (a long config) and readers from HDF5 1.8 on.
  check_status(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_V18),
               "H5Pset_libver_bounds", what);
  check_status(H5Pset_coll_metadata_write(access.get(), true), "H5Pset_coll_metadata_write",
               what);
  Handle file(check_id(H5Fcreate(file_name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                       "H5Fcreate", what),
              H5Fclose);
  {
    Handle transfer(check_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate", what), H5Pclose);
    check_status(H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio",
                 what);
    Slab slab = slab_without_transfer;
    slab.transfer = transfer.get();

    Handle group(check_id(H5Gcreate2(file.get(), "particles", H5P_DEFAULT, H5P_DEFAULT,
                                     H5P_DEFAULT),
                          "H5Gcreate2", "group /particles in " + file_name),
                 H5Gclose);
    const hid_t g = group.get();
    const std::size_t n = particles.size();
    write_dataset(g, "id", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, particles.id.data(), slab);
    write_dataset(g, "position", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3,
                  particles.position.data(), slab);
    write_dataset(g, "velocity", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3,
                  particles.velocity.data(), slab);
    write_dataset(g, "angular_velocity", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3,
                  particles.angular_velocity.data(), slab);
    std::vector<double> orientation(4 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const Quat& q = particles.orientation[i];
      orientation[4 * i + 0] = q.w();
      orientation[4 * i + 1] = q.x();
      orientation[4 * i + 2] = q.y();
      orientation[4 * i + 3] = q.z();
    }
    write_dataset(g, "orientation", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 4, orientation.data(),
                  slab);
    write_dataset(g, "radius", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, particles.radius.data(),
                  slab);
    write_dataset(g, "material", H5T_STD_U32LE, H5T_NATIVE_UINT32, 1, particles.material.data(),
                  slab);
    const std::vector<std::int32_t> owner(n, std::int32_t(rank));
    write_dataset(g, "owner_rank", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, owner.data(), slab);

    // File (root group) attributes; every rank passes the same values.
    const hid_t root = file.get();
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
  }
  check_status(file.close(), "H5Fclose", what);
}

} // namespace

std::string snapshot_file_name(std::int64_t step) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "snapshot_%08lld.h5", static_cast<long long>(step));
  return buffer;
}

void write_snapshot(const std::string& path, const body::Particles& particles,
                    const SnapshotInfo& info, MPI_Comm comm) {
  int rank = 0;
  int ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  if (info.compression < 0 || info.compression > 9) {
    throw InputError("snapshot compression must be a gzip level 0..9, got " +
                     std::to_string(info.compression));
  }

  // Offsets: exclusive scan of the per-rank counts (MPI_Exscan leaves rank 0's undefined).
  const std::int64_t local = std::int64_t(particles.size());
  std::int64_t offset = 0;
  std::int64_t total = 0;
  MPI_Exscan(&local, &offset, 1, MPI_INT64_T, MPI_SUM, comm);
  if (rank == 0) offset = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT64_T, MPI_SUM, comm);

  // Can the destination be written? Rank 0 tries, everyone gets the same answer.
  const std::string tmp = path + ".tmp";
  on_rank_zero(comm, [&] {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      throw InputError("cannot write snapshot '" + path + "': it is a directory");
    }
    std::FILE* probe = std::fopen(tmp.c_str(), "wb");
    if (!probe) {
      throw InputError("cannot write snapshot '" + path + "' (temporary file '" + tmp +
                       "'): " + std::strerror(errno));
    }
    std::fclose(probe);
  });

  Slab slab;
  slab.total = hsize_t(total);
  slab.offset = hsize_t(offset);
  slab.local = hsize_t(local);
  slab.compression = info.compression;

  {
    SilenceHdf5Errors silence;
    try {
      write_hdf5_file(tmp, particles, info, slab, rank, ranks, comm);
    } catch (...) {
      if (rank == 0) std::remove(tmp.c_str());
      throw;
    }
  }

  // Every rank has closed the file: rank 0 publishes it under the final name, then the XDMF.
  MPI_Barrier(comm);
  on_rank_zero(comm, [&] {
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      const int error = errno;
      std::remove(tmp.c_str());
      throw InputError("cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(error));
    }
    const std::string h5_name = std::filesystem::path(path).filename().string();
    detail::write_text_atomically(
        xdmf_path_for(path),
        detail::xdmf_document(detail::xdmf_grid(h5_name, total, info.time, info.step)));
  });
}

SnapshotWriter::SnapshotWriter(std::string dir, MPI_Comm comm) : dir_(std::move(dir)), comm_(comm) {
  on_rank_zero(comm_, [&] {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_, ec)) {
      throw InputError("cannot create snapshot directory '" + dir_ + "': " +
                       (ec ? ec.message() : std::string("not a directory")));
    }
    const std::string probe_path = (fs::path(dir_) / ".granite_write_probe").string();
    std::FILE* probe = std::fopen(probe_path.c_str(), "wb");
    if (!probe) {
      throw InputError("snapshot directory '" + dir_ + "' is not writable: " +
                       std::strerror(errno));
    }
    std::fclose(probe);
    std::remove(probe_path.c_str());
    series_ = detail::scan_snapshot_grids(dir_);
  });
}

std::string SnapshotWriter::write(const body::Particles& particles, const SnapshotInfo& info) {
  const std::filesystem::path h5 = std::filesystem::path(dir_) / snapshot_file_name(info.step);
  write_snapshot(h5.string(), particles, info, comm_);
  const std::int64_t local = std::int64_t(particles.size());
  std::int64_t total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT64_T, MPI_SUM, comm_);
  on_rank_zero(comm_, [&] {
    series_[info.step] =
        detail::xdmf_grid(h5.filename().string(), total, info.time, info.step);
    detail::write_text_atomically((std::filesystem::path(dir_) / "series.xdmf").string(),
                                  detail::xdmf_series_document(series_));
  });
  return h5.string();
}

} // namespace granite::io
