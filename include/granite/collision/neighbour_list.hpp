#pragma once
// Verlet neighbour list with a skin (as LAMMPS's `neighbor ... bin` with `neigh_modify check
// yes`): at a build, every particle pair closer than r_i + r_j + threshold + skin becomes a
// candidate (found with linked cells); detection then runs only the narrow phase over the
// candidates. While no particle has moved more than skin/2 from where it was at the build
// (Particles::neighbour_reference), two particles that were not candidates are still more than
// r_i + r_j + threshold apart, so the candidates hold every contact a full search would find.
//
// The pairs are sorted (i < j, by i then j): the list depends only on the particles' indices
// and reference positions, so a restart rebuilds exactly the list of the uninterrupted run
// from the references in its checkpoint. It is valid only while the particles keep their
// indices: deletions are followed by remap(); insertions make it stale().
//
// The same build lists the candidate (particle, global body) pairs: a particle whose centre was
// within r + threshold + skin of one of the body's members (body::signed_distance). A member's
// contact gaps are never below its signed distance minus r, and the signed distance changes by
// at most a particle's move plus the body's translation, so while the particles stay within
// skin/2 and every member of the body is where it was at the build or translated from there by
// at most skin/2 (a kinematic wall, the inflow piston between builds), every contact a full
// search finds is among them (the particle pairs' margin). A body that has moved otherwise
// (further, turned, resized, any change of its members) is not covered by its candidates:
// global_moved() tells the detection to search it in full.
//
// For a sphere near a mesh wall the build also keeps the mesh's triangles whose boxes are within
// r + threshold + skin of the sphere's reference position, in the mesh's frame
// (mesh_candidates()): while the sphere stays within skin/2 and the mesh within a translation
// of skin/2, they hold every triangle within r + threshold of the sphere (the same margin), so
// the detection scans them instead of descending the mesh's tree every step.
#include "granite/body/global_body.hpp"
#include "granite/body/particles.hpp"
#include "granite/collision/linked_cells.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace granite::collision {

class NeighbourList {
public:
  /// Candidate pairs among all of `particles` (pairs of two fixed particles left out), at
  /// their positions, which become the references of the tracked particles [0, tracked) (the
  /// bodies this process moves; ghosts come with their owners' references). With
  /// `at_references`, the pairs are found at the particles' neighbour_reference instead and
  /// nothing is written (a restart). skin >= 0 (m).
  /// The candidate (particle, global body) pairs are found against `globals` where they are
  /// now, which the list remembers.
  void build(body::Particles& particles, std::size_t tracked, const body::GlobalBodies& globals,
             double threshold, double skin, bool at_references = false);

  /// True if the list may miss a contact of `particles`: never built, the first `tracked`
  /// particles are not those of the build (count or ids), or one of them has moved farther
  /// than skin/2 from its reference. `deleted`: empty, or (particles were deleted since the
  /// build or the last remap) for each tracked particle of the list its present index or -1.
  bool stale(const body::Particles& particles, std::size_t tracked,
             const std::vector<std::int64_t>& deleted = {}) const;

  /// After particles were deleted without a rebuild: `map[i]` is the new index of the particle
  /// that had index i (the tracked ones first, then the ghosts), or -1 if it is gone. Pairs with
  /// a deleted particle are dropped and the others renamed, in their order (map is monotone);
  /// the same for the (particle, global body) pairs.
  void remap(const std::vector<std::int64_t>& map);

  /// A restart: takes the tracked particles [0, tracked) as those of a build whose pairs are
  /// not known yet, so that stale() can decide from their references whether to build anew
  /// or to build at the references.
  void adopt(const body::Particles& particles, std::size_t tracked, double skin);

  bool built() const { return built_; }
  void invalidate() {
    built_ = false;
    ++generation_;
  }
  /// Changes whenever the pairs or the particles' indices may have: at every build, adopt,
  /// remap and invalidate (PairClearance keys its state to it).
  std::uint64_t generation() const { return generation_; }
  std::size_t size() const { return pairs_.size(); }
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs() const { return pairs_; }
  /// Candidate (particle index, global body index) pairs, sorted by particle then body.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& global_pairs() const {
    return global_pairs_;
  }
  /// True if global body k is not placed as at the build up to a translation of each member by
  /// at most skin/2 (or did not exist then): its candidates do not cover it, it must be
  /// searched against every particle.
  bool global_moved(const body::GlobalBodies& globals, std::size_t k) const;
  /// For global_pairs()[c], a sphere and a mesh wall: the mesh's candidate triangles (header),
  /// in increasing order; nullopt for other pairs.
  std::optional<std::span<const std::int32_t>> mesh_candidates(std::size_t c) const {
    const auto [begin, end] = mesh_ranges_[c];
    if (begin == kNoMesh) return std::nullopt;
    return std::span<const std::int32_t>(mesh_triangles_.data() + begin, end - begin);
  }

private:
  static constexpr std::uint32_t kNoMesh = ~std::uint32_t(0);
  // Appends the candidate triangles of a sphere at x with this reach if `body` is a mesh wall
  // and returns their range in mesh_triangles_ ({kNoMesh, kNoMesh} otherwise).
  std::array<std::uint32_t, 2> gather_triangles(const body::GlobalBody& body, const Vec3& x,
                                                double reach);

  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> global_pairs_;
  std::vector<std::vector<body::Primitive>> global_parts_;  // the global bodies at the build
  std::vector<std::array<std::uint32_t, 2>> mesh_ranges_;   // per global pair: its triangles
  std::vector<std::int32_t> mesh_triangles_;
  std::vector<BodyId> ids_;  // of the tracked particles
  double skin_ = 0.0;
  bool built_ = false;
  std::uint64_t generation_ = 0;
};

}  // namespace granite::collision
