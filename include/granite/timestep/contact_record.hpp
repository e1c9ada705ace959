#pragma once
// A self-contained copy of one step's contacts for output (the snapshots' /contacts group):
// the bodies by id, not by index (indices of ghost bodies are gone once the step ends), the
// witness points on both bodies' surfaces, the normal, the gap and the impulse in the world
// frame. Filled by Simulation::step() when recording is switched on (set_record_contacts).
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/core/types.hpp"
#include "granite/solver/compatible_forces.hpp"
#include "granite/solver/rolling.hpp"

#include <string>

#include <vector>

namespace granite::timestep {

/// Id written for global body k in place of a particle id: −1 − k (particle ids are >= 0).
inline BodyId global_body_contact_id(std::size_t k) { return -1 - BodyId(k); }

struct ContactRecord {
  std::vector<BodyId> body1;  // particle id of body 1
  std::vector<BodyId> body2;  // particle id of body 2, or global_body_contact_id(k)
  std::vector<Vec3> point1;   // witness point on body 1's surface (m)
  std::vector<Vec3> point2;   // witness point on body 2's surface (m)
  std::vector<Vec3> normal;   // unit normal from body 2 to body 1
  std::vector<Vec3> impulse;  // impulse on body 1 in the world frame (N s); body 2 gets −impulse
  std::vector<double> gap;    // signed gap ξ (m), negative = penetration
  // With rolling or spinning resistance (`rolling`, the same on every process): the torque
  // impulse on body 1 in the world frame (N m s), a couple (body 2 gets −torque); zero where
  // the pair has none. Else empty.
  bool rolling = false;
  std::vector<Vec3> torque;
  double dt = 0.0;  // the step's dt (force = impulse / dt)
  // The compatible normal impulse of each contact (N s, along `normal`, on body 1), when the
  // step had a compatible pass (`compatible`; the same on every process); else empty.
  bool compatible = false;
  std::vector<double> compatible_impulse;
  // With `compatible`: the pass's law ("hooke", "hertz"), tolerance and figures (the same on
  // every process), written as attributes of /contacts.
  std::string compatible_law;
  double compatible_tolerance = 0.0;
  solver::CompatibleResult compatible_result;

  std::size_t size() const { return body1.size(); }
};

/// Fills `out` from a step's contacts and their contact-frame impulses (λ_n, λ_t, λ_o), with
/// `particles` still holding the bodies the contacts index (ghosts included), and the
/// compatible normal impulses of the step if it had a compatible pass (indexed alike), and the
/// torque impulses of its torque blocks with rolling resistance.
void record_contacts(const collision::ContactList& contacts, const std::vector<Vec3>& impulses,
                     const body::Particles& particles, double dt, ContactRecord& out,
                     const std::vector<double>* compatible = nullptr,
                     const solver::RollingBlocks* rolling = nullptr);

}  // namespace granite::timestep
