#pragma once
// Restart checkpoints: every rank's particles, bit for bit, plus the run state, in one HDF5 file.
//
// write_checkpoint() is collective and is written like a snapshot (see snapshot.hpp): each rank
// writes its rows at the offset given by an exclusive scan of the per-rank counts, with
// collective MPI-IO transfers, into `path + ".tmp"`, which is renamed to `path` only after every
// rank has closed it. An unwritable destination is an InputError on every rank.
//
// File layout (format "granite-checkpoint", version 2; version 1 files are refused):
//   /                    attributes format, format_version, step, time, ranks, particle_count,
//                        granite_version, git_commit
//   /particles/<field>   N rows, in rank order (rank 0's bodies first, each rank's in its own
//                        order): every field marked checkpointed in body/particle_fields.hpp
//                        and owner_rank (int32); the table is in docs/output.md
//   /state/rank_counts   rows written by each rank (int64, `ranks` entries)
//   /state/global_anchors, /state/config   (float64; bytes)
//   /fixes/<name>        restart state of the end-of-step object <name> (bytes; may be absent)
//   /engine/<name>       the engine's restart state by name (bytes, scenario/engine_state.hpp)
//   /contact_history/<field>   (format 8 on, with CheckpointState::has_history) the warm-start
//                        history as rows, in rank order like /particles: first, second (int64),
//                        ordinal (uint32), impulse and torque (N × 3 float64);
//                        /state/history_rank_counts the rows each rank wrote
// Every dataset carries a Fletcher32 checksum per chunk, so corrupted data is detected on read.
#include "granite/body/particles.hpp"
#include "granite/comm/communicator.hpp"
#include "granite/core/types.hpp"
#include "granite/solver/contact_history.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace granite::io {

/// One warm-start history entry as a row of /contact_history (solver::HistoryEntry's fields:
/// the contact's key, its impulse and torque impulse in the world frame).
using HistoryRow = solver::HistoryRecord;

/// Run state stored with a checkpoint (must be identical on every rank when writing, but the
/// history rows, which are each rank's own).
struct CheckpointState {
  std::int64_t step = 0;
  double time = 0.0;
  std::vector<double> global_anchors;         // opaque doubles (exact positions of global bodies)
  std::map<std::string, std::string> fixes;   // restart state of each end-of-step object
  std::map<std::string, std::string> engine;  // the engine's (scenario/engine_state.hpp)
  std::string config;                         // the resolved configuration text
  // The warm-start history, if has_history: written, this rank's entries; read, the rows of
  // /contact_history this rank took (history_as_written: the rows it wrote, on as many ranks;
  // otherwise its share of about 1/P of them, which their particles' owners still need).
  bool has_history = false;
  std::vector<HistoryRow> history;
  // Writing may give the rows instead as `history_row(i)`, i < history_count, in key order,
  // formed as the writer needs them (one column at a time: no copy of the whole history).
  std::size_t history_count = 0;
  std::function<HistoryRow(std::size_t)> history_row;
  /// The rows to write: history_count if history_row is set, else history.size().
  std::size_t history_rows() const { return history_row ? history_count : history.size(); }
  HistoryRow history_row_at(std::size_t i) const {
    return history_row ? history_row(i) : history[i];
  }
  bool history_as_written = false;
  // read_checkpoint(): the /particles and /contact_history rows this rank read (not stored).
  std::int64_t rows_read = 0;
  std::int64_t history_rows_read = 0;
};

/// Collective. Writes every rank's particles and `state` to `path` atomically.
void write_checkpoint(const std::string& path, const body::Particles& particles,
                      const CheckpointState& state, const comm::Communicator& comm);

/// Which rows read_checkpoint() gives a rank.
enum class CheckpointRows {
  as_written,  // the rows it wrote when the rank counts match (a restart), else by_position
  by_position  // those whose position owner() gives to it (a new decomposition or domain)
};

/// Collective. Reads the checkpoint at `path` and appends bodies to `particles`:
/// - as_written and the file was written by as many ranks as `comm` has: each rank gets back
///   exactly the rows it wrote, in the same order, bit for bit (`owner` is not called);
/// - otherwise each rank reads its share of the rows (a contiguous range of about N/P rows)
///   and sends each body to owner(position), the rank that takes it (every rank must give the
///   same answer); each rank appends the bodies it receives, in file order, bit for bit.
/// Returns the state (the same on every rank, but rows_read). Any problem with the file
/// (missing, not a Granite checkpoint, truncated, corrupted, inconsistent) is an InputError
/// naming the file, thrown on every rank with the same message; `particles` is then left as it
/// was.
CheckpointState read_checkpoint(const std::string& path, body::Particles& particles,
                                const std::function<int(const Vec3&)>& owner,
                                const comm::Communicator& comm,
                                CheckpointRows rows = CheckpointRows::as_written);

/// Collective. The largest particle radius in the checkpoint at `path` (0 if it has none), read
/// by rank 0 in chunks: a run that takes its particles from another run's checkpoint chooses
/// its decomposition's ghost width with it. Problems with the file as in read_checkpoint().
double checkpoint_largest_radius(const std::string& path, const comm::Communicator& comm);

}  // namespace granite::io
