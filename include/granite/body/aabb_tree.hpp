#pragma once
// A bounding-volume hierarchy of axis-aligned boxes, built once (static geometry, e.g. the
// triangles of a mesh wall): a flat array of nodes in depth-first order, each split at the
// median of its items' box centres along the longest axis of their spread, leaves of at most
// kLeafSize items. Balanced by construction, so a query descends about log2(n / kLeafSize)
// levels (Ericson, Real-Time Collision Detection, §6.2 and §6.6.1).
#include "granite/core/types.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace granite::body {

struct Aabb {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = Vec3::Constant(-std::numeric_limits<double>::infinity());

  void grow(const Vec3& p) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  void grow(const Aabb& b) {
    lo = lo.cwiseMin(b.lo);
    hi = hi.cwiseMax(b.hi);
  }
  /// The squared distance from p to the box (0 inside).
  double squared_distance(const Vec3& p) const {
    return (lo - p).cwiseMax(p - hi).cwiseMax(0.0).squaredNorm();
  }
  /// Closed boxes: touching boxes intersect.
  bool intersects(const Aabb& b) const {
    return lo.x() <= b.hi.x() && b.lo.x() <= hi.x() && lo.y() <= b.hi.y() && b.lo.y() <= hi.y() &&
           lo.z() <= b.hi.z() && b.lo.z() <= hi.z();
  }
};

class AabbTree {
public:
  static constexpr std::int32_t kLeafSize = 4;

  AabbTree() = default;
  /// The tree of items 0 .. boxes.size() − 1 with these boxes.
  explicit AabbTree(const std::vector<Aabb>& boxes);

  /// Calls f(item) for every item whose box intersects `box` (in the tree's leaf order).
  template <class F>
  void query(const Aabb& box, F&& f) const;

  /// Calls f(item) for every item whose box is within `radius` of `centre` (closer than or at
  /// radius), in the tree's leaf order: the items a sphere can reach, fewer than its bounding
  /// box's (a flat triangle under a sphere: only those under its foot).
  template <class F>
  void query(const Vec3& centre, double radius, F&& f) const;
  /// The least of squared_distance(item) over the items closer than √bound2, found by branch
  /// and bound: nodes farther than the best so far (at first bound2) are skipped, the nearer
  /// child is searched first. squared_distance(item) returns the item's own squared distance
  /// from `centre` (not less than its box's). bound2 if no item is closer.
  template <class F>
  double nearest(const Vec3& centre, F&& squared_distance,
                 double bound2 = std::numeric_limits<double>::infinity()) const;

  /// Renumbers the items in leaf order: item k becomes the k-th in leaf order. Returns the old
  /// ids in that order (for the owner to permute its items alike).
  std::vector<std::int32_t> renumber_in_leaf_order();

  std::size_t size() const { return items_.size(); }
  std::size_t node_count() const { return nodes_.size(); }
  /// The heap memory it holds (its arrays' capacities).
  std::size_t bytes() const {
    return nodes_.capacity() * sizeof(Node) + items_.capacity() * sizeof(std::int32_t) +
           item_boxes_.capacity() * sizeof(Aabb);
  }
  /// Levels below the root (0 for a single leaf).
  int depth() const { return depth_; }

private:
  // A leaf (count > 0) holds items_[first .. first + count); an inner node's children are the
  // next node and node `first`.
  struct Node {
    Aabb box;
    std::int32_t first = 0;
    std::int32_t count = 0;
  };
  std::vector<Node> nodes_;
  std::vector<std::int32_t> items_;  // item ids in leaf order
  std::vector<Aabb> item_boxes_;     // their boxes, in the same order
  int depth_ = 0;
};

template <class F>
void AabbTree::query(const Aabb& box, F&& f) const {
  if (nodes_.empty()) return;
  std::int32_t stack[64];  // depth ≤ log2(2^31 / kLeafSize) + 1 < 64
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const std::int32_t i = stack[--top];
    const Node& node = nodes_[std::size_t(i)];
    if (!node.box.intersects(box)) continue;
    if (node.count > 0) {
      for (std::int32_t k = node.first; k < node.first + node.count; ++k)
        if (item_boxes_[std::size_t(k)].intersects(box)) f(items_[std::size_t(k)]);
      continue;
    }
    stack[top++] = node.first;
    stack[top++] = i + 1;
  }
}

template <class F>
void AabbTree::query(const Vec3& centre, double radius, F&& f) const {
  if (nodes_.empty()) return;
  const double r2 = radius * radius;
  std::int32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const std::int32_t i = stack[--top];
    const Node& node = nodes_[std::size_t(i)];
    if (node.box.squared_distance(centre) > r2) continue;
    if (node.count > 0) {
      for (std::int32_t k = node.first; k < node.first + node.count; ++k)
        if (item_boxes_[std::size_t(k)].squared_distance(centre) <= r2) f(items_[std::size_t(k)]);
      continue;
    }
    stack[top++] = node.first;
    stack[top++] = i + 1;
  }
}

template <class F>
double AabbTree::nearest(const Vec3& centre, F&& squared_distance, double bound2) const {
  double best = bound2;
  if (nodes_.empty()) return best;
  std::int32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const std::int32_t i = stack[--top];
    const Node& node = nodes_[std::size_t(i)];
    if (node.box.squared_distance(centre) >= best) continue;
    if (node.count > 0) {
      for (std::int32_t k = node.first; k < node.first + node.count; ++k)
        if (item_boxes_[std::size_t(k)].squared_distance(centre) < best)
          best = std::min(best, squared_distance(items_[std::size_t(k)]));
      continue;
    }
    const std::int32_t a = i + 1, b = node.first;  // the nearer one goes on top
    const bool a_nearer = nodes_[std::size_t(a)].box.squared_distance(centre) <=
                          nodes_[std::size_t(b)].box.squared_distance(centre);
    stack[top++] = a_nearer ? b : a;
    stack[top++] = a_nearer ? a : b;
  }
  return best;
}

}  // namespace granite::body
