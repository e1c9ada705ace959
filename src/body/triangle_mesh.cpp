#include "granite/body/triangle_mesh.hpp"

#include "granite/body/triangle_closest_point.hpp"
#include "granite/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>

namespace granite::body {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

std::string text(const Vec3& p) {
  return "(" + std::to_string(p.x()) + ", " + std::to_string(p.y()) + ", " + std::to_string(p.z()) +
         ")";
}

}  // namespace

TriangleMesh::TriangleMesh(const std::vector<Vec3>& vertices,
                           const std::vector<MeshTriangle>& triangles, double flat_angle) :
    flat_angle_(flat_angle) {
  if (!(flat_angle >= 1e-12 && flat_angle <= 0.1))
    throw InputError("triangle mesh: flat angle " + std::to_string(flat_angle) +
                     " rad outside [1e-12, 0.1]");
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (!vertices[i].allFinite())
      throw InputError("triangle mesh: vertex " + std::to_string(i) + " is " + text(vertices[i]));
  const auto n_in = std::int64_t(vertices.size());
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (const std::int32_t v : triangles[t])
      if (v < 0 || v >= n_in)
        throw InputError("triangle mesh: triangle " + std::to_string(t) + " has vertex index " +
                         std::to_string(v) + " outside 0.." + std::to_string(n_in - 1));
  std::vector<std::int32_t> map;
  merge_vertices(vertices, map);

  double longest = 0.0;
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const MeshTriangle tri{map[std::size_t(triangles[t][0])], map[std::size_t(triangles[t][1])],
                           map[std::size_t(triangles[t][2])]};
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0]) {
      ++dropped_;
      continue;
    }
    const Vec3& a = vertex(tri[0]);
    const Vec3 ab = vertex(tri[1]) - a, ac = vertex(tri[2]) - a;
    const double l2 = std::max({ab.squaredNorm(), ac.squaredNorm(), (ac - ab).squaredNorm()});
    const Vec3 n = cross(ab, ac);
    if (n.norm() <= 16.0 * kEps * l2) {  // numerically zero area (header)
      ++dropped_;
      continue;
    }
    longest = std::max(longest, std::sqrt(l2));
    triangles_.push_back(tri);
    normals_.push_back(n.normalized());
    source_.push_back(std::int32_t(t));
  }
  if (triangles_.empty())
    throw InputError("triangle mesh: no triangle of non-zero area among " +
                     std::to_string(triangles.size()));
  double largest = 0.0;
  for (const auto& tri : triangles_)
    for (const std::int32_t v : tri) largest = std::max(largest, vertex(v).cwiseAbs().maxCoeff());
  length_scale_ = largest + longest;

  // The tree, then the triangles renumbered in its leaf order: a query's candidates lie
  // together in memory.
  std::vector<Aabb> boxes(triangles_.size());
  for (std::size_t t = 0; t < triangles_.size(); ++t)
    for (int k = 0; k < 3; ++k) boxes[t].grow(corner(std::int32_t(t), k));
  for (const Aabb& box : boxes) bounds_.grow(box);
  tree_ = AabbTree(boxes);
  const std::vector<std::int32_t> order = tree_.renumber_in_leaf_order();
  const auto permute = [&](auto& a) {
    auto old = a;
    for (std::size_t k = 0; k < order.size(); ++k) a[k] = old[std::size_t(order[k])];
  };
  permute(triangles_);
  permute(normals_);
  permute(source_);
  whole_triangles_ = triangles_.size();

  build_edges();
  classify_vertices();
}

// Equal coordinates sort next to each other (lexicographic order; 0.0 == −0.0); each group
// becomes the vertex of its first appearance, the merged vertices keeping that order.
void TriangleMesh::merge_vertices(const std::vector<Vec3>& input, std::vector<std::int32_t>& map) {
  const std::size_t n = input.size();
  const auto key = [&](std::size_t i) {
    return std::make_tuple(input[i].x(), input[i].y(), input[i].z());
  };
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t i, std::size_t j) { return key(i) < key(j); });
  std::vector<std::size_t> first(n);  // the first appearance of each vertex's coordinates
  for (std::size_t k = 0; k < n; ++k)
    first[order[k]] = k > 0 && key(order[k]) == key(order[k - 1]) ? first[order[k - 1]] : order[k];
  map.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (first[i] != i) {
      map[i] = map[first[i]];
      ++merged_;
      continue;
    }
    map[i] = std::int32_t(vertices_.size());
    vertices_.push_back(input[i]);
  }
}

