#pragma once
// Private helpers shared by the parallel HDF5 writers (snapshot.cpp, checkpoint.cpp): HDF5
// identifiers as RAII handles, HDF5 failures as exceptions naming the call, collective
// row-slab datasets.
#include "granite/comm/collectives.hpp"
#include "granite/io/atomic_file.hpp"
#include "granite/core/error.hpp"

#include <hdf5.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace granite::io::detail {

// Rows per chunk along N: 32768 rows are 256 KiB for a scalar dataset and 1 MiB for the
// N x 4 orientation, i.e. every chunk fits the default 1 MiB chunk cache.
inline constexpr hsize_t kChunkRows = 32768;
// Rows per collective write of a dataset (write_dataset): 8 chunks, 2–19 MB of a rank's rows.
inline constexpr hsize_t kWriteBlockRows = 8 * kChunkRows;

// --- HDF5 error handling -------------------------------------------------------------------

// Turns off HDF5's automatic error-stack printing while in scope (the stack is turned into
// the exception message instead) and restores the caller's handler afterwards.
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
std::string hdf5_error_detail();

// "HDF5 <call> failed (<what>): <detail>".
std::string failure_text(const char* call, const std::string& what);

// Throws std::runtime_error "HDF5 <call> failed (<what>): <detail>".
[[noreturn]] void hdf5_failure(const char* call, const std::string& what);

inline hid_t check_id(hid_t id, const char* call, const std::string& what) {
  if (id < 0) hdf5_failure(call, what);
  return id;
}

