#include "granite/solver/body_state.hpp"

namespace granite::solver {

void predict_velocities(const body::Particles& particles, const body::GlobalBodies& globals,
                        const Vec3& gravity, double dt, std::vector<BodyState>& states) {
  const std::size_t n = particles.size();
  states.resize(n + globals.size());
  for (std::size_t i = 0; i < n; ++i) {
    BodyState& s = states[i];
    const Mat3 R = particles.orientation[i].toRotationMatrix();
    const Mat3 inertia = R * particles.body_inertia[i] * R.transpose();
    s.inverse_inertia = R * particles.inverse_body_inertia[i] * R.transpose();
    s.inverse_mass = particles.inverse_mass[i];
    const Vec3& w = particles.angular_velocity[i];
    // §3.1: v + dt f/m and ω + I⁻¹ dt (τ − ω × Iω); a fixed particle (inverse mass 0) feels
    // no gravity either.
    s.v = particles.velocity[i] +
          (s.inverse_mass > 0.0 ? Vec3(dt * (gravity + s.inverse_mass * particles.force[i]))
                                : Vec3::Zero());
    s.w = w + s.inverse_inertia * (dt * (particles.torque[i] - w.cross(inertia * w)));
    s.dv.setZero();
    s.dw.setZero();
  }
  for (std::size_t k = 0; k < globals.size(); ++k) {
    BodyState& s = states[n + k];
    s.v = globals[k].velocity;
    s.w = globals[k].angular_velocity;  // about its rotation centre (contact_setup.hpp)
    s.dv.setZero();
    s.dw.setZero();
    s.inverse_mass = 0.0;
    s.inverse_inertia.setZero();
  }
}

}  // namespace granite::solver
