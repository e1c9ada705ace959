// Contact responsibility and the Jacobi weight (see include/granite/parallel/contact_ownership.hpp).
#include "granite/parallel/contact_ownership.hpp"

namespace granite::parallel {

void retain_responsible_contacts(collision::ContactList& contacts, const body::Particles& particles,
                                 std::size_t owned) {
  const std::size_t n = particles.size();
  if (owned == n) return;  // no ghosts (one rank): every contact is this process's
  contacts.retain([&](std::size_t j) {
    const std::size_t a = contacts.body1[j], b = contacts.body2[j];
    if (b >= n) return a < owned;  // with a global body: the particle's owner
    const bool a_owned = a < owned, b_owned = b < owned;
    if (a_owned && b_owned) return true;
    if (!a_owned && !b_owned) return false;
    const BodyId mine = particles.id[a_owned ? a : b], other = particles.id[a_owned ? b : a];
    return mine < other;
  });
}

void weigh_ghost_contacts(std::vector<solver::SolverContact>& contacts, std::size_t owned,
                          std::size_t particle_count, double weight) {
  if (owned == particle_count) return;  // no ghosts: every contact keeps the setup's weight 1
  for (auto& c : contacts)
    if ((c.body2 >= owned && c.body2 < particle_count) || c.body1 >= owned) c.weight = weight;
}

}  // namespace granite::parallel
