#include "hdf5_util.hpp"

#include "granite/body/particle_fields.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <type_traits>

#include <sys/statvfs.h>
#include <unistd.h>

namespace granite::io::detail {

namespace {
constexpr const char* kSystemMarker = " [system: ";
}  // namespace

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
  if (detail.empty()) detail = "no HDF5 error detail";
  // An MPI-IO failure: the MPI library's error string (e.g. the system error) is an entry of
  // its own; append it as " [system: ...]".
  std::string mpi;
  auto find_mpi = [](unsigned, const H5E_error2_t* error, void* client) -> herr_t {
    auto* out = static_cast<std::string*>(client);
    if (out->empty() && error->min_num == H5E_MPIERRSTR && error->desc) *out = error->desc;
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, find_mpi, &mpi);
  while (!mpi.empty() && (mpi.back() == '\n' || mpi.back() == ' ')) mpi.pop_back();
  if (!mpi.empty()) detail += kSystemMarker + mpi + "]";
  return detail;
}

std::string naming_file(const std::string& path, const std::string& failure) {
  if (failure.rfind("cannot write", 0) == 0) return failure;  // names its file already
  // The system error: the MPI library's error string (HDF5 keeps it as an H5E_MPIERRSTR
  // entry) or errno after a failed transfer, appended as " [system: ...]". Some MPI-IO layers
  // report a full disk only as a short write: then the free space tells.
  const auto at = failure.find(kSystemMarker);
  std::string system;
  if (at != std::string::npos) {
    system = failure.substr(at + std::strlen(kSystemMarker));
    if (!system.empty() && system.back() == ']') system.pop_back();
  } else {
    std::error_code ec;
    const auto space = std::filesystem::space(std::filesystem::path(path).parent_path().empty()
                                                  ? std::filesystem::path(".")
                                                  : std::filesystem::path(path).parent_path(),
                                              ec);
    system = !ec && space.available < (1u << 20)
                 ? std::string(std::strerror(ENOSPC)) + " (" + std::to_string(space.available) +
                       " bytes free)"
                 : std::string("I/O error");
  }
  return "cannot write '" + path + "': " + system + " (" + failure.substr(0, at) + ")";
}

std::string failure_text(const char* call, const std::string& what) {
  return std::string("HDF5 ") + call + " failed (" + what + "): " + hdf5_error_detail();
}

void hdf5_failure(const char* call, const std::string& what) {
  throw std::runtime_error(failure_text(call, what));
}

void agree(const comm::Communicator* comm, const std::string& failure) {
  const std::string first = comm ? comm::first_failure(failure, *comm) : failure;
  if (!first.empty()) throw IoFailure(first);
}

