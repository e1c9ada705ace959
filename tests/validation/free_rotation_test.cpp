// A torque-free asymmetric body (principal moments 1 : 2 : 3, spinning about a generic axis):
// |L| and the rotational energy are invariants of the exact motion. The semi-implicit Euler
// scheme conserves them only to first order in dt. Derivation of the tolerance: per step
//   L_{k+1} = I_{k+1} ω_{k+1},  ω_{k+1} = ω_k − dt I_k⁻¹ (ω_k × L_k),
//   I_{k+1} = I_k + dt ([ω_{k+1}]× I_k − I_k [ω_{k+1}]×) + O(dt²|ω|²‖I‖)   (φ update),
// so L_{k+1} = L_k + dt (ω_{k+1} − ω_k) × L_k + O(dt²|ω|²|L|) and ω_{k+1} − ω_k = O(dt κ|ω|²)
// with κ = I_max / I_min the inertia ratio. Each step changes |L| relatively by at most
// c κ (dt|ω|)² with c = O(1), and n = T/dt steps by c κ T |ω|² dt. We allow c = 1 and check in
// addition that halving dt halves the drift (first order), which a wrong gyroscopic term or a
// wrong inertia transformation (O(1) drift per unit time, independent of dt) would violate.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace granite;

namespace {

struct Drift {
  double momentum;  // max over the run of | |L| − |L0| | / |L0|
  double energy;    // max over the run of |E − E0| / E0
  Vec3 L0, L;       // initial and final angular momentum (world frame)
};

Drift spin(double dt, double T) {
  timestep::Simulation sim;
  sim.parameters().dt = dt;
  sim.parameters().gravity = Vec3::Zero();  // a free body
  sim.materials().add({1000.0, 0.0});
  body::ParticleInit init;
  init.radius = 0.1;
  init.mass = 2.0;
  init.body_inertia = Vec3(1.0, 2.0, 3.0).asDiagonal();
  init.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1, -2, 0.5).normalized()));
  init.angular_velocity = Vec3(1.0, 0.3, -0.8);  // generic axis, |ω| ≈ 1.3 rad/s
  sim.particles().add(init);
  const auto& q = sim.particles();
  Drift d{0, 0, q.angular_momentum(0), Vec3::Zero()};
  const double e0 = q.kinetic_energy(0);
  const int n = int(std::lround(T / dt));
  for (int s = 0; s < n; ++s) {
    sim.step();
    d.momentum = std::max(d.momentum, std::abs(q.angular_momentum(0).norm() / d.L0.norm() - 1));
    d.energy = std::max(d.energy, std::abs(q.kinetic_energy(0) / e0 - 1));
  }
  d.L = q.angular_momentum(0);
  EXPECT_LT(q.position[0].norm(), 1e-300 + 0.0);  // no force: the centre never moves
  return d;
}

}  // namespace

TEST(FreeRotation, AsymmetricBodyConservesMomentumAndEnergyToFirstOrder) {
  const double T = 5.0, dt = 1e-3;
  const double omega = Vec3(1.0, 0.3, -0.8).norm(), kappa = 3.0;
  const double bound = kappa * T * omega * omega * dt;  // c κ T |ω|² dt with c = 1
  const Drift coarse = spin(dt, T);
  const Drift fine = spin(dt / 2, T);
  EXPECT_LT(coarse.momentum, bound);
  EXPECT_LT(coarse.energy, 2 * bound);  // E = |L|²/(2 I_eff): twice the relative change
  // The direction of L is an invariant too.
  EXPECT_LT((coarse.L - coarse.L0).norm() / coarse.L0.norm(), 2 * bound);
  // First order: halving dt halves the drift (ratio 2 ± 25 %).
  EXPECT_NEAR(coarse.momentum / fine.momentum, 2.0, 0.5);
  EXPECT_NEAR(coarse.energy / fine.energy, 2.0, 0.5);
  std::printf("free rotation drift over %.0f s: |L| %.3e (dt) %.3e (dt/2), E %.3e %.3e, "
              "bound %.3e\n",
              T, coarse.momentum, fine.momentum, coarse.energy, fine.energy, bound);
}

// An elongated body (a capsule 8 radii long: inertia ratio about 9) spinning fast about a
// generic axis, |ω| dt = 1.5 per step: the explicit gyroscopic term ω − dt I⁻¹ (ω × Iω) gains
// energy by O((|ω| dt)²) each step and diverges within tens of steps; the implicit step
// (backward Euler in the body frame, body_state.cpp) cannot gain: its L' = L − dt ω' × L' gives
// |L'|² = L'·L <= |L'| |L|, so |L| never grows, and neither does the energy (it decays, first
// order in dt, towards a spin about the axis of greatest inertia). Over 2000 steps neither may
// grow beyond rounding (1e-12 relative per step, summed).
TEST(FreeRotation, FastSpinningElongatedBodyStaysBounded) {
  timestep::Simulation sim;
  sim.parameters().dt = 1e-3;
  sim.parameters().gravity = Vec3::Zero();
  const auto m = sim.materials().add({1000.0, 0.0});
  const auto rod = sim.shapes().add_capsule("rod", 1e-3, 3e-3);
  sim.particles().add_shaped(sim.materials(), sim.shapes(), rod, m, Vec3::Zero(),
                             Quat(Eigen::AngleAxisd(0.4, Vec3(1, -2, 0.5).normalized())));
  sim.particles().angular_velocity[0] = 1500.0 * Vec3(1.0, 0.3, -0.8).normalized();
  const auto& q = sim.particles();
  const double e0 = q.kinetic_energy(0);
  const double l0 = q.angular_momentum(0).norm();
  double largest = e0, largest_l = l0;
  const int steps = 2000;
  for (int s = 0; s < steps; ++s) {
    sim.step();
    ASSERT_TRUE(q.angular_velocity[0].allFinite()) << "step " << s;
    largest = std::max(largest, q.kinetic_energy(0));
    largest_l = std::max(largest_l, q.angular_momentum(0).norm());
  }
  EXPECT_LE(largest, e0 * (1.0 + steps * 1e-12));
  EXPECT_LE(largest_l, l0 * (1.0 + steps * 1e-12));
  EXPECT_GT(q.kinetic_energy(0), 0.0);
}
