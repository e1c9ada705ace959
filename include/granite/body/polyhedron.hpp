#pragma once
// Convex polyhedra (the `box` and `convex` shapes): vertices, faces and edges in the body frame,
// with the mass properties of the solid by the divergence theorem.
//
// Faces are the hull's planar facets (coplanar triangles merged), each a loop of vertex indices
// counter-clockwise seen from outside, with its outward unit normal n and offset d (n·x = d on
// the face, n·x <= d inside). Edges are listed once each; `edge_directions` holds one unit
// vector per family of parallel edges (a box has 12 edges in 3 families), the axes that the
// separating-axis test crosses with the other body's (collision/polyhedron_contacts.hpp).
#include "granite/body/sphere_union.hpp"
#include "granite/core/types.hpp"

#include <array>
#include <string>
#include <vector>

namespace granite::body {

struct PolyhedronFace {
  Vec3 normal = Vec3::UnitZ();  // outward, unit
  double offset = 0.0;          // n·x on the face
  std::vector<int> loop;        // vertex indices, counter-clockwise about the normal
};

struct ConvexPolyhedron {
  std::vector<Vec3> vertices;
  std::vector<PolyhedronFace> faces;
  std::vector<std::array<int, 2>> edges;       // vertex indices, lower first
  std::vector<std::array<int, 2>> edge_faces;  // the two faces meeting at each edge
  std::vector<Vec3> edge_directions;           // unit, one per family of parallel edges
  std::vector<int> edge_family;                // per edge: its index into edge_directions
  Vec3 box_half_extents = Vec3::Zero();        // box_polyhedron's, centred on the origin; else zero
};

/// The box of the given half extents (> 0), centred on the origin, faces normal to the axes.
ConvexPolyhedron box_polyhedron(const Vec3& half_extents);

/// The convex hull of `points` (Qhull), coplanar facets merged. Throws InputError naming
/// `what` for fewer than 4 points, a point that is not finite, or points that span no volume
/// (all on one plane to within 1e-9 of their extent).
ConvexPolyhedron convex_hull(const std::vector<Vec3>& points, const std::string& what);

/// The solid's mass properties at unit density, exact up to rounding (divergence theorem over
/// the faces' fan triangles: each a tetrahedron with the origin; Eq. in polyhedron.cpp).
MassProperties polyhedron_mass_properties(const ConvexPolyhedron& polyhedron);

/// Moves every vertex and face plane by -shift (the frame's origin to `shift`).
void shift_origin(ConvexPolyhedron& polyhedron, const Vec3& shift);

/// The largest distance of a vertex from the origin.
double bounding_radius(const ConvexPolyhedron& polyhedron);

}  // namespace granite::body
