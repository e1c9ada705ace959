// Parallel HDF5 snapshots: every rank writes its owned bodies into one file with collective
// MPI-IO transfers, at the offset given by an exclusive scan of the per-rank counts.
#include "granite/io/snapshot.hpp"

#include "contact_datasets.hpp"
#include "hdf5_util.hpp"
#include "particle_datasets_hdf5.hpp"
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

// Returns the number of contacts written (0 without info.contacts).
std::int64_t write_hdf5_file(const std::string& file_name, const std::string& path,
                             const body::Particles& particles, const SnapshotInfo& info,
                             const Slab& slab_without_transfer, int rank, int ranks,
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

void write_snapshot(const std::string& path, const body::Particles& particles,
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
  detail::probe_destination(path, "snapshot", comm);

  std::int64_t contacts = 0;
  {
    detail::SilenceHdf5Errors silence;
    try {
      contacts = write_hdf5_file(tmp, path, particles, info, slab, rank, ranks, comm);
    } catch (...) {
      if (rank == 0) std::remove(tmp.c_str());
      throw;
    }
  }

  // Every rank has closed the file: rank 0 publishes it under the final name, then the XDMF.
  io::on_root_collectively(comm, [&] {
    detail::rename_into_place(tmp, path);
    const std::string h5_name = std::filesystem::path(path).filename().string();
    detail::write_text_atomically(
        xdmf_path_for(path), detail::xdmf_document(detail::xdmf_grid(h5_name, total, info.time,
                                                                     info.step, info.extra_grids)));
    if (info.contacts)
      detail::write_text_atomically(detail::contacts_xdmf_path_for(path),
                                    detail::xdmf_contacts_document(h5_name, contacts, info.time,
                                                                   info.step,
                                                                   info.contacts->compatible));
  });
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
  write_snapshot(h5.string(), particles, info, comm_);
  const std::int64_t local = std::int64_t(particles.size());
  const std::int64_t total = comm::sum(local, comm_);
  io::on_root_collectively(comm_, [&] {
    series_[info.step] =
        detail::xdmf_grid(h5.filename().string(), total, info.time, info.step, info.extra_grids);
    detail::write_text_atomically((std::filesystem::path(dir_) / "series.xdmf").string(),
                                  detail::xdmf_series_document(series_));
  });
  return h5.string();
}

}  // namespace granite::io
