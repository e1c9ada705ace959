#include "granite/collision/detection.hpp"

#include "granite/collision/mesh_contacts.hpp"
#include "granite/collision/narrow_phase.hpp"
#include "granite/collision/shape_contacts.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>

namespace granite::collision {

namespace {

// The narrow phase of one particle pair i < j; `apart` as shaped_pair_contacts'.
void detect_pair(const body::Particles& particles, const body::ShapeTable& shapes,
                 PolyhedronPlacements& placements, double threshold, std::uint32_t i,
                 std::uint32_t j, ContactList& contacts, double* apart = nullptr) {
  if (!shapes.empty() &&
      (particles.shape[i] != body::kSphere || particles.shape[j] != body::kSphere)) {
    shaped_pair_contacts(particles, shapes, placements, threshold, i, j, contacts, apart);
    return;
  }
  const auto& x = particles.position;
  const auto& r = particles.radius;
  ContactGeometry g;
  if (sphere_sphere(x[i], r[i], x[j], r[j], threshold, g))
    contacts.push_back(i, j, g.point, g.normal, g.gap);
}

// The narrow phase of particle i against global body k (skipped while inactive); a sphere
// against a mesh wall among the neighbour list's candidate triangles if given.
void detect_global_pair(const body::Particles& particles, const body::GlobalBodies& globals,
                        const body::ShapeTable& shapes, PolyhedronPlacements& placements,
                        double threshold, std::size_t i, std::size_t k, ContactList& contacts,
                        std::optional<std::span<const std::int32_t>> triangles = std::nullopt) {
  const body::GlobalBody& gb = globals[k];
  if (!gb.active) return;
  if (particles.shape[i] != body::kSphere) {
    shaped_global_contacts(particles, shapes, placements, gb, threshold, BodyIndex(i),
                           BodyIndex(particles.size() + k), contacts);
    return;
  }
  constexpr std::size_t kMaxPerBody = 8;
  ContactGeometry found[kMaxPerBody];
  const std::size_t count = triangles ? sphere_mesh(particles.position[i], particles.radius[i],
                                                    std::get<body::Mesh>(gb.parts.front()),
                                                    threshold, *triangles, found, kMaxPerBody)
                                      : sphere_global(particles.position[i], particles.radius[i],
                                                      gb, threshold, found, kMaxPerBody);
  if (count == 0) return;
  const std::size_t n = particles.size();
  for (std::size_t c = 0; c < count; ++c)
    contacts.push_back(BodyIndex(i), BodyIndex(n + k), found[c].point, found[c].normal,
                       found[c].gap);
}

// Particles against global bodies (few of them; every process knows all).
void detect_global(const body::Particles& particles, const body::GlobalBodies& globals,
                   const body::ShapeTable& shapes, PolyhedronPlacements& placements,
                   double threshold, ContactList& contacts) {
  for (std::size_t i = 0; i < particles.size(); ++i)
    for (std::size_t k = 0; k < globals.size(); ++k)
      detect_global_pair(particles, globals, shapes, placements, threshold, i, k, contacts);
}

}  // namespace

void ContactDetection::detect(const body::Particles& particles, const body::GlobalBodies& globals,
                              const body::ShapeTable& shapes, double threshold,
                              ContactList& contacts) {
  contacts.clear();
  contacts.num_particles = particles.size();
  placements_.clear();
  if (particles.size() == 0) return;
  // Particle pairs: cells of edge ≥ largest diameter + threshold.
  cells_.build(particles.position, 2.0 * particles.max_radius() + threshold);
  cells_.for_each_candidate_pair([&](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t i = std::min(a, b), j = std::max(a, b);
    if (particles.fixed[i] != 0 && particles.fixed[j] != 0) return;  // neither can move
    detect_pair(particles, shapes, placements_, threshold, i, j, contacts);
  });
  detect_global(particles, globals, shapes, placements_, threshold, contacts);
}

void ContactDetection::detect(const NeighbourList& list, const body::Particles& particles,
                              const body::GlobalBodies& globals, const body::ShapeTable& shapes,
                              double threshold, ContactList& contacts) {
  contacts.clear();
  contacts.num_particles = particles.size();
  placements_.clear();
  // Two passes over the candidates: first, which are within reach, without a branch per
  // candidate (about a third are: a branch mispredicts often); then the narrow phase of those,
  // which repeats the reach test (the same contacts in the same order).
  const auto& pairs = list.pairs();
  const auto& x = particles.position;
  const auto& r = particles.radius;
  within_reach_.resize(pairs.size());
  std::size_t hits = 0;
  for (std::size_t c = 0; c < pairs.size(); ++c) {
    const auto [i, j] = pairs[c];
    const double reach = r[i] + r[j] + threshold;
    within_reach_[hits] = std::uint32_t(c);
    hits += (x[i] - x[j]).squaredNorm() <= reach * reach ? 1 : 0;
  }
  const auto polyhedral = [&](body::ShapeIndex k) {
    return k != body::kSphere && body::is_polyhedral(shapes[k].kind);
  };
  if (!shapes.has_polyhedra() ||
      std::none_of(particles.shape.begin(), particles.shape.end(), polyhedral)) {
    for (std::size_t h = 0; h < hits; ++h) {
      const auto [i, j] = pairs[within_reach_[h]];
      detect_pair(particles, shapes, placements_, threshold, i, j, contacts);
    }
  } else {
    // Polyhedral particles: the pairs proven apart at an earlier step and still apart by the
    // bodies' travel since are skipped (PairClearance), the others tested and recorded.
    clearance_.advance(particles, list.generation(), pairs);
    for (std::size_t h = 0; h < hits; ++h) {
      const std::size_t c = within_reach_[h];
      const auto [i, j] = pairs[c];
      if (clearance_.apart(c, i, j)) {
        ++skipped_;
        continue;
      }
      ++tested_;
      // A sphere pair leaves it NaN (nothing known); shaped pairs set it (shaped_pair_contacts).
      double apart = std::numeric_limits<double>::quiet_NaN();
      detect_pair(particles, shapes, placements_, threshold, i, j, contacts, &apart);
      clearance_.record(c, i, j, apart, threshold, particles);
    }
  }
  // The bodies placed as at the build: their candidates; the others: every particle. Either
  // way in the order of a full search (by particle, then body).
  moved_.assign(globals.size(), 0);
  bool any_moved = false;
  for (std::size_t k = 0; k < globals.size(); ++k) {
    moved_[k] = list.global_moved(globals, k) ? 1 : 0;
    any_moved = any_moved || moved_[k] != 0;
  }
  const auto& candidates = list.global_pairs();
  if (!any_moved) {
    for (std::size_t c = 0; c < candidates.size(); ++c)
      if (const auto [i, k] = candidates[c]; k < globals.size())
        detect_global_pair(particles, globals, shapes, placements_, threshold, i, k, contacts,
                           list.mesh_candidates(c));
    return;
  }
  std::size_t c = 0;
  for (std::size_t i = 0; i < particles.size(); ++i)
    for (std::size_t k = 0; k < globals.size(); ++k) {
      const std::pair<std::uint32_t, std::uint32_t> pair{std::uint32_t(i), std::uint32_t(k)};
      while (c < candidates.size() && candidates[c] < pair) ++c;  // (of a body gone since)
      const bool listed = c < candidates.size() && candidates[c] == pair;
      if (listed) ++c;
      if (listed || moved_[k] != 0)
        detect_global_pair(particles, globals, shapes, placements_, threshold, i, k, contacts,
                           moved_[k] != 0 ? std::nullopt : list.mesh_candidates(c - 1));
    }
}

}  // namespace granite::collision
