// A capsule (radius r around a segment of half length h along its x axis) lying on a plane
// under gravity, on its two end contacts (a two-point manifold, so it lies flat). Rigid-body
// theory, with the capsule's closed-form mass properties (body::capsule_mass_properties, itself
// checked against disk slicing in CapsuleMass):
//  - at rest its two contacts carry its weight, m g dt per step in all;
//  - pushed along its axis it slides level and stops after v₀² / (2 μ g) (friction's pitching
//    moment μ m g r is taken by the two normal forces as long as μ r < h);
//  - pushed across its axis it rolls about it once u − r ω_x = 0: rolling starts at
//    v = v₀ / (1 + I_xx / (m r²)), I_xx its inertia about the axis.
// Tolerances as in clump_test.cpp: one step's travel v₀ dt for the stop, one step's change of
// speed μ g dt for the rolling speed.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 1e-3, kH = 3e-3, kDt = 1e-4, kDensity = 2500.0;

timestep::Simulation capsule_on_plane(contact::Model model, double mu, const Vec3& velocity) {
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
  const auto rod = sim.shapes().add_capsule("rod", kR, kH);
  sim.particles().add_shaped(sim.materials(), sim.shapes(), rod, glass, Vec3(0, 0, kR),
                             Quat::Identity(), velocity);
  return sim;
}

}  // namespace

class Capsule : public testing::TestWithParam<contact::Model> {};

TEST_P(Capsule, RestsOnItsTwoEndsWhichCarryItsWeight) {
  timestep::Simulation sim = capsule_on_plane(GetParam(), 0.5, Vec3::Zero());
  const double m = sim.particles().mass[0];
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

TEST_P(Capsule, PushedAlongItsAxisSlidesLevelAndStops) {
  const double mu = 0.3, v0 = 0.05;
  ASSERT_LT(mu * kR, kH);
  timestep::Simulation sim = capsule_on_plane(GetParam(), mu, Vec3(v0, 0, 0));
  const int steps = int(1.2 * v0 / (mu * kG * kDt));
  for (int s = 0; s < steps; ++s) ASSERT_EQ(sim.step().contacts, 2u) << "step " << s;
  const auto& q = sim.particles();
  EXPECT_NEAR(q.position[0].x(), v0 * v0 / (2.0 * mu * kG), v0 * kDt);
  EXPECT_LT(q.velocity[0].norm(), 1e-9 * v0);
  EXPECT_LT(q.angular_velocity[0].norm(), 1e-6 * v0 / kR);
  EXPECT_NEAR(q.position[0].z(), kR, 1e-12 * kR);
  EXPECT_NEAR(q.orientation[0].angularDistance(Quat::Identity()), 0.0, 1e-9);  // level
}

TEST_P(Capsule, PushedAcrossItsAxisGoesFromSlidingToRolling) {
  const double mu = 0.3, v0 = 0.05;
  timestep::Simulation sim = capsule_on_plane(GetParam(), mu, Vec3(0, v0, 0));
  const body::MassProperties unit = body::capsule_mass_properties(kR, kH);
  const double v_roll = v0 / (1.0 + unit.inertia(0, 0) / (unit.volume * kR * kR));
  const int steps = int(2.0 * (v0 - v_roll) / (mu * kG * kDt));
  for (int s = 0; s < steps; ++s) ASSERT_EQ(sim.step().contacts, 2u) << "step " << s;
  const auto& q = sim.particles();
  EXPECT_NEAR(q.velocity[0].y(), v_roll, mu * kG * kDt);
  EXPECT_NEAR(q.velocity[0].y() + kR * q.angular_velocity[0].x(), 0.0, 1e-9 * v0);  // rolling
  EXPECT_NEAR(q.position[0].z(), kR, 1e-12 * kR);
}

INSTANTIATE_TEST_SUITE_P(Models, Capsule,
                         testing::Values(contact::Model::mdp, contact::Model::coulomb),
                         [](const auto& info) {
                           return info.param == contact::Model::mdp ? "mdp" : "coulomb";
                         });
