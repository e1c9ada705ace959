#pragma once
// For the solver's unit tests: a solver contact between bodies 0 and 1 (the frame from a unit
// normal, t and o as the setup forms them, a given Delassus block and lever arms, no gap), and
// a moving body with a general inverse inertia tensor; a scene's contacts detected and set up.
#include "granite/collision/detection.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"

namespace granite::test_support {

inline solver::SolverContact solver_contact(const Vec3& normal, const Mat3& A, const Vec3& r1,
                                            const Vec3& r2, double mu) {
  solver::SolverContact c{};
  c.set_frame(normal);
  c.A = A;
  c.reduction = contact::block_reduction(c.A.full());
  c.r1 = r1;
  c.r2 = r2;
  c.gap_term = 0.0;
  c.mu = mu;
  c.body1 = 0;
  c.body2 = 1;
  return c;
}

/// A body moving at random velocities (v, then ω, each component drawn from `u` in order), no
/// corrections yet, with inverse mass `inverse_mass` and the inverse inertia `*tensor` (which
/// must outlive the state).
template <class Rng, class Distribution>
solver::BodyState random_moving_body(Rng& rng, Distribution& u, double inverse_mass,
                                     const Mat3* tensor) {
  solver::BodyState b{Vec3(u(rng), u(rng), u(rng)), Vec3(u(rng), u(rng), u(rng)), Vec3::Zero(),
                      Vec3::Zero(), inverse_mass};
  b.set_inverse_inertia(tensor);
  return b;
}

/// A scene's contacts (the full search with `threshold`), the bodies' predicted states without
/// gravity, and the solver contacts the setup forms from them (dt 1e-4 s, ε 0.2).
struct SetUpScene {
  collision::ContactList contacts;
  solver::BodyStates states;
  std::vector<solver::SolverContact> setup;
};
inline SetUpScene set_up_scene(const body::Particles& particles, const body::GlobalBodies& globals,
                               const body::MaterialTable& materials, const body::ShapeTable& shapes,
                               double threshold) {
  SetUpScene s;
  collision::ContactDetection detection;
  detection.detect(particles, globals, shapes, threshold, s.contacts);
  solver::predict_velocities(particles, globals, Vec3::Zero(), 1e-4, s.states);
  solver::setup_contacts(s.contacts, particles, globals, materials, s.states, 1e-4, 0.2, s.setup);
  return s;
}

}  // namespace granite::test_support
