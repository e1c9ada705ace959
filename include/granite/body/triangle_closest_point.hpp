#pragma once
// The point of a triangle closest to a point, with the Voronoi region of the triangle it lies
// in: the face's interior, one of the three edges or one of the three corners (Ericson,
// Real-Time Collision Detection, §5.1.5). The mesh contacts attribute a contact to the mesh
// feature this region names.
#include "granite/core/types.hpp"

#include <cstdint>

namespace granite::body {

/// Where on triangle (a, b, c) the closest point lies. Local edge k runs from corner k to
/// corner k + 1 (mod 3): edge 0 = ab, edge 1 = bc, edge 2 = ca.
enum class TriangleRegion : std::uint8_t { face, edge0, edge1, edge2, vertex0, vertex1, vertex2 };

inline bool is_edge(TriangleRegion r) {
  return r == TriangleRegion::edge0 || r == TriangleRegion::edge1 || r == TriangleRegion::edge2;
}
inline bool is_vertex(TriangleRegion r) { return r >= TriangleRegion::vertex0; }
/// The local edge (0..2) of an edge region, the corner (0..2) of a vertex region.
inline int local_index(TriangleRegion r) {
  return is_vertex(r) ? int(r) - int(TriangleRegion::vertex0) : int(r) - int(TriangleRegion::edge0);
}

struct TrianglePoint {
  Vec3 point;
  TriangleRegion region;
};

/// The point of triangle (a, b, c) closest to x and its region. A degenerate triangle (zero
/// area) gets the closest point of its edges.
TrianglePoint closest_point_on_triangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace granite::body
