#pragma once
// XDMF 3 text for particle snapshots (private to src/io; see granite/io/snapshot.hpp).
#include "granite/io/atomic_file.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace granite::io::detail {

/// One <Grid> block describing the snapshot `h5_file_name` (a name relative to the XDMF file)
/// with `count` particles: Polyvertex topology, XYZ geometry and the per-particle attributes.
/// With `extra_grids` (complete <Grid> blocks indented by six spaces: the global bodies, the
/// shapes)
/// or `collection` the block is a spatial collection "snapshot" of the particles and those
/// grids (ParaView's reader takes the type of its output, one grid or a collection, from the
/// first time step: a run whose grids come and go must be a collection at every step).
std::string xdmf_grid(const std::string& h5_file_name, std::int64_t count, double time,
                      std::int64_t step, const std::string& extra_grids = "",
                      bool collection = false);
/// A triangle mesh stored in a snapshot: the group (also the grid's name) holding `vertices`
/// (V x 3, float64), `triangles` (T x 3, int64) and one integer cell attribute (T).
struct TriangleGroup {
  const char* name;
  const char* cell_attribute;
  int cell_attribute_bytes;
};
inline constexpr TriangleGroup kShapesGroup{"shapes", "id", 8};
inline constexpr TriangleGroup kGlobalBodiesGroup{"global_bodies", "body", 4};
/// The <Grid> block of such a mesh with `vertices` and `triangles` rows: Triangle topology, XYZ
/// geometry and the cell attribute, every line prefixed by `indent`; "" without triangles (the
/// file then has no such group).
std::string xdmf_triangle_grid(const std::string& h5_file_name, const TriangleGroup& group,
                               std::int64_t vertices, std::int64_t triangles,
                               const std::string& indent);
/// A complete XDMF document holding one grid.
std::string xdmf_document(const std::string& grid);
/// A complete XDMF document with a temporal collection of the grids, in the map's order.
std::string xdmf_series_document(const std::map<std::int64_t, std::string>& grids);
/// The <Grid> blocks of every snapshot_<step>.xdmf in `dir` whose .h5 file exists, by step.
/// Throws InputError if the directory cannot be listed.
std::map<std::int64_t, std::string> scan_snapshot_grids(const std::string& dir);
using io::write_text_atomically;

}  // namespace granite::io::detail
