// Restart checkpoints. Writing is collective with MPI-IO, like a snapshot. Reading: rank 0
// validates the file and reads the run state (and broadcasts both); then every rank reads the
// rows it needs with the serial driver, independently, so that a damaged file can never leave
// one rank waiting in a collective HDF5 call; the ranks then agree on the first error.
#include "granite/io/checkpoint.hpp"

#include "hdf5_util.hpp"
#include "particle_datasets_hdf5.hpp"

#include "granite/core/build_info.hpp"
#include "granite/core/error.hpp"
#include "granite/parallel/body_record.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <optional>
#include <string_view>
#include <system_error>

namespace granite::io {
namespace {

using detail::check_id;
using detail::check_status;
using detail::expect_shape;
using detail::Handle;
using detail::open_dataset;
using detail::open_file;
using detail::read_rows;
using detail::shape_of;
using detail::Slab;

constexpr const char* kFormatName = "granite-checkpoint";
// 2: /particles/group, /fixes/<name>; 3: /particles/fixed; 4: /particles/neighbour_reference;
// 5: /engine/<name> (format 4 kept the engine's state under /fixes, read back as such);
// 6: the root attribute largest_radius (before: found by reading every radius);
// 7: /particles/shape (before: every particle a sphere);
// 8: /contact_history rows (before: /engine/contact_history, text gathered from every rank)
constexpr std::int32_t kFormatVersion = 8;

// The first format that stores a field's dataset; read from an earlier one, the field keeps
// its ParticleInit default.
std::int32_t first_format_of(std::string_view field) { return field == "shape" ? 7 : 0; }
constexpr std::int32_t kOldestVersionRead = 4;

// --- the /particles rows read back --------------------------------------------------------------

// Rows of /particles: every checkpointed field of a row in a ParticleInit (the derived fields are
// recomputed when it is added), and the rank that wrote it.
struct Rows {
  std::vector<body::ParticleInit> bodies;
  std::vector<std::int32_t> owner_rank;
};

// --- writing -------------------------------------------------------------------------------------

void write_file(const std::string& file_name, const std::string& path,
                const body::Particles& particles, const CheckpointState& state,
                const comm::Communicator& comm) {
  const int rank = comm.rank();
  const int ranks = comm.size();
  Slab slab = detail::slab_of(particles.size(), comm);
  const std::int64_t local = std::int64_t(slab.local), total = std::int64_t(slab.total);
  // The header dataset has `ranks` rows on every rank; only rank 0's values are written.
  std::vector<std::int64_t> rank_counts = comm::gather(local, comm);
  rank_counts.resize(std::size_t(ranks), 0);
  // What a --from on another decomposition needs before reading any row (0 without particles).
  const double largest_radius = comm::max(particles.max_radius(), comm);
  Slab history_slab = detail::slab_of(state.history_rows(), comm);
  std::vector<std::int64_t> history_counts = comm::gather(std::int64_t(history_slab.local), comm);
  history_counts.resize(std::size_t(ranks), 0);

  const std::string what = "file " + file_name;
  detail::write_parallel_file(file_name, path, comm, [&](hid_t root) {
    Handle transfer(check_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate", what), H5Pclose);
    check_status(H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio", what);

    // A group is created on every rank (collective metadata): the ranks agree that it exists.
    auto make_group = [&](const char* name) {
      const hid_t id = H5Gcreate2(root, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      detail::agree(&comm, id < 0
                               ? detail::failure_text("H5Gcreate2", std::string("group /") + name +
                                                                        " in " + file_name)
                               : std::string());
      return id;
    };
    Handle group(make_group("particles"), H5Gclose);
    slab.checksum = true;
    slab.transfer = transfer.get();
    detail::write_particle_datasets(group.get(), particles, body::kCheckpointed, rank, slab);

    // /state: identical on every rank, so rank 0 writes all of it.
    Handle state_group(make_group("state"), H5Gclose);
    auto write_state = [&](const char* name, hid_t file_type, hid_t memory_type, std::size_t size,
                           const void* data) {
      Slab whole;
      whole.total = hsize_t(size);
      whole.local = rank == 0 ? hsize_t(size) : 0;
      whole.checksum = true;
      whole.transfer = transfer.get();
      whole.comm = &comm;
      detail::write_dataset(state_group.get(), "/state", name, file_type, memory_type, 1, data,
                            whole);
    };
    write_state("rank_counts", H5T_STD_I64LE, H5T_NATIVE_INT64, rank_counts.size(),
                rank_counts.data());
    write_state("global_anchors", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, state.global_anchors.size(),
                state.global_anchors.data());
    write_state("config", H5T_STD_U8LE, H5T_NATIVE_UCHAR, state.config.size(), state.config.data());

    // /contact_history: each rank's entries as rows, like /particles.
    if (state.has_history) {
      write_state("history_rank_counts", H5T_STD_I64LE, H5T_NATIVE_INT64, history_counts.size(),
                  history_counts.data());
      Handle history(make_group("contact_history"), H5Gclose);
      history_slab.checksum = true;
      history_slab.transfer = transfer.get();
      // One dataset at a time, each a column of the rows formed block by block as it is written.
      const auto write_column = [&](const char* name, hid_t file_type, hid_t memory_type,
                                    hsize_t columns, auto field) {
        using T = std::decay_t<decltype(*field(HistoryRow{}))>;
        std::vector<T> block;
        const auto rows_of = [&](std::size_t first, std::size_t count) {
          block.resize(std::size_t(columns) * count);
          for (std::size_t i = 0; i < count; ++i) {
            const HistoryRow row = state.history_row_at(first + i);
            std::copy(field(row), field(row) + columns, &block[std::size_t(columns) * i]);
          }
          return static_cast<const void*>(block.data());
        };
        detail::write_dataset(history.get(), "/contact_history", name, file_type, memory_type,
                              columns, rows_of, history_slab);
      };
      write_column("first", H5T_STD_I64LE, H5T_NATIVE_INT64, 1,
                   [](const HistoryRow& r) { return &r.first; });
      write_column("second", H5T_STD_I64LE, H5T_NATIVE_INT64, 1,
                   [](const HistoryRow& r) { return &r.second; });
      write_column("ordinal", H5T_STD_U32LE, H5T_NATIVE_UINT32, 1,
                   [](const HistoryRow& r) { return &r.ordinal; });
      write_column("impulse", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3,
                   [](const HistoryRow& r) { return &r.impulse[0]; });
      write_column("torque", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3,
                   [](const HistoryRow& r) { return &r.torque[0]; });
    }

    // /fixes/<name>: the restart state of each end-of-step object; /engine/<name>: the
    // engine's (scenario/engine_state.hpp); as bytes, the same on every rank.
    const auto write_named = [&](const char* group_name,
                                 const std::map<std::string, std::string>& named) {
      Handle group(make_group(group_name), H5Gclose);
      for (const auto& [name, bytes] : named) {
        Slab whole;
        whole.total = hsize_t(bytes.size());
        whole.local = rank == 0 ? hsize_t(bytes.size()) : 0;
        whole.checksum = true;
        whole.transfer = transfer.get();
        whole.comm = &comm;
        std::string path(1, '/');
        path.append(group_name);
        detail::write_dataset(group.get(), path.c_str(), name.c_str(), H5T_STD_U8LE,
                              H5T_NATIVE_UCHAR, 1, bytes.data(), whole);
      }
    };
    write_named("fixes", state.fixes);
    write_named("engine", state.engine);

    const std::int32_t ranks32 = ranks;
    detail::write_string_attribute(root, "format", kFormatName);
    detail::write_attribute(root, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT32,
                            &kFormatVersion);
    detail::write_attribute(root, "step", H5T_STD_I64LE, H5T_NATIVE_INT64, &state.step);
    detail::write_attribute(root, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &state.time);
    detail::write_attribute(root, "ranks", H5T_STD_I32LE, H5T_NATIVE_INT32, &ranks32);
    detail::write_attribute(root, "particle_count", H5T_STD_I64LE, H5T_NATIVE_INT64, &total);
    detail::write_attribute(root, "largest_radius", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                            &largest_radius);
    detail::write_string_attribute(root, "granite_version", build_info::version());
    detail::write_string_attribute(root, "git_commit", build_info::git_commit());
  });
}

// --- reading -------------------------------------------------------------------------------------

// A whole 1-D dataset, e.g. /state/<name>.
template <class Container>
Container read_whole(hid_t file, const std::string& path, hid_t memory_type) {
  Handle dataset = open_dataset(file, path);
  const std::vector<hsize_t> dims = shape_of(dataset.get(), path);
  if (dims.size() != 1) throw InputError("dataset " + path + " is not one-dimensional");
  Container out;
  read_rows(dataset.get(), path, memory_type, 1, 0, dims[0], out);
  return out;
}

template <class Container>
Container read_state(hid_t file, const char* name, hid_t memory_type) {
  return read_whole<Container>(file, std::string("/state/") + name, memory_type);
}

// The names of the links in a group, in the file's name order.
std::vector<std::string> group_members(hid_t file, const char* path) {
  if (H5Lexists(file, path, H5P_DEFAULT) <= 0)
    throw InputError(std::string("missing group ") + path);
  Handle group(check_id(H5Gopen2(file, path, H5P_DEFAULT), "H5Gopen2", path), H5Gclose);
  std::vector<std::string> names;
  auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
  };
  check_status(H5Literate(group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names),
               "H5Literate", path);
  return names;
}

// A scalar numeric root attribute.
template <class T>
T read_attribute(hid_t file, const char* name, hid_t memory_type) {
  if (H5Aexists(file, name) <= 0) throw InputError(std::string("missing attribute ") + name);
  const std::string what = std::string("attribute ") + name;
  Handle attribute(check_id(H5Aopen(file, name, H5P_DEFAULT), "H5Aopen", what), H5Aclose);
  Handle space(check_id(H5Aget_space(attribute.get()), "H5Aget_space", what), H5Sclose);
  if (H5Sget_simple_extent_npoints(space.get()) != 1) {
    throw InputError(std::string("attribute ") + name + " is not a scalar");
  }
  T value{};
  check_status(H5Aread(attribute.get(), memory_type, &value), "H5Aread", what);
  return value;
}

// The root attribute `format` if it is a scalar variable-length string, else "".
std::string read_format(hid_t file) {
  if (H5Aexists(file, "format") <= 0) return "";
  Handle attribute(check_id(H5Aopen(file, "format", H5P_DEFAULT), "H5Aopen", "format"), H5Aclose);
  Handle type(check_id(H5Aget_type(attribute.get()), "H5Aget_type", "format"), H5Tclose);
  Handle space(check_id(H5Aget_space(attribute.get()), "H5Aget_space", "format"), H5Sclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) <= 0 ||
      H5Sget_simple_extent_npoints(space.get()) != 1) {
    return "";
  }
  Handle memory_type(check_id(H5Tcopy(H5T_C_S1), "H5Tcopy", "format"), H5Tclose);
  check_status(H5Tset_size(memory_type.get(), H5T_VARIABLE), "H5Tset_size", "format");
  check_status(H5Tset_cset(memory_type.get(), H5T_CSET_UTF8), "H5Tset_cset", "format");
  char* text = nullptr;
  check_status(H5Aread(attribute.get(), memory_type.get(), &text), "H5Aread", "format");
  std::string out = text ? text : "";
  H5free_memory(text);
  return out;
}

// The datasets of /contact_history and their columns.
constexpr std::pair<const char*, hsize_t> kHistoryDatasets[] = {
    {"first", 1}, {"second", 1}, {"ordinal", 1}, {"impulse", 3}, {"torque", 3}};

// Rows [first, first + count) of /contact_history.
std::vector<HistoryRow> read_history_rows(hid_t file, hsize_t first, hsize_t count) {
  const auto read = [&](const char* name, hid_t memory_type, hsize_t columns, auto& out) {
    const std::string path = std::string("/contact_history/") + name;
    Handle dataset = open_dataset(file, path);
    read_rows(dataset.get(), path, memory_type, columns, first, count, out);
  };
  std::vector<std::int64_t> a, b;
  std::vector<std::uint32_t> ordinal;
  std::vector<double> impulse, torque;
  read("first", H5T_NATIVE_INT64, 1, a);
  read("second", H5T_NATIVE_INT64, 1, b);
  read("ordinal", H5T_NATIVE_UINT32, 1, ordinal);
  read("impulse", H5T_NATIVE_DOUBLE, 3, impulse);
  read("torque", H5T_NATIVE_DOUBLE, 3, torque);
  std::vector<HistoryRow> rows(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].first = a[i];
    rows[i].second = b[i];
    rows[i].ordinal = ordinal[i];
    std::copy(&impulse[3 * i], &impulse[3 * i] + 3, rows[i].impulse);
    std::copy(&torque[3 * i], &torque[3 * i] + 3, rows[i].torque);
  }
  return rows;
}

// What rank 0 learns about the file and broadcasts.
struct Header {
  std::vector<std::int64_t> rank_counts;          // its size is the writer's rank count
  std::vector<std::int64_t> history_rank_counts;  // format 8 on, with a history
  std::int64_t history_total = 0;
  std::int64_t total = 0;
  std::optional<double> largest_radius;  // format 6 on
  CheckpointState state;
};

Header read_header(const std::string& path) {
  Handle file = open_file(path);
  const hid_t root = file.get();
  const std::string format = read_format(root);
  if (format == "granite-snapshot")  // a common mix-up: say what is missing
    throw InputError("a Granite snapshot, not a Granite checkpoint (it does not store masses, "
                     "external forces, global-body positions or the warm-start history; give "
                     "the run's checkpoint.h5, written every output.checkpoint_interval)");
  if (format != kFormatName) {
    throw InputError("not a Granite checkpoint (format " +
                     (format.empty() ? std::string("attribute missing") : "'" + format + "'") +
                     ")");
  }
  const auto version = read_attribute<std::int32_t>(root, "format_version", H5T_NATIVE_INT32);
  if (version < kOldestVersionRead || version > kFormatVersion) {
    throw InputError("unsupported checkpoint format version " + std::to_string(version) +
                     " (this build reads versions " + std::to_string(kOldestVersionRead) + " to " +
                     std::to_string(kFormatVersion) + ")");
  }
  Header header;
  header.state.step = read_attribute<std::int64_t>(root, "step", H5T_NATIVE_INT64);
  header.state.time = read_attribute<double>(root, "time", H5T_NATIVE_DOUBLE);
  header.total = read_attribute<std::int64_t>(root, "particle_count", H5T_NATIVE_INT64);
  if (version >= 6)
    header.largest_radius = read_attribute<double>(root, "largest_radius", H5T_NATIVE_DOUBLE);
  const auto ranks = read_attribute<std::int32_t>(root, "ranks", H5T_NATIVE_INT32);
  header.rank_counts = read_state<std::vector<std::int64_t>>(root, "rank_counts", H5T_NATIVE_INT64);
  header.state.global_anchors =
      read_state<std::vector<double>>(root, "global_anchors", H5T_NATIVE_DOUBLE);
  header.state.config = read_state<std::string>(root, "config", H5T_NATIVE_UCHAR);
  for (const std::string& name : group_members(root, "/fixes"))
    header.state.fixes[name] = read_whole<std::string>(root, "/fixes/" + name, H5T_NATIVE_UCHAR);
  if (version >= 5) {
    for (const std::string& name : group_members(root, "/engine"))
      header.state.engine[name] =
          read_whole<std::string>(root, "/engine/" + name, H5T_NATIVE_UCHAR);
  } else {  // format 4: the engine's state as the state of two fixes of the same names
    for (const char* name : {"contact_history", "neighbour_lists"}) {
      const auto it = header.state.fixes.find(name);
      if (it == header.state.fixes.end()) continue;
      header.state.engine[name] = std::move(it->second);
      header.state.fixes.erase(it);
    }
  }

  const bool counts_valid = std::all_of(header.rank_counts.begin(), header.rank_counts.end(),
                                        [](std::int64_t n) { return n >= 0; }) &&
                            std::accumulate(header.rank_counts.begin(), header.rank_counts.end(),
                                            std::int64_t(0)) == header.total;
  if (header.total < 0 || ranks < 1 || header.rank_counts.size() != std::size_t(ranks) ||
      !counts_valid) {
    throw InputError("inconsistent sizes: particle_count " + std::to_string(header.total) +
                     ", ranks " + std::to_string(ranks) + " and /state/rank_counts disagree");
  }
  if (version >= 8 && H5Lexists(root, "/contact_history", H5P_DEFAULT) > 0) {
    header.state.has_history = true;
    header.history_rank_counts =
        read_state<std::vector<std::int64_t>>(root, "history_rank_counts", H5T_NATIVE_INT64);
    header.history_total = std::accumulate(header.history_rank_counts.begin(),
                                           header.history_rank_counts.end(), std::int64_t(0));
    if (header.history_rank_counts.size() != std::size_t(ranks) ||
        std::any_of(header.history_rank_counts.begin(), header.history_rank_counts.end(),
                    [](std::int64_t n) { return n < 0; }))
      throw InputError("inconsistent sizes: /state/history_rank_counts and ranks " +
                       std::to_string(ranks) + " disagree");
    for (const auto& [name, columns] : kHistoryDatasets) {
      const std::string dataset_path = std::string("/contact_history/") + name;
      Handle dataset = open_dataset(root, dataset_path);
      expect_shape(dataset.get(), dataset_path, hsize_t(header.history_total), columns);
    }
  }
  detail::for_each_particle_dataset(
      body::kCheckpointed, [&](const char* name, auto, std::size_t columns) {
        if (version < first_format_of(name)) return;
        const std::string dataset_path = std::string("/particles/") + name;
        Handle dataset = open_dataset(root, dataset_path);
        expect_shape(dataset.get(), dataset_path, hsize_t(header.total), hsize_t(columns));
      });
  return header;
}

// Reads rows [first, first + count) of /particles from an open file.
class RowReader {
public:
  explicit RowReader(const std::string& path) : file_(open_file(path)) {}
  Rows read(hsize_t first, hsize_t count) const {
    Rows rows;
    rows.bodies.resize(std::size_t(count));
    body::for_each_particle_field([&](const auto& field) {
      using Layout = typename std::decay_t<decltype(field)>::Layout;
      using Scalar = typename Layout::Scalar;
      if (!field.has(body::kCheckpointed)) return;
      // A field newer than the file (read_header has checked it is there from its format on).
      if (first_format_of(field.name) > 0 && !exists(field.name)) return;
      std::vector<Scalar> flat;
      read(field.name, detail::ScalarType<Scalar>::memory(), Layout::components, first, count,
           flat);
      for (std::size_t i = 0; i < rows.bodies.size(); ++i)
        rows.bodies[i].*field.source = Layout::unflatten(&flat[i * Layout::components]);
    });
    read(detail::kOwnerRank, detail::ScalarType<std::int32_t>::memory(), 1, first, count,
         rows.owner_rank);
    return rows;
  }
  std::vector<double> radii(hsize_t first, hsize_t count) const {
    std::vector<double> out;
    read("radius", H5T_NATIVE_DOUBLE, 1, first, count, out);
    return out;
  }

private:
  bool exists(const char* name) const {
    return H5Lexists(file_.get(), (std::string("/particles/") + name).c_str(), H5P_DEFAULT) > 0;
  }
  template <class Container>
  void read(const char* name, hid_t memory_type, hsize_t columns, hsize_t first, hsize_t count,
            Container& out) const {
    const std::string path = std::string("/particles/") + name;
    Handle dataset = open_dataset(file_.get(), path);
    read_rows(dataset.get(), path, memory_type, columns, first, count, out);
  }

