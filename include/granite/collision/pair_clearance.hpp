#pragma once
// Temporal coherence for the narrow phase of polyhedral pairs (issue 37, the cost of boxes).
// In a pile most candidate pairs of a brick's neighbour list are apart, and the separating
// axes (or GJK) prove it again every step at the cost of a contact. A pair proven apart by a
// distance d > threshold stays apart while the two bodies' surfaces have moved, together, by
// less than d − threshold: such a pair is skipped, with exactly the result its narrow phase
// would give (none).
//
// The motion bound: a point r from a body's centre of mass moves from x + R r to x' + R' r,
// by at most |x' − x| + ‖R' − R‖ |r| = |x' − x| + 2 |sin(θ/2)| |r|, θ the angle of R'Rᵀ, and
// |sin(θ/2)| is the norm of the vector part of q' q̄. With |r| <= the bounding radius, each
// particle's travel since it was first seen is the sum of these per detection.
//
// The records follow the particles by id: when the list is built anew (the locality sort
// permutes the particles, a remap renames them, particles migrate), each particle's travel and
// each pair's record move to their new indices, and the pairs the new list holds that the old
// one did not are tested. An id found twice (a periodic image beside its particle) is not
// followed: its pairs are tested. Nothing of it is checkpointed: a skipped pair has no contact
// either way, so a restart that tests every pair once more finds the same contacts bit for bit.
#include "granite/body/particles.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace granite::collision {

class PairClearance {
public:
  /// A new detection over the candidate pairs `pairs` (sorted) of the list of this generation:
  /// each particle's travel since the last call is added (or everything starts afresh).
  void advance(const body::Particles& particles, std::uint64_t generation,
               const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs);

  /// Candidate pair c of particles i and j is still farther apart than the threshold it was
  /// recorded with.
  bool apart(std::size_t c, std::uint32_t i, std::uint32_t j) const {
    return travel_[i] + travel_[j] < limit_[c];
  }

  /// Candidate pair c of particles i and j was tested: it is at least `distance` apart (a
  /// certified lower bound), or NaN when it has a contact or nothing is known (then it is
  /// tested again at the next detection).
  void record(std::size_t c, std::uint32_t i, std::uint32_t j, double distance, double threshold,
              const body::Particles& particles);

private:
  using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  // The particles' old indices by id (from_, -1: new or ambiguous) and their state there.
  void follow_particles(const body::Particles& particles);
  // The new list's pairs' records from the old list's (through from_).
  void follow_pairs(const Pairs& pairs);

  std::uint64_t generation_ = ~std::uint64_t(0);
  std::vector<double> travel_;  // per particle: bound on any surface point's move (m)
  std::vector<Vec3> position_;  // per particle: where it was at the last advance
  std::vector<Quat> orientation_;
  std::vector<BodyId> id_;
  std::vector<double> limit_;       // per pair: apart while travel_i + travel_j < limit
  Pairs pairs_;                     // of limit_ (a copy)
  std::vector<std::int64_t> from_;  // scratch: per particle, its old index or -1
};

}  // namespace granite::collision
