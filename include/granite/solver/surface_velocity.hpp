#pragma once
// Conveyor belts (`surface_velocity` of a global body, docs/global_bodies.md): a surface that
// moves along itself while the body stays where it is. At a contact with normal n the belt's
// surface moves at s_t = s − (s·n) n, the given velocity's tangential part, on top of the body's
// own wall velocity v + ω × r₂, so the contact sees u = v₁ + ω₁ × r₁ − (v₂ + ω₂ × r₂ + s_t).
//
// A global body has infinite mass: its BodyState never changes during the relaxation. Each
// contact with a belt therefore gets a BodyState of its own, the body's with v₂ + s_t, appended
// after the particles' and global bodies' states, and the contact's body2 points to it. The
// solvers see a wall velocity that differs per contact and need no term of their own: runs
// without belts are unchanged, and every solver (Gauss–Seidel, APGD, Lemke, the compatible
// pass, FCLIB export) takes belts into account.
#include "granite/body/global_body.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"

#include <vector>

namespace granite::solver {

/// Gives every contact with a global body that has a surface velocity its own body state
/// (appended to `states`, which predict_velocities sized to particle_count + globals) with that
/// velocity's tangential part added, and points the contact's body2 to it. Call after every
/// other use of body2 as a global body's index (setup_rolling).
void add_surface_velocities(const body::GlobalBodies& globals, std::size_t particle_count,
                            std::vector<SolverContact>& contacts, std::vector<BodyState>& states);

}  // namespace granite::solver