// The edges: the three (lower vertex, upper vertex, triangle, corner) of every triangle sorted,
// so that each undirected edge's triangles are consecutive, in increasing order.
void TriangleMesh::build_edges() {
  struct Side {
    std::int32_t lo, hi, t, k;
  };
  std::vector<Side> sides;
  sides.reserve(3 * triangles_.size());
  for (std::int32_t t = 0; t < std::int32_t(triangles_.size()); ++t)
    for (int k = 0; k < 3; ++k) {
      const std::int32_t u = triangle(t)[std::size_t(k)], w = triangle(t)[std::size_t(k + 1) % 3];
      sides.push_back({std::min(u, w), std::max(u, w), t, k});
    }
  std::sort(sides.begin(), sides.end(), [](const Side& a, const Side& b) {
    return std::tie(a.lo, a.hi, a.t) < std::tie(b.lo, b.hi, b.t);
  });
  triangle_edges_.assign(triangles_.size(), {-1, -1, -1});
  edge_triangle_start_.push_back(0);
  for (std::size_t i = 0; i < sides.size();) {
    std::size_t j = i;
    const std::int32_t e = std::int32_t(edges_.size());
    for (; j < sides.size() && sides[j].lo == sides[i].lo && sides[j].hi == sides[i].hi; ++j) {
      triangle_edges_[std::size_t(sides[j].t)][std::size_t(sides[j].k)] = e;
      edge_triangle_list_.push_back(sides[j].t);
    }
    edge_triangle_start_.push_back(std::int32_t(edge_triangle_list_.size()));
    MeshEdge edge;
    edge.vertices = {sides[i].lo, sides[i].hi};
    edge.kind = j - i == 1 ? EdgeKind::boundary : EdgeKind::non_manifold;
    if (j - i == 2) {
      const Side& a = sides[i];
      const Side& b = sides[i + 1];
      const std::int32_t from = triangle(a.t)[std::size_t(a.k)];
      const std::int32_t to = triangle(a.t)[std::size_t(a.k + 1) % 3];
      const bool consistent = triangle(b.t)[std::size_t(b.k)] == to;
      if (!consistent) ++inconsistent_;
      const Vec3& na = normal(a.t);
      const Vec3 nb = consistent ? normal(b.t) : Vec3(-normal(b.t));
      const Vec3 direction = (vertex(to) - vertex(from)).normalized();
      edge.bend = std::atan2(cross(na, nb).dot(direction), na.dot(nb));
      edge.kind = std::abs(edge.bend) <= flat_angle_ ? EdgeKind::flat
                  : edge.bend > 0.0                  ? EdgeKind::convex
                                                     : EdgeKind::concave;
    }
    edges_.push_back(edge);
    i = j;
  }
}

// The triangles around each vertex (counting sort, so in increasing order) and the vertex's
// kind from its edges'.
void TriangleMesh::classify_vertices() {
  const std::size_t n = vertices_.size();
  vertex_triangle_start_.assign(n + 1, 0);
  for (const auto& tri : triangles_)
    for (const std::int32_t v : tri) ++vertex_triangle_start_[std::size_t(v) + 1];
  std::partial_sum(vertex_triangle_start_.begin(), vertex_triangle_start_.end(),
                   vertex_triangle_start_.begin());
  vertex_triangle_list_.resize(std::size_t(vertex_triangle_start_.back()));
  std::vector<std::int32_t> fill(vertex_triangle_start_.begin(), vertex_triangle_start_.end() - 1);
  for (std::int32_t t = 0; t < std::int32_t(triangles_.size()); ++t)
    for (const std::int32_t v : triangle(t))
      vertex_triangle_list_[std::size_t(fill[std::size_t(v)]++)] = t;

  enum : unsigned { convex = 1, concave = 2, boundary = 4, non_manifold = 8, used = 16 };
  std::vector<unsigned> seen(n, 0);
  for (const MeshEdge& e : edges_) {
    const unsigned bit = e.kind == EdgeKind::convex         ? convex
                         : e.kind == EdgeKind::concave      ? concave
                         : e.kind == EdgeKind::boundary     ? boundary
                         : e.kind == EdgeKind::non_manifold ? non_manifold
                                                            : 0u;
    for (const std::int32_t v : e.vertices) seen[std::size_t(v)] |= bit | used;
  }
  vertex_kinds_.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    const unsigned s = seen[v];
    vertex_kinds_[v] = !(s & used)                     ? VertexKind::isolated
                       : s & non_manifold              ? VertexKind::non_manifold
                       : s & boundary                  ? VertexKind::boundary
                       : (s & convex) && (s & concave) ? VertexKind::saddle
                       : s & convex                    ? VertexKind::convex
                       : s & concave                   ? VertexKind::concave
                                                       : VertexKind::flat;
  }
}

std::size_t TriangleMesh::bytes() const {
  const auto of = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  return of(vertices_) + of(triangles_) + of(normals_) + of(triangle_edges_) + of(edges_) +
         of(edge_triangle_start_) + of(edge_triangle_list_) + of(vertex_triangle_start_) +
         of(vertex_triangle_list_) + of(vertex_kinds_) + of(source_) + owned_.capacity() / 8 +
         tree_.bytes();
}

double TriangleMesh::distance(const Vec3& x, double bound) const {
  const double d2 = tree_.nearest(
      x,
      [&](std::int32_t t) {
        return (x - closest_point_on_triangle(x, corner(t, 0), corner(t, 1), corner(t, 2)).point)
            .squaredNorm();
      },
      bound * bound);
  return std::min(std::sqrt(d2), bound);
}

}  // namespace granite::body
