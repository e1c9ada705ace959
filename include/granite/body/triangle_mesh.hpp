#pragma once
// A static triangle mesh for contact queries (mesh walls, issue 40): vertices, triangles, their
// unit face normals, the undirected edges with the triangles on each, the triangles around each
// vertex, the shape of the surface at every edge and vertex (convex, flat, concave), and an
// AABB tree of the triangles. Built once; the contact queries only read it.
//
// Building (TriangleMesh's constructor):
// - Vertices with equal coordinates (==, so 0.0 and −0.0 are one) are merged; an STL's facets
//   need no merging beforehand. Nearly equal vertices are not (no healing tolerance: a gap
//   between two vertices is a gap in the surface, and its edges are boundary edges).
// - A triangle with a repeated vertex (after the merge) or a numerically zero area is dropped and
//   counted (dropped_triangles()). Zero area: |(b − a) × (c − a)| ≤ 16 ε L² (L the longest edge,
//   ε the double epsilon): the cross product's components carry rounding errors up to about
//   5 ε |b − a| |c − a| (the two edges' subtraction, the products and their difference), so
//   below that bound its direction, the face normal, is rounding.
// - The triangles kept are numbered in the leaf order of the tree (locality: a query's
//   candidates lie together in memory); source_triangle(t) is t's index in the input.
// - Triangle t's front is the side its corners turn counter-clockwise around; normal(t) is its
//   unit front normal.
// - Edges: each undirected edge with its triangles. One triangle: a boundary edge; two: a
//   manifold edge, classified by its bend angle θ ∈ (−π, π], the signed angle between the two
//   front normals, positive where the surface turns away from the front (a roof's ridge seen
//   from above): θ = atan2((n_A × n_B)·ê, n_A·n_B), A the lower triangle index, ê the edge's
//   unit direction as A's corners run. If B runs the edge the same way as A (the orientations
//   disagree), n_B is reversed for the classification and the edge is counted in
//   inconsistent_edges(). |θ| ≤ flat_angle: flat; θ > 0: convex; θ < 0: concave (seen from the
//   front). More than two triangles: non-manifold (kept; e.g. a fin standing on a floor, or a
//   duplicated triangle); the contact query then asks all of them (mesh_contacts.hpp).
// - Vertices: flat if every edge around it is flat, convex if they are convex or flat, concave
//   if concave or flat, a saddle if both occur, boundary / non-manifold if one of its edges is.
//
// The flat angle. Two faces closer than it to one plane are one plane to the contacts: their
// seam gets the face normal and one contact. The default, 1e-5 rad, is set by STL input: its
// coordinates are single precision (relative rounding 2^-24 ≈ 6e-8), so a vertex at distance X
// from the origin moves by up to 3e-8 X, tilting a triangle of size ℓ by up to about 3e-8 X / ℓ
// and two coplanar neighbours' normals apart by twice that: ≤ 1e-5 for meshes placed within
// X ≈ 150 ℓ of their origin. The price: a real bend below it gives the face normal, off the true
// direction by less than 1e-5 rad, and a gap wrong by less than d θ²/2 = 5e-11 d (d the centre's
// distance). Not below about 1e-12: the computed normals of one plane's triangles differ by
// rounding (a few ε each).
#include "granite/body/aabb_tree.hpp"
#include "granite/core/types.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace granite::body {

enum class EdgeKind : std::uint8_t { convex, flat, concave, boundary, non_manifold };
enum class VertexKind : std::uint8_t {
  convex,
  flat,
  concave,
  saddle,
  boundary,
  non_manifold,
  isolated  // on no triangle
};

using MeshTriangle = std::array<std::int32_t, 3>;

struct MeshEdge {
  std::array<std::int32_t, 2> vertices{};  // lower index first
  EdgeKind kind = EdgeKind::boundary;
  double bend = 0.0;  // θ (0 unless manifold)
};

class TriangleMesh {
public:
  static constexpr double kDefaultFlatAngle = 1e-5;

  /// The mesh of these triangles (indices into vertices, 0-based). Throws InputError on a
  /// non-finite coordinate or an index outside the vertices, on a flat_angle outside
  /// [1e-12, 0.1], and if no triangle is left.
  TriangleMesh(const std::vector<Vec3>& vertices, const std::vector<MeshTriangle>& triangles,
               double flat_angle = kDefaultFlatAngle);

  /// A rank's part of this mesh (scenario/local_meshes.hpp): the triangles `kept` (indices,
  /// increasing), renumbered in that order, so that the contact queries' tie-breaks by triangle
  /// index fall as in this mesh. Every kept edge and vertex keeps its kind and bend, and its
  /// triangles outside the part stay in edge_triangles() and vertex_triangles() as −1: a query
  /// that reaches only kept triangles gets this mesh's contacts bit for bit, one that reaches
  /// beyond them no contact where a missing triangle would decide. The length scale, flat angle
  /// and build counts stay this mesh's. owned[k] (one per kept triangle) says whether kept[k]
  /// is this rank's to write (owns()); every triangle is in exactly one rank's.
  TriangleMesh part(std::span<const std::int32_t> kept, const std::vector<bool>& owned) const;

