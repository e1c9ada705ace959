#include "granite/solver/body_state.hpp"

#include "granite/core/capacity.hpp"
#include "granite/solver/delassus.hpp"

#include <Eigen/LU>

namespace granite::solver {

namespace {

// The torque-free spin of a body with body-frame inertia I over dt, implicitly (backward Euler
// in the body frame: I (ω' − ω) + dt ω' × I ω' = 0), by one Newton step from ω' = ω with the
// Jacobian J = I + dt ([ω]× I − [I ω]×) (Catto, "Numerical methods", GDC 2015). The explicit
// ω − dt I⁻¹ (ω × I ω) gains energy by O((|ω| dt)²) per step and diverges for an elongated body
// spinning at |ω| dt ~ 1; the implicit step does not. Returns ω' in the body frame.
Vec3 implicit_gyroscopic_spin(const Mat3& I, const Vec3& omega, double dt) {
  const Vec3 L = I * omega;
  const Vec3 f = dt * omega.cross(L);
  const Mat3 J = I + dt * (cross_matrix(omega) * I - cross_matrix(L));
  return omega - J.partialPivLu().solve(f);
}

}  // namespace

void predict_velocities(const body::Particles& particles, const body::GlobalBodies& globals,
                        const Vec3& gravity, double dt, BodyStates& states) {
  const std::size_t n = particles.size();
  reserve_with_margin(states, n + globals.size());
  states.resize(n + globals.size());
  // The table of the bodies that are not isotropic, sized before any state points into it. An
  // isotropic I0 = aE (a > 0) has an isotropic inverse (inverse_inertia_of; Eigen's cofactors
  // of a diagonal matrix), so I0 decides.
  std::size_t general = 0;
  for (std::size_t i = 0; i < n; ++i) general += is_isotropic(particles.body_inertia[i]) ? 0 : 1;
  states.tensors.resize(general);
  general = 0;
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
    const Mat3 I0_inverse = particles.inverse_body_inertia(i);
    const Mat3& I0 = particles.body_inertia[i];
    if (is_isotropic(I0)) {
      // A sphere: R (kE) Rᵀ = kE in every orientation, and ω × (kω) = 0.
      s.set_inverse_inertia(I0_inverse(0, 0));
      s.w = w + s.inverse_inertia() * (dt * particles.torque[i]);  // as the tensor kE did
      continue;
    }
    const Mat3 R = particles.orientation[i].toRotationMatrix();
    Mat3& tensor = states.tensors[general++];
    tensor = R * I0_inverse * R.transpose();
    s.set_inverse_inertia(&tensor);
    // §3.1's ω + I⁻¹ dt (τ − ω × Iω), with the gyroscopic part implicit (a fixed body: none).
    const Vec3 spin =
        s.inverse_mass > 0.0 ? Vec3(R * implicit_gyroscopic_spin(I0, R.transpose() * w, dt)) : w;
    s.w = spin + tensor * (dt * particles.torque[i]);
  }
  for (std::size_t k = 0; k < globals.size(); ++k) {
    BodyState& s = states[n + k];
    s.v = globals[k].velocity;
    s.w = globals[k].angular_velocity;  // about its rotation centre (contact_setup.hpp)
    s.dv.setZero();
    s.dw.setZero();
    s.inverse_mass = 0.0;
    s.set_inverse_inertia(0.0);
  }
}

}  // namespace granite::solver
