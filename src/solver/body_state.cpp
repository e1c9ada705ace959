#include "granite/solver/body_state.hpp"

namespace granite::solver {

void predict_velocities(const body::Particles& particles, const body::GlobalBodies& globals,
                        const Vec3& gravity, double dt, std::vector<BodyState>& states) {
  const std::size_t n = particles.size();
  states.resize(n + globals.size());
  for (std::size_t i = 0; i < n; ++i) {
    BodyState& s = states[i];
    s.dv.setZero();
    s.dw.setZero();
    s.inverse_mass = particles.inverse_mass[i];
    const Vec3& w = particles.angular_velocity[i];
    // §3.1: v + dt f/m and ω + I⁻¹ dt (τ − ω × Iω); a fixed particle (inverse mass 0) feels
    // no gravity either.
    s.v = particles.velocity[i] + (s.inverse_mass > 0.0
                                       ? Vec3(dt * (gravity + s.inverse_mass * particles.force[i]))
                                       : Vec3::Zero());
    const Mat3& I0 = particles.body_inertia[i];
    const Mat3& I0_inverse = particles.inverse_body_inertia[i];
    if (is_isotropic(I0) && is_isotropic(I0_inverse)) {
      // A sphere: R (kE) Rᵀ = kE in every orientation, and ω × (kω) = 0.
      s.inverse_inertia = I0_inverse;
      s.isotropic = true;
      s.w = w + s.inverse_inertia * (dt * particles.torque[i]);
      continue;
    }
    s.isotropic = false;
    const Mat3 R = particles.orientation[i].toRotationMatrix();
    const Mat3 inertia = R * I0 * R.transpose();
    s.inverse_inertia = R * I0_inverse * R.transpose();
    s.w = w + s.inverse_inertia * (dt * (particles.torque[i] - w.cross(inertia * w)));
  }
  for (std::size_t k = 0; k < globals.size(); ++k) {
    BodyState& s = states[n + k];
    s.v = globals[k].velocity;
    s.w = globals[k].angular_velocity;  // about its rotation centre (contact_setup.hpp)
    s.dv.setZero();
    s.dw.setZero();
    s.inverse_mass = 0.0;
    s.inverse_inertia.setZero();
    s.isotropic = true;
  }
}

}  // namespace granite::solver
