#pragma once
// Verlet neighbour list with a skin (as LAMMPS's `neighbor ... bin` with `neigh_modify check
// yes`): at a build, every particle pair closer than r_i + r_j + threshold + skin becomes a
// candidate (found with linked cells); detection then runs only the narrow phase over the
// candidates. While no particle has moved more than skin/2 from where it was at the build, two
// particles that were not candidates are still more than r_i + r_j + threshold apart (each
// moved at most skin/2), so the candidates hold every contact a full detection would find.
//
// The list is in the particle indices of its build: it is valid only while the particles keep
// their indices (no insertion, deletion or reordering; stale() checks the ids).
#include "granite/body/particles.hpp"
#include "granite/collision/linked_cells.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace granite::collision {

class NeighbourList {
public:
  /// Candidate pairs among all of `particles` (i < j, in linked-cell order, pairs of two fixed
  /// particles left out); the references for stale() are particles [0, tracked) (the bodies
  /// this process moves; ghosts follow their owners). skin >= 0 (m).
  void build(const body::Particles& particles, std::size_t tracked, double threshold, double skin);

  /// True if the list may miss a contact of `particles`: never built, the first `tracked`
  /// particles are not the ones of the build (count or ids), or one of them has moved farther
  /// than skin/2 from its position at the build. `deleted`: empty, or (particles were deleted
  /// since the build or the last remap) for each tracked particle of the list its present
  /// index or -1, as for remap().
  bool stale(const body::Particles& particles, std::size_t tracked,
             const std::vector<std::int64_t>& deleted = {}) const;

  /// After particles were deleted without a rebuild: `map[i]` is the new index of the
  /// particle that had index i (owned ones [0, tracked) of the build first, then the ghosts),
  /// or -1 if it is gone. Pairs with a deleted particle are dropped, the others renamed in
  /// their order; the references follow the tracked survivors. `map` covers every index the
  /// pairs use.
  void remap(const std::vector<std::int64_t>& map);

  bool built() const { return built_; }
  void invalidate() { built_ = false; }
  std::size_t size() const { return pairs_.size(); }
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs() const { return pairs_; }
  double skin() const { return skin_; }

private:
  LinkedCells cells_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs_;
  std::vector<Vec3> reference_;  // positions of the tracked particles at the build
  std::vector<BodyId> ids_;      // their ids
  double skin_ = 0.0;
  bool built_ = false;
};

}  // namespace granite::collision
