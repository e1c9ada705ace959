#pragma once
// Sphere–triangle-mesh contacts, each attributed to exactly one feature of the mesh (a face, an
// edge or a vertex), so that a sphere on a seam or a shared vertex gets one contact, not two or
// six, and rolls across a tessellated plane as on a plane (issue 40). In the manner of
// LIGGGHTS's active edges and corners, decided by the geometry at query time:
//
// 1. Candidates: the triangles whose boxes are within r + h of the centre (the mesh's AABB
//    tree) and whose planes are. For each, its closest point q to the centre c and the region it
//    lies in (closest_point_on_triangle): the face, an edge or a corner, naming a feature of the
//    mesh. A hit if |c − q| < r + h.
// 2. A face hit is always a contact.
// 3. An edge or vertex hit at q is a contact only if q is a local minimum of the distance from c
//    over the surface: every triangle on that edge, or around that vertex, has its own closest
//    point at q (to within the rounding of the computation, 64 ε × the mesh's length scale).
//    The distance to a triangle is convex, so this is the condition for the feature's Voronoi
//    region. It gives the edge a contact only where it is convex seen from the sphere's side
//    (at a concave or flat edge the faces' own closest points lie inside them: their face
//    contacts cover it), and a vertex one only if no face or edge around it has a closer point
//    (a vertex amid 6 coplanar triangles: one contact, the face's under the sphere or, right
//    over the vertex, the vertex's with the face normal).
//    One triangle speaks for the feature: the lowest-index one whose region names it.
//    The globally closest point always passes, so no sphere within h of the mesh is left
//    without a contact, and a non-manifold edge or vertex needs no special case: all its
//    triangles are asked.
// 4. Normal (from the mesh to the centre), gap and witness point: at a face, ±n_t towards the
//    centre, |n_t·(c − a)| − r and c's projection on the plane; at a flat edge or vertex (the
//    sphere exactly over a seam of coplanar faces, up to the flat angle) the same with that
//    face's plane; at another edge or vertex, (c − q)/|c − q|, |c − q| − r and q. So the normal
//    is the face normal all across a flat seam.
// 5. Contacts that are one (normals within the flat angle and witness points within the flat
//    angle × the centre's distance, plus rounding: a sphere over a seam whose faces both claim
//    it by rounding, or a seam bent by less than the flat angle) keep the smaller gap.
// Contacts with gap < h are kept.
//
// Two-sided: a triangle repels a sphere on either side (the normal points to the centre's side;
// a centre exactly in the plane gets the front normal). A hopper's walls are seen from one
// side, but two-sided walls need no consistent orientation (STL files often have none:
// TriangleMesh::inconsistent_edges()) and no inside, and thin sheets (a baffle, a chute's lip)
// work from both sides. The price: a sphere whose centre crosses a wall within one step (a step
// far too large) is then pushed out on the far side.
#include "granite/collision/ellipsoid_contacts.hpp"
#include "granite/collision/narrow_phase.hpp"
#include "granite/collision/polyhedron_contacts.hpp"
#include "granite/body/triangle_closest_point.hpp"
#include "granite/body/triangle_mesh.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace granite::collision {

// The mesh's geometry is a body's (body/triangle_mesh.hpp, body/triangle_closest_point.hpp).
using body::closest_point_on_triangle;
using body::TriangleMesh;
using body::TriangleRegion;

enum class MeshFeatureKind : std::uint8_t { face, edge, vertex };

struct MeshFeature {
  MeshFeatureKind kind = MeshFeatureKind::face;
  std::int32_t index = -1;  // triangle, edge or vertex index
  friend bool operator==(const MeshFeature&, const MeshFeature&) = default;
};

struct MeshContact {
  ContactGeometry geometry{};  // normal from the mesh to the sphere; point on the mesh
  MeshFeature feature;
  std::int32_t triangle = -1;  // the triangle that gave it (whose region names the feature)
};

