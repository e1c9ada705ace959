#pragma once
// Triangle meshes from STL (binary or ASCII) and Wavefront OBJ files: the vertices of `convex`
// particle shapes, later mesh walls. Errors are one InputError line
// "PATH (WHAT): what is wrong", with the line number for text files.
#include "granite/core/types.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace granite::io {

struct TriangleMesh {
  std::vector<Vec3> vertices;  // as read (OBJ: its v lines; STL: 3 per facet, not merged)
  std::vector<std::array<std::int32_t, 3>> triangles;  // indices into vertices
};

/// Reads PATH: a Wavefront OBJ if its name ends in ".obj" (any case), otherwise an STL. An STL
/// is binary if its size is 84 + 50 n for the n its header declares (even if it starts with
/// "solid"), ASCII if it starts with "solid" and holds no NUL byte, else a malformed binary STL.
/// `what` names the file's role in error messages (e.g. "convex shape 'grain'").
///
/// ASCII STL: keywords in any case, the names after solid/endsolid and the facet normals
/// ignored; the structure is strict (facet, outer loop, 3 vertex lines, endloop, endfacet,
/// endsolid; several solids may follow each other), so a truncated file is an error.
/// OBJ: `v x y z` (up to 4 more numbers, w or a colour, ignored) and `f` with `a`, `a/b`,
/// `a/b/c`, `a//c` references, negative ones relative to the last vertex read; a face may only
/// use vertices defined above it; polygons are fan-triangulated; other lines are ignored. An
/// OBJ with vertices but no face gives an empty `triangles` (the caller decides).
/// STL facet normals are ignored; zero-area triangles are kept.
///
/// Throws InputError on a missing, unreadable or empty file, a syntax error, a non-finite
/// coordinate, an out-of-range index, an STL without facets or an OBJ without vertices.
TriangleMesh read_mesh_file(const std::string& path, const std::string& what);

/// Merges vertices that are bitwise equal (STL repeats each vertex once per facet; 0.0 and -0.0
/// stay apart), remapping the triangles; the vertices keep their order of first appearance.
void merge_equal_vertices(TriangleMesh& mesh);

}  // namespace granite::io
