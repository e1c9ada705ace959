#pragma once
// Per-body velocity state of the contact solver, one entry per particle followed by one per
// global body (infinite mass: zero inverse mass and inertia, prescribed velocity), so that the
// relaxation needs no branch on the body kind.
//
// v, w are the velocities the bodies would have at t + dt without contacts (explicit part of
// §3.1): v + dt f/m and ω + I⁻¹ dt (τ − ω × Iω), the gyroscopic term −dt I⁻¹ ω × Iω taken
// implicitly (body_state.cpp; zero for a sphere). dv, dw accumulate the velocity corrections of
// all contact impulses, so the end-of-step velocities are v + dv and w + dw.
#include "granite/body/global_body.hpp"
#include "granite/body/particles.hpp"
#include "granite/core/types.hpp"

#include <vector>

namespace granite::solver {

struct BodyState {
  Vec3 v;
  Vec3 w;
  Vec3 dv;
  Vec3 dw;
  double inverse_mass;
  // inverse_inertia = kE (a sphere; 0 for a global body), set by predict_velocities. False is
  // always safe: it only selects the general product below. Before the tensor, so that what a
  // sphere's update reads (v to inverse_inertia(0, 0)) is 120 contiguous bytes.
  bool isotropic = false;
  Mat3 inverse_inertia;  // world frame, R I0⁻¹ Rᵀ

  /// I⁻¹ m: for a sphere k m, 3 products instead of 15 operations (the sweep's inner loop).
  Vec3 angular_response(const Vec3& m) const {
    return isotropic ? Vec3(inverse_inertia(0, 0) * m) : Vec3(inverse_inertia * m);
  }
};

/// Fills `states` (resized to particles + globals, capacity reused) with the predicted
/// velocities under gravity and the particles' external forces/torques, including the
/// gyroscopic term (one Newton step of backward Euler in the body frame), and zero corrections.
void predict_velocities(const body::Particles& particles, const body::GlobalBodies& globals,
                        const Vec3& gravity, double dt, std::vector<BodyState>& states);

}  // namespace granite::solver