/// Reusable storage of one query (no allocation per query once grown).
struct MeshQueryScratch {
  struct Hit {
    std::int32_t triangle = -1;
    TriangleRegion region = TriangleRegion::face;
    Vec3 point = Vec3::Zero();
    double distance = 0.0;
    std::int32_t contact = -1;  // its contact in `contacts` (an ellipsoid's), if computed
  };
  std::vector<Hit> hits;
  std::vector<ContactGeometry> contacts;  // ellipsoid queries': each hit's contact
  std::vector<std::int32_t> edges;        // capsule and polyhedron queries': the edges near them
  std::vector<std::int32_t> vertices;     // polyhedron queries': the vertices near them
  std::vector<MeshContact> found;         // capsule_mesh_contacts': one interior sphere's contacts
};

/// Appends to `out` the contacts of the sphere (centre, radius) with `mesh` whose gap is below
/// `threshold` (≥ 0), in the order of their triangles; returns their number.
std::size_t sphere_mesh_contacts(const TriangleMesh& mesh, const Vec3& centre, double radius,
                                 double threshold, std::vector<MeshContact>& out,
                                 MeshQueryScratch& scratch);
/// The same among given candidate triangles, e.g. a neighbour list's gathered by
/// TriangleMesh::triangles_near with a skin: they must include every triangle within
/// radius + threshold of the centre (those farther are ignored); no repeats.
std::size_t sphere_mesh_contacts(const TriangleMesh& mesh, const Vec3& centre, double radius,
                                 double threshold, std::span<const std::int32_t> candidates,
                                 std::vector<MeshContact>& out, MeshQueryScratch& scratch);
/// The same with storage of its own.
std::vector<MeshContact> sphere_mesh_contacts(const TriangleMesh& mesh, const Vec3& centre,
                                              double radius, double threshold);
/// A point x of a convex body whose inside lies towards `inside` (e.g. its centre) against the
/// mesh, as a sphere of radius 0 within `reach` (≥ threshold: how deep a point pressed through
/// the surface is still seen), but each normal turned towards `inside`'s side and the gap
/// negative where x lies across the surface from it: a polyhedron's vertex pressed into a wall.
std::size_t point_mesh_contacts(const TriangleMesh& mesh, const Vec3& x, const Vec3& inside,
                                double reach, double threshold, std::vector<MeshContact>& out,
                                MeshQueryScratch& scratch);

/// A segment of a body (a capsule's axis, a polyhedron's edge) and a mesh edge closer to
/// parallel than this (|sin θ|) have no contact of their own between their ends: the ends' contacts
/// hold them. Closest points nearer an end than kMeshEndFraction of the length are the end's.
inline constexpr double kMeshParallelSine = 1e-6;
inline constexpr double kMeshEndFraction = 1e-9;

/// The mesh's features that can touch a convex body between their own ends, among the triangles
/// whose boxes meet `box`, each once, in increasing order: into scratch.edges the edges that
/// bend away from the body (convex, boundary or non-manifold: at flat and concave edges the
/// faces' own points are closer), and with `vertices` into scratch.vertices the vertices that
/// are neither flat, concave nor isolated.
void convex_features_near(const TriangleMesh& mesh, const body::Aabb& box, bool vertices,
                          MeshQueryScratch& scratch);

/// Capsule (a, b, r): the segment [a, b] rounded by r) against the mesh, with gap below
/// `threshold`: the contacts of its two end spheres, then, for every convex, boundary or
/// non-manifold edge within reach whose closest point to the segment is interior to the
/// segment (not within 1e-9 of its length of an end) and not parallel to it (|sin θ| ≥ 1e-6),
/// the contact of the sphere (p, r) at that interior point p with that edge, or with the vertex
/// the edge's closest point is at, if the feature rule gives the sphere one there (its first,
/// each feature once). Why these suffice: along the segment the distance to a face is affine
/// (least at an end), to an edge's line or a vertex convex; an interior local minimum of the
/// distance to the surface lies over a feature that bends away from the capsule, and a flat or
/// concave edge's faces hold their own closer points. So a capsule lying on a tessellated plane
/// has the plane's two end contacts, one across a roof's ridge a third at the ridge. Appends to
/// `out`, returns their number.
std::size_t capsule_mesh_contacts(const TriangleMesh& mesh, const Vec3& a, const Vec3& b, double r,
                                  double threshold, std::vector<MeshContact>& out,
                                  MeshQueryScratch& scratch);

