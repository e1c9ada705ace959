#pragma once
// Narrow phase of convex polyhedra (the box and convex shapes, body/polyhedron.hpp), with the
// conventions of narrow_phase.hpp: body 1 is the first shape named, body 2 the second; the
// normal is a unit vector from body 2 to body 1; gap is the signed distance between the
// surfaces along it; point is the witness point on body 2's surface; a contact is reported if
// gap <= threshold.
//
// - Polyhedron against polyhedron (and against a global box): separating axes (the faces'
//   normals of both, and the cross products of the pairs of edges whose arcs cross on the
//   Gauss map: those that form a face of the Minkowski difference; separating_axes.hpp, in
//   closed form for two boxes). The axis of largest separation decides: above threshold, no
//   contact. A face axis gives a manifold: the other
//   body's most anti-parallel (incident) face clipped against the reference face's side planes
//   (Sutherland–Hodgman), every clipped point within threshold of the reference plane a
//   contact, at most four kept (the deepest, the farthest from it, and the two spanning the
//   largest areas on either side). An edge axis gives one contact: the exact closest points
//   (GJK) of bodies apart, the closest points of the two edges of overlapping ones; so does a
//   face whose clipped incident face has no point within threshold. An edge axis within
//   0.1 rad of the best face's normal gives way to that face's manifold where the manifold
//   holds the overlap (two flat bricks stacked with crossed edges). The separation along an
//   axis is a lower bound of the distance, exact for touching and penetrating bodies.
// - A rounded segment (a capsule; a sphere when its ends coincide) against a polyhedron: the
//   exact distance of the segment to the polyhedron (GJK), minus the radius. If the closest
//   point lies on a face and the normal is that face's, the segment clipped against the face's
//   side planes gives up to two contacts (a capsule lying on a face does not rock). If the
//   segment itself reaches into the polyhedron, separating axes (faces, and the segment's
//   direction crossed with the edge directions) give the penetration.
// - A polyhedron against a half-space: every vertex within threshold, at most four kept as
//   above; inside a hollow cylinder (a drum): every vertex's contacts with the mantle and caps
//   (a convex body's points farthest from an axis or a plane include a vertex); against a
//   solid cylinder: the exact distance (GJK) to the cylinder eroded by a margin δ, minus δ
//   (the cylinder's rims rounded by δ), one contact.
#include "granite/body/global_body.hpp"
#include "granite/body/polyhedron.hpp"
#include "granite/collision/narrow_phase.hpp"

#include <cstddef>
#include <vector>

namespace granite::collision {

/// A convex polyhedron placed in the world at x turned by R: vertices x + R v, face normals
/// R n with offsets n·x + d, edge directions R e; the topology (loops, edges) is the shape's.
struct PlacedPolyhedron {
  const body::ConvexPolyhedron* shape = nullptr;
  std::vector<Vec3> vertices;
  std::vector<Vec3> normals;
  std::vector<double> offsets;
  std::vector<Vec3> edge_directions;  // one per family of parallel edges (capsule axes)
  Vec3 centre = Vec3::Zero();
  double size = 0.0;                          // m, the bounding radius about the centre
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();  // the vertices' bounding box in the world
  Vec3 half_extents = Vec3::Zero();  // a box's, centred on `centre`; zero for any other shape
  // A box's axes (the rotation's columns, the normals of its + faces), beside the rest of the
  // placement: box_axes reads them, the centre and the half extents, and no array.
  Mat3 axes = Mat3::Identity();
  void place(const body::ConvexPolyhedron& polyhedron, const Vec3& x, const Mat3& rotation);
  /// A global box (body/global_body.hpp) as a placed polyhedron.
  void place(const body::Box& box);
  /// A box (separating_axes.hpp: its closed form).
  bool is_box() const { return half_extents[0] > 0.0; }
};

/// The most contacts of one manifold.
constexpr std::size_t kManifoldPoints = 4;
/// The most contacts polyhedron_primitive reports (a drum: mantle and caps at several vertices).
constexpr std::size_t kPolyhedronPrimitiveContacts = 8;

/// Polyhedron a as body 1 against polyhedron b as body 2. Returns the number of contacts.
/// With none, `apart` (if given) is a lower bound of the bodies' distance when one was proven
/// beyond the threshold (the bounding boxes', a separating axis', GJK's), else NaN
/// (PairClearance).
std::size_t polyhedron_polyhedron(const PlacedPolyhedron& a, const PlacedPolyhedron& b,
                                  double threshold, ContactGeometry out[kManifoldPoints],
                                  double* apart = nullptr);

/// The rounded segment (a, b, r) as body 1 against polyhedron p as body 2 (a == b: a sphere).
/// Returns the number of contacts (0 to 2).
std::size_t capsule_polyhedron(const Vec3& a, const Vec3& b, double r, const PlacedPolyhedron& p,
                               double threshold, ContactGeometry out[2]);

/// Polyhedron p as body 1 against one primitive as body 2. Returns the number of contacts.
std::size_t polyhedron_primitive(const PlacedPolyhedron& p, const body::Primitive& primitive,
                                 double threshold,
                                 ContactGeometry out[kPolyhedronPrimitiveContacts]);

/// Polyhedron p against a global body (one primitive or a union): each member's contacts,
/// filtered as sphere_global's (kept_on_union). Writes up to `capacity`, returns their number.
std::size_t polyhedron_global(const PlacedPolyhedron& p, const body::GlobalBody& body,
                              double threshold, ContactGeometry* out, std::size_t capacity);

}  // namespace granite::collision