void write_attribute(hid_t object, const char* name, hid_t file_type, hid_t memory_type,
                     const void* value, hsize_t count) {
  const std::string what = std::string("attribute ") + name;
  Handle space(count == 0
                   ? check_id(H5Screate(H5S_SCALAR), "H5Screate", what)
                   : check_id(H5Screate_simple(1, &count, nullptr), "H5Screate_simple", what),
               H5Sclose);
  Handle attribute(
      check_id(H5Acreate2(object, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
               "H5Acreate2", what),
      H5Aclose);
  check_status(H5Awrite(attribute.get(), memory_type, value), "H5Awrite", what);
}

void write_string_attribute(hid_t object, const char* name, const std::string& value) {
  const std::string what = std::string("attribute ") + name;
  Handle type(check_id(H5Tcopy(H5T_C_S1), "H5Tcopy", what), H5Tclose);
  check_status(H5Tset_size(type.get(), H5T_VARIABLE), "H5Tset_size", what);
  check_status(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset", what);
  const char* pointer = value.c_str();
  write_attribute(object, name, type.get(), type.get(), &pointer);
}

void write_dataset(hid_t group, const char* group_path, const char* name, hid_t file_type,
                   hid_t memory_type, hsize_t columns, const void* data, const Slab& slab) {
  const std::size_t row_bytes = H5Tget_size(memory_type) * columns;
  write_dataset(
      group, group_path, name, file_type, memory_type, columns,
      [&](std::size_t first, std::size_t) {
        return static_cast<const void*>(static_cast<const char*>(data) + first * row_bytes);
      },
      slab);
}

void write_dataset(hid_t group, const char* group_path, const char* name, hid_t file_type,
                   hid_t memory_type, hsize_t columns, const RowSource& rows_of, const Slab& slab) {
  const std::string what = std::string("dataset ") + group_path + "/" + name;
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
    check_status(H5Pset_deflate(create.get(), unsigned(slab.compression)), "H5Pset_deflate", what);
  }
  if (slab.checksum) {
    check_status(H5Pset_fletcher32(create.get()), "H5Pset_fletcher32", what);
  }
  Handle dataset(
      H5Dcreate2(group, name, file_type, file_space.get(), H5P_DEFAULT, create.get(), H5P_DEFAULT),
      H5Dclose);
  agree(slab.comm, dataset.get() < 0 ? failure_text("H5Dcreate2", what) : std::string());
  if (slab.total == 0) return;  // nothing to transfer (the same decision on every rank)

  // The rows go in blocks of slab.block_rows aligned in the file, one collective H5Dwrite each
  // (every rank makes as many calls, those past their rows selecting nothing): with a filter,
  // HDF5 holds every chunk a call writes, compressed, until the call ends, and the blocks bound
  // that to a few MB instead of the rank's whole dataset. The aligned edges split no chunk.
  const hsize_t B = std::max<hsize_t>(slab.block_rows, 1);
  const auto first_block = [&](hsize_t row) { return row / B; };
  const hsize_t own_blocks =
      slab.local > 0 ? first_block(slab.offset + slab.local - 1) - first_block(slab.offset) + 1 : 0;
  const hsize_t blocks =
      slab.comm != nullptr ? hsize_t(comm::max(std::int64_t(own_blocks), *slab.comm)) : own_blocks;
  for (hsize_t b = 0; b < blocks; ++b) {
    std::string failure;
    try {
      const hsize_t lo =
          b == 0 ? slab.offset
                 : std::min((first_block(slab.offset) + b) * B, slab.offset + slab.local);
      const hsize_t hi = std::min((first_block(slab.offset) + b + 1) * B, slab.offset + slab.local);
      const hsize_t rows = b < own_blocks ? hi - lo : 0;
      const hsize_t start[2] = {lo, 0};
      const hsize_t count[2] = {rows, columns};
      const hsize_t memory_dims[2] = {std::max<hsize_t>(rows, 1), columns};
      Handle memory_space(
          check_id(H5Screate_simple(rank, memory_dims, nullptr), "H5Screate_simple", what),
          H5Sclose);
      if (rows > 0) {
        check_status(
            H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
            "H5Sselect_hyperslab", what);
      } else {
        // A rank without rows (in this block) still takes part in the collective transfer,
        // selecting nothing.
        check_status(H5Sselect_none(file_space.get()), "H5Sselect_none", what);
        check_status(H5Sselect_none(memory_space.get()), "H5Sselect_none", what);
      }
      static const double kDummy[9] = {};
      const void* rows_data = rows > 0 ? rows_of(std::size_t(lo - slab.offset), std::size_t(rows))
                                       : static_cast<const void*>(kDummy);
      errno = 0;  // the MPI-IO layer's failed write(2) leaves the system error here
      if (H5Dwrite(dataset.get(), memory_type, memory_space.get(), file_space.get(), slab.transfer,
                   rows_data) < 0) {
        const int error = errno;
        failure = failure_text("H5Dwrite", what);
        if (error != 0 && failure.find(kSystemMarker) == std::string::npos)
          failure += kSystemMarker + std::string(std::strerror(error)) + "]";
      }
    } catch (const std::exception& error) {
      failure = error.what();
    }
    // Agreed after every call (a failure anywhere throws on every rank), so that no rank
    // starts the next collective write alone.
    agree(slab.comm, failure);
  }
}

hid_t create_parallel_file(const std::string& file_name, const comm::Communicator& comm) {
  const std::string what = "file " + file_name;
  Handle access(check_id(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate", what), H5Pclose);
  check_status(H5Pset_fapl_mpio(access.get(), comm.native(), MPI_INFO_NULL), "H5Pset_fapl_mpio",
               what);
  // The 1.8 object format: large attributes (a long config) and readers from HDF5 1.8 on.
  check_status(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_V18),
               "H5Pset_libver_bounds", what);
  check_status(H5Pset_coll_metadata_write(access.get(), true), "H5Pset_coll_metadata_write", what);
  return check_id(H5Fcreate(file_name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                  "H5Fcreate", what);
}

std::uint64_t expected_file_bytes(std::uint64_t rows, unsigned flag) {
  std::uint64_t row = sizeof(std::int32_t);  // owner_rank
  body::for_each_particle_field([&](const auto& field) {
    using Layout = typename std::decay_t<decltype(field)>::Layout;
    if (field.has(flag)) row += Layout::components * sizeof(typename Layout::Scalar);
  });
  return rows * row + (std::uint64_t(64) << 10);
}

void probe_destination(const std::string& path, const char* kind, const comm::Communicator& comm,
                       std::uint64_t expected_bytes) {
  const std::string tmp = path + ".tmp";
  // A destination that cannot be written at all (a directory, a missing parent, no
  // permission) is an input error; a full disk or a failing device an IoFailure.
  std::string input_problem, io_problem;
  if (comm.is_root()) {
    std::error_code ec;
    int fd = std::filesystem::is_directory(path, ec) ? -2 : create_new(tmp);
    int error = errno;
    if (fd >= 0 && ::close(fd) != 0) {
      error = errno;
      fd = -1;
    }
    if (fd == -2) {
      input_problem = std::string("cannot write ") + kind + " '" + path + "': it is a directory";
    } else if (fd < 0) {
      const std::string problem = std::string("cannot write ") + kind + " '" + path +
                                  "' (temporary file '" + tmp + "'): " + std::strerror(error);
      (error == ENOSPC || error == EDQUOT || error == EIO ? io_problem : input_problem) = problem;
    }
    struct statvfs space {};
    if (fd >= 0 && expected_bytes > 0 && ::statvfs(tmp.c_str(), &space) == 0) {
      const std::uint64_t free = std::uint64_t(space.f_bavail) * space.f_frsize;
      if (free < expected_bytes) {
        io_problem = "cannot write '" + tmp + "': " + std::strerror(ENOSPC) + " (the " + kind +
                     " needs about " + std::to_string(expected_bytes) + " bytes, " +
                     std::to_string(free) + " are free)";
        std::remove(tmp.c_str());
      }
    }
  }
  comm::throw_if_any_failed(input_problem, comm);
  on_root_collectively(comm, [&] {
    if (!io_problem.empty()) throw IoFailure(io_problem);
  });
}

Slab slab_of(std::size_t local, const comm::Communicator& comm) {
  const auto mine = std::int64_t(local);
  Slab slab;
  slab.total = hsize_t(comm::sum(mine, comm));
  slab.offset = hsize_t(comm::exclusive_prefix_sum(mine, comm));
  slab.local = hsize_t(mine);
  slab.comm = &comm;
  return slab;
}

// Opens an existing file read-only with the serial driver.
Handle open_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError("no such file");
  if (std::filesystem::is_directory(path, ec)) throw InputError("it is a directory");
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) {
    throw InputError("not a readable HDF5 file (" + detail::hdf5_error_detail() + ")");
  }
  return Handle(file, H5Fclose);
}

Handle open_dataset(hid_t file, const std::string& path) {
  if (H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0) {
    throw InputError("missing dataset " + path);
  }
  return Handle(check_id(H5Dopen2(file, path.c_str(), H5P_DEFAULT), "H5Dopen2", path), H5Dclose);
}

std::vector<hsize_t> shape_of(hid_t dataset, const std::string& path) {
  Handle space(check_id(H5Dget_space(dataset), "H5Dget_space", path), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || rank > 2) throw InputError("dataset " + path + " has an unexpected rank");
  std::vector<hsize_t> dims(std::size_t(rank), 0);
  check_status(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr),
               "H5Sget_simple_extent_dims", path);
  return dims;
}

void expect_shape(hid_t dataset, const std::string& path, hsize_t rows, hsize_t columns) {
  const std::vector<hsize_t> expected =
      columns > 1 ? std::vector<hsize_t>{rows, columns} : std::vector<hsize_t>{rows};
  const std::vector<hsize_t> dims = shape_of(dataset, path);
  if (dims != expected) {
    auto text = [](const std::vector<hsize_t>& d) {
      std::string out = "(";
      for (std::size_t k = 0; k < d.size(); ++k) out += (k ? ", " : "") + std::to_string(d[k]);
      return out + ")";
    };
    throw InputError("dataset " + path + " has shape " + text(dims) + ", expected " +
                     text(expected));
  }
}

}  // namespace granite::io::detail