/// Convex polyhedron p (placed in the mesh's frame; body 1, the mesh body 2) against the mesh,
/// with gap below `threshold`. Two convex bodies touch at vertex–face, face–vertex or edge–edge
/// pairs, and the mesh is convex wherever it touches a convex body at one point:
/// - each vertex of p as a point (point_mesh_contacts, its inside towards p's centre): a box on
///   a tessellated plane has the plane's contacts, its vertices within threshold;
/// - each mesh vertex that is not flat or concave, within threshold of p's face of largest
///   separation, over that face, with every neighbour farther out along the face's normal: a
///   pyramid's tip under a box's face;
/// - each pair of an edge of p and a convex, boundary or non-manifold mesh edge whose closest
///   points are interior to both (not within 1e-9 of an end) and not parallel (|sin θ| ≥
///   1e-6), if their axis e × m separates p (every vertex beyond p's edge) from the mesh
///   edge's triangles (every corner short of it): a box lying across a ridge.
/// Points pressed in up to p's inradius about its centre are seen. Appends to `out`, returns
/// their number.
std::size_t polyhedron_mesh_contacts(const TriangleMesh& mesh, const PlacedPolyhedron& p,
                                     double threshold, std::vector<MeshContact>& out,
                                     MeshQueryScratch& scratch);

/// Ellipsoid e (in the mesh's frame; body 1, the mesh body 2) against the mesh, with gap below
/// `threshold`: its contact with each triangle near it, attributed to the face, edge or vertex
/// its witness point lies on (to 1e-9 of the triangle's size), kept by the sphere's feature rule
/// (steps 2–5 above, the witness points of the triangles around an edge or vertex agreeing to
/// 1e-9 of the ellipsoid's size: GJK's polish). A triangle's contact: where E's deepest point
/// towards the triangle's plane lies over the triangle, that point's, exactly as a plane's
/// (collision/ellipsoid_contacts.hpp: a pebble on a tessellated plane has the plane's contact);
/// otherwise ellipsoid_convex's with the triangle's corners.
std::size_t ellipsoid_mesh_contacts(const TriangleMesh& mesh, const PlacedEllipsoid& e,
                                    double threshold, std::vector<MeshContact>& out,
                                    MeshQueryScratch& scratch);

/// The contacts of a sphere with a placed mesh wall (body::Mesh), in the world frame: the
/// centre taken into the mesh's frame, the contacts' points and normals back out. Writes up to
/// `capacity` (the first in triangle order) and returns their number.
std::size_t sphere_mesh(const Vec3& centre, double radius, const body::Mesh& wall, double threshold,
                        ContactGeometry* out, std::size_t capacity);
/// The same among candidate triangles (NeighbourList::mesh_candidates: every triangle within
/// radius + threshold of the centre, in the mesh's frame, no repeats).
std::size_t sphere_mesh(const Vec3& centre, double radius, const body::Mesh& wall, double threshold,
                        std::span<const std::int32_t> candidates, ContactGeometry* out,
                        std::size_t capacity);
/// The contacts of a polyhedron (placed in the world) with a placed mesh wall, in the world
/// frame (polyhedron_mesh_contacts), the first `capacity` of them.
std::size_t polyhedron_mesh(const PlacedPolyhedron& p, const body::Mesh& wall, double threshold,
                            ContactGeometry* out, std::size_t capacity);
/// The contacts of an ellipsoid (placed in the world) with a placed mesh wall, in the world
/// frame (ellipsoid_mesh_contacts), the first `capacity` of them.
std::size_t ellipsoid_mesh(const PlacedEllipsoid& e, const body::Mesh& wall, double threshold,
                           ContactGeometry* out, std::size_t capacity);
/// The contacts `found` in a mesh wall's frame, placed in the world: the first `capacity`.
/// Returns their number.
std::size_t placed_contacts(const body::Mesh& wall, const std::vector<MeshContact>& found,
                            ContactGeometry* out, std::size_t capacity);
/// The contacts of a capsule (a, b, r) with a placed mesh wall, in the world frame
/// (capsule_mesh_contacts), the first `capacity` of them.
std::size_t capsule_mesh(const Vec3& a, const Vec3& b, double r, const body::Mesh& wall,
                         double threshold, ContactGeometry* out, std::size_t capacity);

}  // namespace granite::collision
