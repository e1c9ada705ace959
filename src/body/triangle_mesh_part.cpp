// A rank's part of a triangle mesh (TriangleMesh::part, see granite/body/triangle_mesh.hpp).
#include "granite/body/triangle_mesh.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace granite::body {

namespace {

// The new index of every old one kept (−1 for the others), numbered in increasing old order.
std::vector<std::int32_t> renumbering(std::size_t n, const std::vector<bool>& used) {
  std::vector<std::int32_t> map(n, -1);
  std::int32_t next = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (used[i]) map[i] = next++;
  return map;
}

// A CSR list of the kept items' entries, each old entry renumbered (−1 outside the part,
// after the kept ones, so that these stay in increasing order).
void renumber_lists(const std::vector<std::int32_t>& start, const std::vector<std::int32_t>& list,
                    const std::vector<std::int32_t>& item_map,
                    const std::vector<std::int32_t>& entry_map,
                    std::vector<std::int32_t>& new_start, std::vector<std::int32_t>& new_list) {
  std::size_t kept = 0, entries = 0;
  for (std::size_t i = 0; i + 1 < start.size(); ++i)
    if (item_map[i] >= 0) {
      ++kept;
      entries += std::size_t(start[i + 1] - start[i]);
    }
  new_start.reserve(kept + 1);
  new_list.reserve(entries);
  new_start.assign(1, 0);
  for (std::size_t i = 0; i + 1 < start.size(); ++i) {
    if (item_map[i] < 0) continue;
    std::size_t outside = 0;
    for (std::int32_t k = start[i]; k < start[i + 1]; ++k) {
      const std::int32_t e = entry_map[std::size_t(list[std::size_t(k)])];
      if (e < 0)
        ++outside;
      else
        new_list.push_back(e);
    }
    new_list.insert(new_list.end(), outside, -1);
    new_start.push_back(std::int32_t(new_list.size()));
  }
}

}  // namespace

TriangleMesh TriangleMesh::part(std::span<const std::int32_t> kept,
                                const std::vector<bool>& owned) const {
  if (owned.size() != kept.size())
    throw std::invalid_argument("TriangleMesh::part: " + std::to_string(owned.size()) +
                                " owned flags for " + std::to_string(kept.size()) + " triangles");
  std::vector<bool> keep_triangle(triangles_.size(), false), keep_vertex(vertices_.size(), false),
      keep_edge(edges_.size(), false);
  std::int32_t previous = -1;
  for (const std::int32_t t : kept) {
    if (t <= previous || t >= std::int32_t(triangles_.size()))
      throw std::invalid_argument("TriangleMesh::part: kept triangles not increasing below " +
                                  std::to_string(triangles_.size()));
    previous = t;
    keep_triangle[std::size_t(t)] = true;
    for (int k = 0; k < 3; ++k) {
      keep_vertex[std::size_t(triangle(t)[std::size_t(k)])] = true;
      keep_edge[std::size_t(triangle_edge(t, k))] = true;
    }
  }
  const std::vector<std::int32_t> t_map = renumbering(triangles_.size(), keep_triangle);
  const std::vector<std::int32_t> v_map = renumbering(vertices_.size(), keep_vertex);
  const std::vector<std::int32_t> e_map = renumbering(edges_.size(), keep_edge);

  TriangleMesh p;  // every array reserved to its size: a part is kept for the run
  const auto count = [](const std::vector<std::int32_t>& map) {
    return std::size_t(
        std::count_if(map.begin(), map.end(), [](std::int32_t i) { return i >= 0; }));
  };
  const std::size_t n_vertices = count(v_map), n_edges = count(e_map);
  p.vertices_.reserve(n_vertices);
  p.vertex_kinds_.reserve(n_vertices);
  p.triangles_.reserve(kept.size());
  p.normals_.reserve(kept.size());
  p.source_.reserve(kept.size());
  p.triangle_edges_.reserve(kept.size());
  p.edges_.reserve(n_edges);
  for (std::size_t v = 0; v < vertices_.size(); ++v)
    if (keep_vertex[v]) {
      p.vertices_.push_back(vertices_[v]);
      p.vertex_kinds_.push_back(vertex_kinds_[v]);
    }
  std::vector<Aabb> boxes;
  boxes.reserve(kept.size());
  for (const std::int32_t t : kept) {
    const MeshTriangle& tri = triangle(t);
    p.triangles_.push_back(
        {v_map[std::size_t(tri[0])], v_map[std::size_t(tri[1])], v_map[std::size_t(tri[2])]});
    p.normals_.push_back(normal(t));
    p.source_.push_back(source_triangle(t));
    p.triangle_edges_.push_back({e_map[std::size_t(triangle_edge(t, 0))],
                                 e_map[std::size_t(triangle_edge(t, 1))],
                                 e_map[std::size_t(triangle_edge(t, 2))]});
    Aabb box;
    for (int k = 0; k < 3; ++k) box.grow(corner(t, k));
    p.bounds_.grow(box);
    boxes.push_back(box);
  }
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    if (!keep_edge[e]) continue;
    MeshEdge edge = edges_[e];
    for (std::int32_t& v : edge.vertices) v = v_map[std::size_t(v)];  // the order stays
    p.edges_.push_back(edge);
  }
  renumber_lists(edge_triangle_start_, edge_triangle_list_, e_map, t_map, p.edge_triangle_start_,
                 p.edge_triangle_list_);
  renumber_lists(vertex_triangle_start_, vertex_triangle_list_, v_map, t_map,
                 p.vertex_triangle_start_, p.vertex_triangle_list_);
  p.tree_ = AabbTree(boxes);  // not renumbered: the part keeps the whole mesh's order
  p.owned_ = owned;
  p.flat_angle_ = flat_angle_;
  p.length_scale_ = length_scale_;
  p.whole_triangles_ = whole_triangles_;
  p.dropped_ = dropped_;
  p.merged_ = merged_;
  p.inconsistent_ = inconsistent_;
  return p;
}

}  // namespace granite::body
