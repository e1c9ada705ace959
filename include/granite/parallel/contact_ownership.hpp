#pragma once
// Which process relaxes which contact in a distributed step, and how. Particles [0, owned) are
// this process's own bodies, the rest are ghosts (copies of neighbours' bodies); body indices
// >= the particle count are global bodies, which every process holds.
//
// Responsibility (one process per contact): a contact with a global body, or between two owned
// bodies, belongs to this process; between an owned body and a ghost, to the owner of the body
// with the smaller BodyId (both processes see the contact and decide alike); between two
// ghosts, to nobody here (their owners see it).
//
// Contacts with a ghost body are relaxed at the same time as other processes relax the ghost's
// other contacts (the Jacobi part of the hybrid relaxation), so their impulse updates carry the
// weight ω.
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/solver/contact_setup.hpp"

#include <cstddef>
#include <vector>

namespace granite::parallel {

/// Keeps, in order, the contacts this process is responsible for.
void retain_responsible_contacts(collision::ContactList& contacts, const body::Particles& particles,
                                 std::size_t owned);

/// Sets the weight of every contact with a ghost body to `weight` (ω).
void weigh_ghost_contacts(std::vector<solver::SolverContact>& contacts, std::size_t owned,
                          std::size_t particle_count, double weight);

}  // namespace granite::parallel
