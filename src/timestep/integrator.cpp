#include "granite/timestep/integrator.hpp"

namespace granite::timestep {

Quat integrate_orientation(const Quat& phi, const Vec3& omega, double dt) {
  // φ̇ = Q(φ) ω = ½ (0, ω) ⊗ φ for a world-frame angular velocity (§3.1).
  const Quat rate = Quat(0.0, omega.x(), omega.y(), omega.z()) * phi;
  Quat next(phi.w() + 0.5 * dt * rate.w(), phi.x() + 0.5 * dt * rate.x(),
            phi.y() + 0.5 * dt * rate.y(), phi.z() + 0.5 * dt * rate.z());
  next.normalize();
  return next;
}

void integrate(body::Particles& particles, body::GlobalBodies& globals,
               const std::vector<solver::BodyState>& states, double dt) {
  const std::size_t n = particles.size();
  for (std::size_t i = 0; i < n; ++i) {
    const solver::BodyState& s = states[i];
    const Vec3 v = s.v + s.dv;  // v' = v + dt f/m + δv
    const Vec3 w = s.w + s.dw;  // ω' = ω + I⁻¹ dt (τ − ω×Iω) + δω
    particles.velocity[i] = v;
    particles.angular_velocity[i] = w;
    particles.position[i] += dt * v;  // x' = x + dt v'
    particles.orientation[i] = integrate_orientation(particles.orientation[i], w, dt);
  }
  globals.advance(dt);
}

}  // namespace granite::timestep