inline void check_status(herr_t status, const char* call, const std::string& what) {
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
  // Takes ownership of `id` (closing what it held).
  void adopt(hid_t id) {
    reset();
    id_ = id;
  }
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

// --- writing ---------------------------------------------------------------------------------

// A scalar attribute (count == 0) or a 1-D array attribute of `count` elements.
void write_attribute(hid_t object, const char* name, hid_t file_type, hid_t memory_type,
                     const void* value, hsize_t count = 0);

// Variable-length UTF-8 string attribute (h5py reads it as str).
void write_string_attribute(hid_t object, const char* name, const std::string& value);

// The rows of a dataset of `total` rows that this rank writes.
struct Slab {
  hsize_t total = 0;                     // global number of rows
  hsize_t offset = 0;                    // first row of this rank
  hsize_t local = 0;                     // rows of this rank
  int compression = 0;                   // gzip level, 0 = off
  bool checksum = false;                 // Fletcher32 per chunk (corruption is detected on read)
  hid_t transfer = H5P_DEFAULT;          // collective transfer property list
  hsize_t block_rows = kWriteBlockRows;  // rows per collective write (write_dataset)
  // The ranks writing the file: they agree on a failure before and after every collective
  // transfer (see agree); nullptr for a file of one process.
  const comm::Communicator* comm = nullptr;
};

// Every rank passes its failure ("" = none); if any rank failed, every rank throws IoFailure
// with the lowest failing rank's message — before the next collective call, so that a rank
// that failed alone never leaves the others waiting. Collective if `comm` is set.
void agree(const comm::Communicator* comm, const std::string& failure);

// This rank's rows of a collective write: its first row (exclusive scan of the per-rank
// counts) and the total over ranks. Collective.
Slab slab_of(std::size_t local, const comm::Communicator& comm);

// Creates <group_path>/<name> of shape (total) or (total, columns), chunked along N, and
// writes this rank's rows collectively, in blocks of slab.block_rows. Every rank calls this,
// also with zero local rows.
void write_dataset(hid_t group, const char* group_path, const char* name, hid_t file_type,
                   hid_t memory_type, hsize_t columns, const void* data, const Slab& slab);
// The same with the rows given block by block: rows_of(first, count) points to this rank's
// rows [first, first + count) (local indices) in the memory type, valid until its next call
// (a writer that forms its rows needs memory for one block, not the rank's whole dataset).
using RowSource = std::function<const void*(std::size_t first, std::size_t count)>;
void write_dataset(hid_t group, const char* group_path, const char* name, hid_t file_type,
                   hid_t memory_type, hsize_t columns, const RowSource& rows_of, const Slab& slab);

// Collective. Creates (truncates) `file_name` for parallel writing with the MPI-IO driver and
// the HDF5 1.8 object format (large attributes; readable from HDF5 1.8 on).
hid_t create_parallel_file(const std::string& file_name, const comm::Communicator& comm);

// Collective. Writes a parallel HDF5 file: creates it, calls `contents(file)` (which writes
// its datasets with Slab::comm set, so that the ranks agree around every transfer), injects a
// GRANITE_FAIL_WRITE fault of `fault_path`, and closes it; the ranks agree on every failure
// (an IoFailure on every rank) before the next collective call.
template <class Contents>
void write_parallel_file_unnamed(const std::string& file_name, const std::string& fault_path,
                                 const comm::Communicator& comm, Contents&& contents) {
  const std::string what = "file " + file_name;
  Handle file(-1, H5Fclose);
  std::string failure;
  try {
    file.adopt(create_parallel_file(file_name, comm));
  } catch (const std::exception& error) {
    failure = error.what();
  }
  agree(&comm, failure);
  try {
    contents(file.get());
  } catch (const IoFailure&) {
    throw;  // already agreed on
  } catch (const std::exception& error) {
    failure = error.what();  // a local HDF5 call (attributes, groups): agree before closing
  }
  if (failure.empty()) failure = injected_failure(fault_path);
  agree(&comm, failure);
  agree(&comm, file.close() < 0 ? failure_text("H5Fclose", what) : std::string());
}

// "cannot write '<path>': <system error> (<HDF5 detail>)" for an IoFailure of an HDF5 call.
std::string naming_file(const std::string& path, const std::string& failure);

template <class Contents>
void write_parallel_file(const std::string& file_name, const std::string& fault_path,
                         const comm::Communicator& comm, Contents&& contents) {
  try {
    write_parallel_file_unnamed(file_name, fault_path, comm, contents);
  } catch (const IoFailure& error) {
    throw IoFailure(naming_file(fault_path, error.what()));  // the same on every rank
  }
}

// --- rank-0 decisions ------------------------------------------------------------------------

// Collective. Rank 0 creates `path + ".tmp"` new (create_new: a stale file or a link planted
// there is unlinked, never followed), which the HDF5 file is then written into. If it cannot:
// "cannot write <kind> '<path>' ..." on every rank, an InputError (a directory, a missing
// parent, no permission) or an IoFailure (ENOSPC, EDQUOT, EIO). With `expected_bytes` > 0 it
// also checks that the file system has that much free (statvfs), and if not stops the run as a
// full disk would ("cannot write '<tmp>': No space left on device ..."), before HDF5 starts:
// an ENOSPC in the middle of a parallel HDF5 file's metadata flush at close can leave the
// ranks in different collectives, which no check after the fact can undo.
void probe_destination(const std::string& path, const char* kind, const comm::Communicator& comm,
                       std::uint64_t expected_bytes = 0);

/// The bytes of `rows` particle rows of a snapshot's or checkpoint's datasets (`flag`:
/// body::kSnapshotted or body::kCheckpointed), with owner_rank, plus 64 KiB for the file's
/// metadata: the size probe_destination asks to be free.
std::uint64_t expected_file_bytes(std::uint64_t rows, unsigned flag);

using io::rename_into_place;

// --- reading (serial) -----------------------------------------------------------------------

// Opens an existing file read-only with the serial driver; InputError "no such file", "it is a
// directory" or "not a readable HDF5 file (...)" (the caller names the file).
Handle open_file(const std::string& path);
// The dataset at `path`; InputError "missing dataset PATH".
Handle open_dataset(hid_t file, const std::string& path);
// The dimensions of a 1-D or 2-D dataset; InputError for another rank.
std::vector<hsize_t> shape_of(hid_t dataset, const std::string& path);
// InputError "dataset PATH has shape (...), expected (...)" unless it is (rows) for columns 1
// or (rows, columns).
void expect_shape(hid_t dataset, const std::string& path, hsize_t rows, hsize_t columns);

// Reads `count` rows from `first` of an (N) or (N, columns) dataset into `out`.
template <class Container>
void read_rows(hid_t dataset, const std::string& path, hid_t memory_type, hsize_t columns,
               hsize_t first, hsize_t count, Container& out) {
  out.resize(std::size_t(count * columns));
  if (count == 0) return;
  const int rank = columns > 1 ? 2 : 1;
  const hsize_t start[2] = {first, 0};
  const hsize_t size[2] = {count, columns};
  Handle file_space(check_id(H5Dget_space(dataset), "H5Dget_space", path), H5Sclose);
  check_status(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, size, nullptr),
               "H5Sselect_hyperslab", path);
  Handle memory_space(check_id(H5Screate_simple(rank, size, nullptr), "H5Screate_simple", path),
                      H5Sclose);
  check_status(
      H5Dread(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, out.data()),
      "H5Dread", path);
}

}  // namespace granite::io::detail
