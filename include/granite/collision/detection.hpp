#pragma once
// Contact detection for one step: the particle pairs (from linked cells, or from a neighbour
// list's candidates), and every particle against every global body. Contacts with gap <
// threshold are reported (closing contacts with 0 < ξ < threshold included). Order:
// particle–particle contacts in broad-phase (or candidate) order, then particle–global contacts
// by particle index. Reuses its buffers.
#include "granite/body/global_body.hpp"
#include "granite/body/material.hpp"
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/collision/linked_cells.hpp"
#include "granite/collision/neighbour_list.hpp"

namespace granite::collision {

class ContactDetection {
public:
  /// Clears `contacts` and fills it by a full search. threshold >= 0 (m).
  void detect(const body::Particles& particles, const body::GlobalBodies& globals,
              const body::MaterialTable& materials, double threshold, ContactList& contacts);
  /// The same contacts from the candidates of `list`, built on these particles (same indices)
  /// with the same threshold, while !list.stale(). The global bodies are searched in full:
  /// they may move any distance in a step.
  void detect(const NeighbourList& list, const body::Particles& particles,
              const body::GlobalBodies& globals, const body::MaterialTable& materials,
              double threshold, ContactList& contacts);

private:
  LinkedCells cells_;
};

}  // namespace granite::collision
