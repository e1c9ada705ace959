#pragma once
// Contact detection for one step: the particle pairs (from linked cells, or from a neighbour
// list's candidates), and the particles against the global bodies (all, or a neighbour list's
// candidates for the bodies that have not moved since its build). Contacts with gap <
// threshold are reported (closing contacts with 0 < ξ < threshold included). Order:
// particle–particle contacts in broad-phase (or candidate) order, then particle–global contacts
// by particle index. Reuses its buffers.
#include "granite/body/global_body.hpp"
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/collision/linked_cells.hpp"
#include "granite/collision/neighbour_list.hpp"
#include "granite/collision/pair_clearance.hpp"
#include "granite/collision/polyhedron_placements.hpp"

namespace granite::collision {

class ContactDetection {
public:
  /// Clears `contacts` and fills it by a full search. threshold >= 0 (m).
  /// `shapes`: the table of the particles' shape indices (shape_contacts.hpp).
  void detect(const body::Particles& particles, const body::GlobalBodies& globals,
              const body::ShapeTable& shapes, double threshold, ContactList& contacts);
  /// The same contacts from the candidates of `list`, built on these particles (same indices)
  /// with the same threshold, while !list.stale(). A global body placed as at the build is
  /// tested against its candidate particles only, one that has moved since against every
  /// particle (NeighbourList::global_moved).
  void detect(const NeighbourList& list, const body::Particles& particles,
              const body::GlobalBodies& globals, const body::ShapeTable& shapes, double threshold,
              ContactList& contacts);

  /// With polyhedra in the shape table: the candidate pairs within reach the list path skipped
  /// as proven apart (PairClearance) and those it tested (of any shapes), since construction.
  std::uint64_t pairs_skipped() const { return skipped_; }
  std::uint64_t pairs_tested() const { return tested_; }

private:
  LinkedCells cells_;
  std::vector<char> moved_;  // per global body: not covered by the list's candidates
  std::vector<std::uint32_t> within_reach_;  // the candidates the narrow phase tests
  PolyhedronPlacements placements_;          // the polyhedral particles, placed once each
  PairClearance clearance_;                  // the candidate pairs proven apart
  std::uint64_t skipped_ = 0, tested_ = 0;
};

}  // namespace granite::collision
