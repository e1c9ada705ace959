// The non-finite state check (see include/granite/timestep/finite_state.hpp).
#include "granite/timestep/finite_state.hpp"

namespace granite::timestep {

namespace {

// A body of contact j's body index: an owned particle by id, a ghost (dropped at the end of the
// step, so only its owner knows its id) or a global body.
std::string contact_body(const Simulation& sim, std::size_t index) {
  const collision::ContactList& contacts = sim.contacts();
  if (index >= contacts.num_particles)
    return "global body " + std::to_string(index - contacts.num_particles);
  if (index < sim.owned_count()) return "particle " + std::to_string(sim.particles().id[index]);
  return "a particle of a neighbouring process";
}

}  // namespace

std::string non_finite_state(const Simulation& sim) {
  // Impulses first: a non-finite impulse makes both bodies' velocities non-finite, and the
  // contact is the nearer cause.
  const collision::ContactList& contacts = sim.contacts();
  const std::vector<Vec3>& impulses = sim.impulses();
  for (std::size_t j = 0; j < impulses.size(); ++j)
    if (!impulses[j].allFinite())
      return "the impulse of the contact between " + contact_body(sim, contacts.body1[j]) +
             " and " + contact_body(sim, contacts.body2[j]) + " is not finite";
  const body::Particles& p = sim.particles();
  for (std::size_t i = 0; i < sim.owned_count(); ++i) {
    const char* what = !p.position[i].allFinite()           ? "position"
                       : !p.velocity[i].allFinite()         ? "velocity"
                       : !p.angular_velocity[i].allFinite() ? "angular velocity"
                                                            : nullptr;
    if (what) return "particle " + std::to_string(p.id[i]) + " has a non-finite " + what;
  }
  return "";
}

}  // namespace granite::timestep
