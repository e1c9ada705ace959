#pragma once
// Semi-implicit Euler (paper §3.1): velocities explicit, positions implicit in the new velocity
//   v' = v + dt f/m + δv,   ω' = ω + I⁻¹ dt (τ − ω×Iω) + δω,
//   x' = x + dt v',         φ' = normalize(φ + dt Q(φ) ω'),   Q(φ)ω = ½ (0, ω) ⊗ φ
// (ω in the world frame). The predicted parts v + dt f/m etc. come from BodyState::v, w.
#include "granite/body/global_body.hpp"
#include "granite/body/particles.hpp"
#include "granite/solver/body_state.hpp"

#include <vector>

namespace granite::timestep {

/// Quaternion rate step: normalize(φ + dt Q(φ) ω) with ω in the world frame.
Quat integrate_orientation(const Quat& phi, const Vec3& omega, double dt);

/// Writes the end-of-step velocities of the particles from `states` (first particles.size()
/// entries) and advances positions, orientations and kinematic global bodies by dt.
void integrate(body::Particles& particles, body::GlobalBodies& globals,
               const std::vector<solver::BodyState>& states, double dt);

}  // namespace granite::timestep
