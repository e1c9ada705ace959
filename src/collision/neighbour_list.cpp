// Verlet neighbour list with a skin (see include/granite/collision/neighbour_list.hpp).
#include "granite/collision/neighbour_list.hpp"

#include "granite/body/triangle_mesh.hpp"

#include <algorithm>

namespace granite::collision {

namespace {
// Candidates are kept up to a hair beyond the exact reach, so that rounding in the distance
// test (here and in stale()) can never drop a pair that the narrow phase would report.
constexpr double kReachSlack = 1e-12;

// The smallest signed distance from x to a member of the body (negative inside one); a mesh's
// searched only below `bound` (body::signed_distance: ≥ bound if none is closer).
double member_distance(const body::GlobalBody& body, const Vec3& x, double bound) {
  double d = body::signed_distance(body.parts.front(), x, bound);
  for (std::size_t m = 1; m < body.parts.size(); ++m)
    d = std::min(d, body::signed_distance(body.parts[m], x, bound));
  return d;
}
}  // namespace

void NeighbourList::build(body::Particles& particles, std::size_t tracked,
                          const body::GlobalBodies& globals, double threshold, double skin,
                          bool at_references) {
  if (!at_references)
    std::copy_n(particles.position.begin(), tracked, particles.neighbour_reference.begin());
  const auto& x = at_references ? particles.neighbour_reference : particles.position;
  const auto& r = particles.radius;
  adopt(particles, tracked, skin);  // the bookkeeping; then the candidates
  for (std::size_t k = 0; k < globals.size(); ++k) global_parts_.push_back(globals[k].parts);
  if (particles.size() == 0) return;
  // Inactive bodies too: a gate may close while the list lives; detection skips inactive ones.
  for (std::size_t i = 0; i < particles.size(); ++i)
    for (std::size_t k = 0; k < globals.size(); ++k) {
      const double reach = (r[i] + threshold + skin) * (1.0 + kReachSlack);
      if (!(member_distance(globals[k], x[i], 2.0 * reach) <= reach)) continue;
      global_pairs_.emplace_back(std::uint32_t(i), std::uint32_t(k));
      mesh_ranges_.push_back(particles.shape[i] == body::kSphere
                                 ? gather_triangles(globals[k], x[i], reach)
                                 : std::array{kNoMesh, kNoMesh});
    }
  // The build's scratch is local: a list lives for many steps, and its contacts' arrays need
  // the memory meanwhile (about 80 B per particle).
  LinkedCells cells;
  cells.build(x, 2.0 * particles.max_radius() + threshold + skin);
  // Positions and radii in the cells' order, so that each particle's candidates are a few
  // contiguous ranges, scanned without a branch per pair (most pairs of adjacent cells are out
  // of reach); then the pairs within reach, without two fixed particles.
  const std::vector<std::uint32_t>& order = cells.sorted();
  const std::size_t n = order.size();
  std::vector<Vec3> cell_x(n);
  std::vector<double> cell_r(n);
  std::vector<std::uint32_t> within_reach(n);  // one range's candidates within reach
  for (std::size_t k = 0; k < n; ++k) {
    cell_x[k] = x[order[k]];
    cell_r[k] = r[order[k]];
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> unsorted;
  unsorted.reserve(pairs_.size());  // the last build's count: a list changes little
  cells.for_each_candidate_range([&](std::uint32_t p, std::uint32_t begin, std::uint32_t end) {
    const Vec3 xp = cell_x[p];
    const double rp = cell_r[p];
    std::size_t hits = 0;
    for (std::uint32_t q = begin; q < end; ++q) {
      const double reach = (rp + cell_r[q] + threshold + skin) * (1.0 + kReachSlack);
      within_reach[hits] = q;
      hits += (xp - cell_x[q]).squaredNorm() <= reach * reach ? 1 : 0;
    }
    for (std::size_t h = 0; h < hits; ++h) {
      const std::uint32_t a = order[p], b = order[within_reach[h]];
      const std::uint32_t i = std::min(a, b), j = std::max(a, b);
      if (particles.fixed[i] == 0 || particles.fixed[j] == 0) unsorted.emplace_back(i, j);
    }
  });
  // Sorted by i, then j: a counting sort by i, then each particle's few candidates by j
  // (cheaper than one std::sort of the whole list; docs/performance.md).
  std::vector<std::uint32_t> bucket(particles.size(), 0);  // i's candidate count, then offset
  for (const auto& [i, j] : unsorted) ++bucket[i];
  std::uint32_t end = 0;
  for (std::uint32_t& e : bucket) e = end += e;
  pairs_.resize(unsorted.size());
  for (auto p = unsorted.rbegin(); p != unsorted.rend(); ++p) pairs_[--bucket[p->first]] = *p;
  for (std::size_t i = 0; i + 1 < bucket.size(); ++i)
    std::sort(pairs_.begin() + bucket[i], pairs_.begin() + bucket[i + 1]);
  if (!bucket.empty()) std::sort(pairs_.begin() + bucket.back(), pairs_.end());
}

std::array<std::uint32_t, 2> NeighbourList::gather_triangles(const body::GlobalBody& body,
                                                             const Vec3& x, double reach) {
  const auto* wall = body.is_union() ? nullptr : std::get_if<body::Mesh>(&body.parts.front());
  if (!wall) return {kNoMesh, kNoMesh};
  const auto begin = std::uint32_t(mesh_triangles_.size());
  wall->mesh->triangles_near(wall->to_mesh(x), reach,
                             [&](std::int32_t t) { mesh_triangles_.push_back(t); });
  return {begin, std::uint32_t(mesh_triangles_.size())};
}

bool NeighbourList::global_moved(const body::GlobalBodies& globals, std::size_t k) const {
  if (k >= global_parts_.size()) return true;
  const std::vector<body::Primitive>& now = globals[k].parts;
  const std::vector<body::Primitive>& then = global_parts_[k];
  if (now.size() != then.size()) return true;
  // A member's signed distance changes by at most its translation, as a particle's by its own
  // move: up to skin/2 of each keeps the candidates (the particles' bound, stale()). A NaN moves.
  const double limit = 0.25 * skin_ * skin_;
  Vec3 d;
  for (std::size_t m = 0; m < now.size(); ++m)
    if (!body::translated_copy(now[m], then[m], d) || !(d.squaredNorm() <= limit)) return true;
  return false;
}

void NeighbourList::adopt(const body::Particles& particles, std::size_t tracked, double skin) {
  skin_ = skin;
  pairs_.clear();
  global_pairs_.clear();
  global_parts_.clear();
  mesh_ranges_.clear();
  mesh_triangles_.clear();
  ids_.assign(particles.id.begin(), particles.id.begin() + std::ptrdiff_t(tracked));
  built_ = true;
  ++generation_;
}

void NeighbourList::remap(const std::vector<std::int64_t>& map) {
  ++generation_;
  std::size_t w = 0;
  for (const auto& [i, j] : pairs_)
    if (map[i] >= 0 && map[j] >= 0) pairs_[w++] = {std::uint32_t(map[i]), std::uint32_t(map[j])};
  pairs_.resize(w);
  w = 0;
  for (std::size_t c = 0; c < global_pairs_.size(); ++c) {
    const auto [i, k] = global_pairs_[c];
    if (map[i] < 0) continue;
    global_pairs_[w] = {std::uint32_t(map[i]), k};
    mesh_ranges_[w++] = mesh_ranges_[c];  // the triangles stay where they are
  }
  global_pairs_.resize(w);
  mesh_ranges_.resize(w);
  w = 0;
  for (std::size_t i = 0; i < ids_.size(); ++i)
    if (map[i] >= 0) ids_[w++] = ids_[i];
  ids_.resize(w);
}

bool NeighbourList::stale(const body::Particles& particles, std::size_t tracked,
                          const std::vector<std::int64_t>& deleted) const {
  if (!built_) return true;
  const double limit = 0.25 * skin_ * skin_;  // (skin/2)²
  const auto moved = [&](std::size_t now, std::size_t then) {
    return particles.id[now] != ids_[then] ||
           (particles.position[now] - particles.neighbour_reference[now]).squaredNorm() > limit;
  };
  if (deleted.empty()) {
    if (tracked != ids_.size()) return true;
    for (std::size_t i = 0; i < tracked; ++i)
      if (moved(i, i)) return true;
    return false;
  }
  if (deleted.size() != ids_.size()) return true;
  std::size_t survivors = 0;
  for (std::size_t i = 0; i < deleted.size(); ++i) {
    if (deleted[i] < 0) continue;
    if (std::size_t(deleted[i]) >= tracked || moved(std::size_t(deleted[i]), i)) return true;
    ++survivors;
  }
  return survivors != tracked;
}

}  // namespace granite::collision
