#pragma once
// APGD (solver/apgd.hpp) on a time step's contacts, matrix-free: N = J M⁻¹ Jᵀ is never formed.
// One product N γ is "zero the corrections, apply the impulses γ to the bodies, exchange the
// ghost corrections (distributed runs: the same halo exchange as after a Gauss–Seidel sweep),
// read the contacts' relative velocities". The linear term is the contacts' predicted relative
// velocity plus the gap term, p_j = Q_jᵀ u_j(v, ω) + g_j e_n, so that one contact alone is the
// single-contact problem with b = −p (include/granite/contact/single_contact.hpp).
#include "granite/solver/apgd.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"
#include "granite/solver/exchange.hpp"
#include "granite/solver/rolling.hpp"

#include <cstddef>
#include <vector>

namespace granite::solver {

/// Runs APGD on the contacts from the start `impulses` (contact frames; one per contact) and
/// leaves the best iterate in `impulses` and its velocity corrections in `bodies`. With
/// `rolling` (its joint blocks set up, solver/rolling_ccp.hpp) the torque blocks' τ/R* are
/// unknowns too, projected with their contact's impulse onto the joint cone, and their start
/// and result are rolling->torques.
ApgdResult apgd_step(const ApgdSettings& settings, const std::vector<SolverContact>& contacts,
                     std::vector<Vec3>& impulses, std::vector<BodyState>& bodies,
                     Exchange& exchange = local_exchange(), RollingBlocks* rolling = nullptr);

}  // namespace granite::solver
