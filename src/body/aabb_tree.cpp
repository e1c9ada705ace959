#include "granite/body/aabb_tree.hpp"

#include <algorithm>

namespace granite::body {

namespace {

Vec3 centre(const Aabb& b) { return 0.5 * (b.lo + b.hi); }

}  // namespace

// Top-down build on an explicit stack of item ranges: a node's box is the union of its
// items'; a range of more than kLeafSize items is split at its median along the longest axis
// of the spread of its box centres (nth_element: O(n) per level, O(n log n) in all). The left
// half is built right after its parent, the right half's index is stored in `first` when it
// is reached.
AabbTree::AabbTree(const std::vector<Aabb>& boxes) {
  const std::int32_t n = std::int32_t(boxes.size());
  if (n == 0) return;
  items_.resize(std::size_t(n));
  for (std::int32_t i = 0; i < n; ++i) items_[std::size_t(i)] = i;
  nodes_.reserve(std::size_t(2 * (n / kLeafSize + 1)));
  struct Range {
    std::int32_t begin, end, parent, level;  // parent: the inner node whose right child it is
  };
  std::vector<Range> todo{{0, n, -1, 0}};
  while (!todo.empty()) {
    const Range r = todo.back();
    todo.pop_back();
    const std::int32_t index = std::int32_t(nodes_.size());
    if (r.parent >= 0) nodes_[std::size_t(r.parent)].first = index;
    depth_ = std::max(depth_, r.level);
    Node node;
    Aabb spread;
    for (std::int32_t k = r.begin; k < r.end; ++k) {
      const Aabb& b = boxes[std::size_t(items_[std::size_t(k)])];
      node.box.grow(b);
      spread.grow(centre(b));
    }
    if (r.end - r.begin <= kLeafSize) {
      node.first = r.begin;
      node.count = r.end - r.begin;
      nodes_.push_back(node);
      continue;
    }
    nodes_.push_back(node);
    int axis = 0;
    (spread.hi - spread.lo).maxCoeff(&axis);
    const std::int32_t mid = r.begin + (r.end - r.begin) / 2;
    std::nth_element(items_.begin() + r.begin, items_.begin() + mid, items_.begin() + r.end,
                     [&](std::int32_t i, std::int32_t j) {
                       return centre(boxes[std::size_t(i)])[axis] <
                              centre(boxes[std::size_t(j)])[axis];
                     });
    todo.push_back({mid, r.end, index, r.level + 1});  // right: popped after the left subtree
    todo.push_back({r.begin, mid, -1, r.level + 1});   // left: the next node
  }
  item_boxes_.reserve(items_.size());
  for (const std::int32_t i : items_) item_boxes_.push_back(boxes[std::size_t(i)]);
}

std::vector<std::int32_t> AabbTree::renumber_in_leaf_order() {
  std::vector<std::int32_t> old = items_;
  for (std::size_t k = 0; k < items_.size(); ++k) items_[k] = std::int32_t(k);
  return old;
}

}  // namespace granite::body