  Handle file_;
};

void broadcast(Header& header, const comm::Communicator& comm) {
  comm::broadcast_container(header.rank_counts, comm);
  comm::broadcast_container(header.history_rank_counts, comm);
  comm::broadcast(header.history_total, comm);
  comm::broadcast(header.state.has_history, comm);
  comm::broadcast_container(header.state.global_anchors, comm);
  for (std::map<std::string, std::string>* named : {&header.state.fixes, &header.state.engine}) {
    std::uint64_t count = named->size();
    comm::broadcast(count, comm);
    auto entry = named->begin();
    for (std::uint64_t k = 0; k < count; ++k) {
      std::string name = comm.is_root() ? entry->first : std::string();
      std::string bytes = comm.is_root() ? entry->second : std::string();
      comm::broadcast_container(name, comm);
      comm::broadcast_container(bytes, comm);
      if (comm.is_root())
        ++entry;
      else
        (*named)[name] = std::move(bytes);
    }
  }
  comm::broadcast_container(header.state.config, comm);
  comm::broadcast(header.total, comm);
  comm::broadcast(header.state.step, comm);
  comm::broadcast(header.state.time, comm);
}

std::string cannot_read(const std::string& path, const std::string& why) {
  return "cannot read checkpoint '" + path + "': " + why;
}

}  // namespace

void write_checkpoint(const std::string& path, const body::Particles& particles,
                      const CheckpointState& state, const comm::Communicator& comm) {
  const int rank = comm.rank();
  const std::string tmp = path + ".tmp";
  std::uint64_t state_bytes = 0;
  for (const auto* named : {&state.fixes, &state.engine})
    for (const auto& [name, bytes] : *named) state_bytes += bytes.size();
  state_bytes += 68 * std::uint64_t(comm::sum(std::int64_t(state.history_rows()), comm));  // rows
  detail::probe_destination(
      path, "checkpoint", comm,
      detail::expected_file_bytes(std::uint64_t(comm::sum(std::int64_t(particles.size()), comm)),
                                  body::kCheckpointed) +
          state_bytes + state.config.size());
  {
    detail::SilenceHdf5Errors silence;
    try {
      write_file(tmp, path, particles, state, comm);
    } catch (...) {
      if (rank == 0) std::remove(tmp.c_str());
      throw;
    }
  }
  // Every rank has closed the file: rank 0 publishes it under the final name.
  on_root_collectively(comm, [&] { detail::rename_into_place(tmp, path); });
}

CheckpointState read_checkpoint(const std::string& path, body::Particles& particles,
                                const std::function<int(const Vec3&)>& owner,
                                const comm::Communicator& comm, CheckpointRows rows_wanted) {
  const int rank = comm.rank();
  const int ranks = comm.size();
  detail::SilenceHdf5Errors silence;

  Header header;
  comm::on_root(comm, [&] {
    try {
      header = read_header(path);
    } catch (const std::exception& error) {
      throw InputError(cannot_read(path, error.what()));
    }
  });
  broadcast(header, comm);

  // The same decomposition: this rank's own rows. Otherwise: its share of the rows, each body
  // then sent to its owner.
  const bool same_ranks =
      rows_wanted == CheckpointRows::as_written && header.rank_counts.size() == std::size_t(ranks);
  // This rank's rows of a table written with `counts` rows per rank (total `total`).
  const auto rows_of = [&](const std::vector<std::int64_t>& counts, std::int64_t total) {
    if (same_ranks)
      return std::pair(std::accumulate(counts.begin(), counts.begin() + rank, std::int64_t(0)),
                       counts[std::size_t(rank)]);
    const std::int64_t first = total * rank / ranks;
    return std::pair(first, total * (rank + 1) / ranks - first);
  };
  const auto [first_row, row_count] = rows_of(header.rank_counts, header.total);
  const auto [first_history, history_count] =
      header.state.has_history ? rows_of(header.history_rank_counts, header.history_total)
                               : std::pair(std::int64_t(0), std::int64_t(0));

  // The rows read here, checked as they are added (add_exact): this rank's own straight into
  // `particles` (same_ranks), otherwise into `share` for their owners.
  const std::size_t size_before = particles.size();
  body::Particles share;
  body::Particles& into = same_ranks ? particles : share;
  std::string message;
  try {
    const RowReader reader(path);
    for (std::int64_t first = first_row; first < first_row + row_count;
         first += std::int64_t(detail::kChunkRows)) {
      const auto count =
          std::min<std::int64_t>(std::int64_t(detail::kChunkRows), first_row + row_count - first);
      const Rows rows = reader.read(hsize_t(first), hsize_t(count));
      for (std::size_t i = 0; i < std::size_t(count); ++i) {
        if (same_ranks && rows.owner_rank[i] != rank) {
          throw InputError("inconsistent owner_rank " + std::to_string(rows.owner_rank[i]) +
                           " in row " + std::to_string(first + std::int64_t(i)) + " (expected " +
                           std::to_string(rank) + ")");
        }
        into.add_exact(rows.bodies[i]);
      }
    }
    if (history_count > 0) {
      Handle file = open_file(path);
      header.state.history =
          read_history_rows(file.get(), hsize_t(first_history), hsize_t(history_count));
    }
  } catch (const std::exception& error) {
    message = cannot_read(path, error.what());
  }
  try {
    comm::throw_if_any_failed(message, comm);  // before the exchange: every rank or none
  } catch (const InputError&) {
    particles.remove_if([&](std::size_t i) { return i >= size_before; });
    throw;
  }
  header.state.rows_read = row_count;
  header.state.history_rows_read = history_count;
  header.state.history_as_written = same_ranks;
  if (same_ranks) return header.state;
  std::vector<std::vector<parallel::BodyRecord>> send(static_cast<std::size_t>(ranks));
  for (std::size_t i = 0; i < share.size(); ++i) {
    const int to = owner(share.position[i]);
    if (to < 0 || to >= ranks) throw std::logic_error("read_checkpoint: owner out of range");
    send[std::size_t(to)].push_back(parallel::pack(share, i));
  }
  // Shares are consecutive row ranges in rank order, so what arrives is in file order.
  for (const parallel::BodyRecord& record : comm::all_to_all(send, comm))
    parallel::unpack(record, particles);
  return header.state;
}

double checkpoint_largest_radius(const std::string& path, const comm::Communicator& comm) {
  detail::SilenceHdf5Errors silence;
  double largest = 0.0;
  comm::on_root(comm, [&] {
    try {
      const Header header = read_header(path);
      if (header.largest_radius) {
        largest = *header.largest_radius;
        return;
      }
      const RowReader reader(path);  // format 5: every radius
      for (std::int64_t first = 0; first < header.total;
           first += std::int64_t(detail::kChunkRows)) {
        const auto count =
            std::min<std::int64_t>(std::int64_t(detail::kChunkRows), header.total - first);
        for (const double r : reader.radii(hsize_t(first), hsize_t(count)))
          largest = std::max(largest, r);
      }
    } catch (const std::exception& error) {
      throw InputError(cannot_read(path, error.what()));
    }
  });
  comm::broadcast(largest, comm);
  return largest;
}

}  // namespace granite::io
