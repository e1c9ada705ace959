// A dimer — a rigid union of two equal spheres of radius r at ±a on its x axis (0 < a < r, so
// they overlap) — lying on a plane, under gravity. Rigid-body theory, with the dimer's mass and
// inertia written out here in closed form (independently of body/sphere_union.hpp):
//  - the union is twice the part of the sphere at +a with x ≥ 0, so per unit density
//    V = 2π ∫_{−a}^{r} (r² − u²) du = 2π (2r³/3 + r²a − a³/3) and, from disks of radius
//    ρ² = r² − u², I_xx = ∫ ½ρ² dV = π ∫_{−a}^{r} (r² − u²)² du = π (8r⁵/15 + r⁴a − 2r²a³/3 + a⁵/5);
//  - at rest it has two contacts, which carry its weight, m g dt per step in all;
//  - pushed along its axis it slides level (friction's pitching moment μ m g r is taken by the
//    normal forces as long as μ r < a) and stops after v₀² / (2 μ g);
//  - pushed across its axis it rolls about that axis once u − r ω_x = 0: friction changes
//    m u and I_xx ω_x at rates in the ratio m r² / I_xx, so rolling starts at
//    v = v₀ / (1 + I_xx / (m r²)).
// The contacts' lever arms are off the dimer's centre along its axis (±a), so their Delassus
// blocks are anisotropic: the general block and, for mdp, the general branch.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 1e-3, kA = 0.6e-3, kDt = 1e-4, kDensity = 2500.0;
constexpr double kPi = std::numbers::pi;

double dimer_volume() {
  return 2.0 * kPi * (2.0 * kR * kR * kR / 3.0 + kR * kR * kA - kA * kA * kA / 3.0);
}
double dimer_inertia_xx() {
  const double r2 = kR * kR, a2 = kA * kA;
  return kPi *
         (8.0 * r2 * r2 * kR / 15.0 + r2 * r2 * kA - 2.0 * r2 * a2 * kA / 3.0 + a2 * a2 * kA / 5.0);
}

timestep::Simulation dimer_on_plane(contact::Model model, double mu, const Vec3& velocity) {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.contact_threshold = 0.1 * kR;
  p.model.model = model;
  p.tolerance = 1e-12;
  p.max_sweeps = 200;
  const auto glass = sim.materials().add({kDensity, mu});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, glass);
  const auto dimer = sim.shapes().add_clump("dimer", {{kR, Vec3(-kA, 0, 0)}, {kR, Vec3(kA, 0, 0)}});
  sim.particles().add_shaped(sim.materials(), sim.shapes(), dimer, glass, Vec3(0, 0, kR),
                             Quat::Identity(), velocity);
  return sim;
}

}  // namespace

class Dimer : public testing::TestWithParam<contact::Model> {};

TEST_P(Dimer, RestsOnTwoContactsThatCarryItsWeight) {
  timestep::Simulation sim = dimer_on_plane(GetParam(), 0.5, Vec3::Zero());
  const double m = sim.particles().mass[0];
  // The mass is the closed form's to the integration's tolerance (1e-6 relative, sphere_union).
  EXPECT_NEAR(m, kDensity * dimer_volume(), 1e-5 * m);
  for (int s = 0; s < 100; ++s) {
    const auto& st = sim.step();
    ASSERT_EQ(st.contacts, 2u);
    EXPECT_NEAR(st.global_normal_impulse_sum, m * kG * kDt, 1e-9 * m * kG * kDt);
  }
  const auto& q = sim.particles();
  EXPECT_LT(q.velocity[0].norm(), 1e-12);
  EXPECT_LT(q.angular_velocity[0].norm(), 1e-9);
  EXPECT_NEAR(q.position[0].z(), kR, 1e-15);
}

// Stepping: each step takes μ g dt off the speed exactly (both contacts slide), so the speeds
// are v_k = v₀ − k μ g dt and the distance dt Σ v_k differs from v₀²/(2μg) by less than one
// step's travel v₀ dt.
TEST_P(Dimer, PushedAlongItsAxisSlidesLevelAndStops) {
  const double mu = 0.3, v0 = 0.05;
  ASSERT_LT(mu * kR, kA);
  timestep::Simulation sim = dimer_on_plane(GetParam(), mu, Vec3(v0, 0, 0));
  const double stop = v0 * v0 / (2.0 * mu * kG);
  const int steps = int(1.2 * v0 / (mu * kG * kDt));
  for (int s = 0; s < steps; ++s) ASSERT_EQ(sim.step().contacts, 2u) << "step " << s;
  const auto& q = sim.particles();
  EXPECT_NEAR(q.position[0].x(), stop, v0 * kDt);
  EXPECT_LT(q.velocity[0].norm(), 1e-9 * v0);
  EXPECT_LT(q.angular_velocity[0].norm(), 1e-6 * v0 / kR);
  EXPECT_NEAR(q.position[0].z(), kR, 1e-12 * kR);
  EXPECT_NEAR(q.orientation[0].angularDistance(Quat::Identity()), 0.0, 1e-9);  // level
}

// Rolling starts within one step of the predicted time, so the rolling speed is the
// prediction to within one step's change of the speed, μ g dt.
TEST_P(Dimer, PushedAcrossItsAxisGoesFromSlidingToRolling) {
  const double mu = 0.3, v0 = 0.05;
  timestep::Simulation sim = dimer_on_plane(GetParam(), mu, Vec3(0, v0, 0));
  const double ratio = dimer_inertia_xx() / (dimer_volume() * kR * kR);
  const double v_roll = v0 / (1.0 + ratio);
  const int steps = int(2.0 * (v0 - v_roll) / (mu * kG * kDt));  // twice the sliding time
  for (int s = 0; s < steps; ++s) ASSERT_EQ(sim.step().contacts, 2u) << "step " << s;
  const auto& q = sim.particles();
  EXPECT_NEAR(q.velocity[0].y(), v_roll, mu * kG * kDt);
  // Rolling about x: u_y = v_y + (ω × (−r ẑ))_y = v_y + r ω_x = 0 at the contacts.
  EXPECT_NEAR(q.velocity[0].y() + kR * q.angular_velocity[0].x(), 0.0, 1e-9 * v0);
  EXPECT_NEAR(q.position[0].z(), kR, 1e-12 * kR);
}

INSTANTIATE_TEST_SUITE_P(Models, Dimer,
                         testing::Values(contact::Model::mdp, contact::Model::coulomb),
                         [](const auto& info) {
                           return info.param == contact::Model::mdp ? "mdp" : "coulomb";
                         });