  std::size_t vertex_count() const { return vertices_.size(); }
  std::size_t triangle_count() const { return triangles_.size(); }
  std::size_t edge_count() const { return edges_.size(); }

  const Vec3& vertex(std::int32_t v) const { return vertices_[std::size_t(v)]; }
  const MeshTriangle& triangle(std::int32_t t) const { return triangles_[std::size_t(t)]; }
  /// Corner k (0..2) of triangle t.
  const Vec3& corner(std::int32_t t, int k) const { return vertex(triangle(t)[std::size_t(k)]); }
  const Vec3& normal(std::int32_t t) const { return normals_[std::size_t(t)]; }
  /// The edge of triangle t from corner k to corner k + 1 (mod 3).
  std::int32_t triangle_edge(std::int32_t t, int k) const {
    return triangle_edges_[std::size_t(t)][std::size_t(k)];
  }
  const MeshEdge& edge(std::int32_t e) const { return edges_[std::size_t(e)]; }
  VertexKind vertex_kind(std::int32_t v) const { return vertex_kinds_[std::size_t(v)]; }
  /// The triangles on edge e and around vertex v, in increasing order (a part's: then −1 for
  /// each outside it).
  std::span<const std::int32_t> edge_triangles(std::int32_t e) const {
    return csr(edge_triangle_start_, edge_triangle_list_, e);
  }
  std::span<const std::int32_t> vertex_triangles(std::int32_t v) const {
    return csr(vertex_triangle_start_, vertex_triangle_list_, v);
  }
  /// The index in the constructor's `triangles` of triangle t.
  std::int32_t source_triangle(std::int32_t t) const { return source_[std::size_t(t)]; }

  const AabbTree& tree() const { return tree_; }
  /// Calls f(t) for every triangle t whose bounding box intersects `box`.
  template <class F>
  void triangles_near(const Aabb& box, F&& f) const {
    tree_.query(box, f);
  }

  /// Calls f(t) for every triangle t whose bounding box is within `radius` of `centre`.
  template <class F>
  void triangles_near(const Vec3& centre, double radius, F&& f) const {
    tree_.query(centre, radius, f);
  }

  /// The distance from x to the surface (≥ 0: the mesh is a surface, not a solid), searched
  /// only below `bound`: `bound` if no triangle is closer.
  double distance(const Vec3& x, double bound = std::numeric_limits<double>::infinity()) const;
  /// The box around every vertex.
  const Aabb& bounds() const { return bounds_; }

  double flat_angle() const { return flat_angle_; }
  /// The largest |coordinate| plus the longest edge: the length the rounding of the
  /// closest-point computations is relative to.
  double length_scale() const { return length_scale_; }
  /// Whether this rank writes triangle t to snapshots: every triangle of a whole mesh; those
  /// `owned` of a part.
  bool owns(std::int32_t t) const { return owned_.empty() || owned_[std::size_t(t)]; }
  /// The triangles of the whole mesh this one is a part of (triangle_count() if whole).
  std::size_t whole_triangle_count() const { return whole_triangles_; }
  /// The heap memory it holds (its arrays' capacities and its tree's).
  std::size_t bytes() const;
  std::size_t dropped_triangles() const { return dropped_; }
  std::size_t merged_vertices() const { return merged_; }
  std::size_t inconsistent_edges() const { return inconsistent_; }

private:
  TriangleMesh() = default;  // part()'s
  static std::span<const std::int32_t> csr(const std::vector<std::int32_t>& start,
                                           const std::vector<std::int32_t>& list, std::int32_t i) {
    const auto b = std::size_t(start[std::size_t(i)]), e = std::size_t(start[std::size_t(i) + 1]);
    return {list.data() + b, e - b};
  }
  void merge_vertices(const std::vector<Vec3>& input, std::vector<std::int32_t>& map);
  void build_edges();
  void classify_vertices();

  std::vector<Vec3> vertices_;
  std::vector<MeshTriangle> triangles_;
  std::vector<Vec3> normals_;
  std::vector<std::array<std::int32_t, 3>> triangle_edges_;
  std::vector<MeshEdge> edges_;
  std::vector<std::int32_t> edge_triangle_start_, edge_triangle_list_;
  std::vector<std::int32_t> vertex_triangle_start_, vertex_triangle_list_;
  std::vector<VertexKind> vertex_kinds_;
  std::vector<std::int32_t> source_;
  AabbTree tree_;
  Aabb bounds_;
  std::vector<bool> owned_;  // a part's (part()); empty: every triangle
  double flat_angle_ = kDefaultFlatAngle;
  double length_scale_ = 0.0;
  std::size_t whole_triangles_ = 0;
  std::size_t dropped_ = 0, merged_ = 0, inconsistent_ = 0;
};

}  // namespace granite::body
