#pragma once
// HDF5 particle snapshots with XDMF sidecars (ParaView), written by all ranks into one file.
//
// write_snapshot() is collective over `comm`: every rank contributes the bodies it owns, at the
// offset given by an exclusive scan of the per-rank counts, with collective MPI-IO transfers.
// The file is written as `path + ".tmp"` and renamed to `path` only after every rank has closed
// it, so a run killed mid-write never leaves a truncated file under the final name. The file
// layout (datasets, attributes, units) is documented in docs/output.md.
//
// Errors: a destination that cannot be written (missing or unwritable directory, a path under a
// regular file) is an InputError naming the path, thrown on every rank (rank 0 decides and
// broadcasts). A failing HDF5 call throws std::runtime_error naming the call and the
// library's own message. Every argument except `particles` must be the same on every rank.
#include "granite/body/particles.hpp"
#include "granite/body/shape.hpp"
#include "granite/comm/communicator.hpp"
#include "granite/io/global_body_mesh.hpp"
#include "granite/timestep/contact_record.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace granite::io {

/// Metadata stored with a snapshot (must be identical on every rank).
struct SnapshotInfo {
  double time = 0.0;      // simulated time (s)
  std::int64_t step = 0;  // time-step index
  std::string config;     // the full resolved configuration text (stored verbatim)
  std::array<int, 3> decomposition{1, 1, 1};  // process grid dims (x, y, z)
  int compression = 0;  // gzip level 0 (off) .. 9; anything else is an InputError
  // If set: this rank's part of the global bodies' surfaces (io/global_body_mesh.hpp: the
  // analytic bodies on rank 0, each mesh wall's triangles on the rank that owns them), the
  // parts written one after the other as /global_bodies (vertices, triangles, body) with an
  // XDMF grid "global_bodies" after the particles; the snapshot's XDMF grid is then a spatial
  // collection. Null on every rank or on none.
  const SurfaceMesh* global_bodies = nullptr;
  // If set and not empty (on every rank): the shapes of the particles' `shape` indices. The
  // world-frame surfaces of the shaped particles are then written as /shapes (a triangle mesh,
  // io/shape_surface.hpp) with an XDMF grid "shapes" after the particles and global bodies; a
  // snapshot without shaped particles has neither, but its XDMF grid is still a spatial
  // collection (ParaView needs one type of grid at every time of a series).
  const body::ShapeTable* shapes = nullptr;
  // If set (on every rank): this rank's contacts of the last step, written as /contacts with a
  // snapshot_<step>_contacts.xdmf sidecar (output.contacts).
  const timestep::ContactRecord* contacts = nullptr;
  // Further root attributes (the same on every rank), e.g. what `granite forces` computed.
  std::vector<std::pair<std::string, std::string>> text_attributes;
  std::vector<std::pair<std::string, double>> number_attributes;
};

/// Writes one snapshot to `path` (conventionally *.h5) and its XDMF sidecar next to it (same
/// name with the extension replaced by .xdmf, or appended if there is none). Collective.
void write_snapshot(const std::string& path, const body::Particles& particles,
                    const SnapshotInfo& info, const comm::Communicator& comm);

/// "snapshot_00000042.h5" for step 42 (zero-padded to 8 digits; longer steps are not cut).
std::string snapshot_file_name(std::int64_t step);

/// Rewrites `dir/series.xdmf` (atomically: .tmp + rename) as a temporal collection of every
/// snapshot_<step>.xdmf in `dir` whose .h5 exists, ordered by step. Not collective: call on one
/// rank. Throws InputError if the directory cannot be read or the file cannot be written.
void write_series_xdmf(const std::string& dir);

/// What the run loop calls on its snapshot cadence.
class SnapshotWriter {
public:
  /// Collective. Creates `dir` (and parents) if needed; InputError on every rank if it cannot
  /// be created or written to. Snapshots already in `dir` (e.g. from before a restart) stay
  /// listed in series.xdmf until they are overwritten.
  SnapshotWriter(std::string dir, const comm::Communicator& comm);

  /// Collective. Writes dir/snapshot_<step>.h5 and .xdmf, then (rank 0) rewrites
  /// dir/series.xdmf to list every snapshot in the directory. Returns the .h5 path.
  std::string write(const body::Particles& particles, const SnapshotInfo& info);

  const std::string& directory() const { return dir_; }

private:
  std::string dir_;
  comm::Communicator comm_;
  std::map<std::int64_t, std::string> series_;  // step -> XDMF <Grid> block (rank 0 only)
};

}  // namespace granite::io
