#pragma once
// Contact detection for one step: linked cells + narrow phase for particle pairs, and every
// particle against every global body. Contacts with gap < threshold are reported (closing
// contacts with 0 < ξ < threshold included). Order: particle–particle contacts in broad-phase
// order, then particle–global contacts by particle index. Reuses its buffers.
#include "granite/body/global_body.hpp"
#include "granite/body/material.hpp"
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/collision/linked_cells.hpp"

namespace granite::collision {

class ContactDetection {
public:
  /// Clears `contacts` and fills it. threshold >= 0 (m).
  void detect(const body::Particles& particles, const body::GlobalBodies& globals,
              const body::MaterialTable& materials, double threshold, ContactList& contacts);

private:
  LinkedCells cells_;
};

}  // namespace granite::collision
