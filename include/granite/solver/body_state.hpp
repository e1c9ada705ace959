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
  // The world-frame inverse inertia R I0⁻¹ Rᵀ: kE for an isotropic body (a sphere, whose
  // R (kE) Rᵀ is kE in every orientation; 0 for a global body), kept as k alone, and otherwise
  // the tensor in the states' table (BodyStates::tensors; `general` points into it). A sphere
  // stores no 3×3 tensor here (issue 44): 120 bytes per body instead of 184.
  double inverse_inertia_k = 0.0;
  const Mat3* general = nullptr;

  bool isotropic() const { return general == nullptr; }
  /// The tensor: kE (every off-diagonal +0, as the sphere's I0⁻¹ is formed), or the table's.
  Mat3 inverse_inertia() const {
    return general != nullptr ? *general : Mat3(inverse_inertia_k * Mat3::Identity());
  }
  /// I⁻¹ m: for a sphere k m, 3 products instead of 15 operations (the sweep's inner loop).
  Vec3 angular_response(const Vec3& m) const {
    return general != nullptr ? Vec3(*general * m) : Vec3(inverse_inertia_k * m);
  }
  /// An isotropic body's inverse inertia kE, or the general tensor `*tensor` (which must
  /// outlive the state).
  void set_inverse_inertia(double k) {
    inverse_inertia_k = k;
    general = nullptr;
  }
  void set_inverse_inertia(const Mat3* tensor) {
    inverse_inertia_k = 0.0;
    general = tensor;
  }
};

/// The states of a step's bodies (particles first, then global bodies) and the table of the
/// world-frame inverse inertia tensors of the bodies that are not isotropic, which their
/// states point to. A copy's states point to the copy's table; a move keeps the table's storage.
/// (The solvers take the states as `std::vector<BodyState>&`: the table is the owner's.)
struct BodyStates : std::vector<BodyState> {
  BodyStates() = default;
  BodyStates(BodyStates&&) = default;
  BodyStates& operator=(BodyStates&&) = default;
  BodyStates(const BodyStates& other) : std::vector<BodyState>(other), tensors(other.tensors) {
    rebase(other);
  }
  BodyStates& operator=(const BodyStates& other) {
    std::vector<BodyState>::operator=(other);
    tensors = other.tensors;
    rebase(other);
    return *this;
  }
  std::vector<Mat3> tensors;

private:
  void rebase(const BodyStates& other) {
    for (BodyState& s : *this)
      if (s.general != nullptr) s.general = tensors.data() + (s.general - other.tensors.data());
  }
};

/// Fills `states` (resized to particles + globals, capacity reused) with the predicted
/// velocities under gravity and the particles' external forces/torques, including the
/// gyroscopic term (one Newton step of backward Euler in the body frame), and zero corrections.
void predict_velocities(const body::Particles& particles, const body::GlobalBodies& globals,
                        const Vec3& gravity, double dt, BodyStates& states);

}  // namespace granite::solver
