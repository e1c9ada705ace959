// Bodies at rest under gravity: no drift, penetration removed by the error reduction ε at least
// at the rate (1 − ε) per step (the Signorini condition u_n' ≥ −ε ξ / dt gives ξ' ≥ (1 − ε) ξ,
// with equality while the contact is active; the velocity gained by the correction can carry the
// sphere out faster, after which it lands again inelastically), and
// once settled the normal impulses carry exactly the weight: λ_n = m g dt per supporting
// contact, Σ over the floor = total weight × dt.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace granite;

namespace {
constexpr double kG = 9.81, kR = 0.005, kDt = 1e-4;
}

TEST(RestingContact, SphereOnPlaneRemovesPenetrationAndCarriesItsWeight) {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.error_reduction = 0.2;
  p.contact_threshold = 0.1 * kR;
  p.tolerance = 1e-12;
  const auto mat = sim.materials().add({2650.0, 0.5});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  const double pen0 = 1e-3 * kR;
  sim.particles().add_sphere(sim.materials(), mat, Vec3(0.3, -0.2, kR - pen0), kR);
  const double m = sim.particles().mass[0];

  // First step from rest: the contact is active, exactly (1 − ε) of the penetration remains.
  EXPECT_NEAR(sim.step().max_penetration, pen0, 1e-12 * pen0);
  EXPECT_NEAR(sim.step().max_penetration, (1.0 - p.error_reduction) * pen0, 1e-9 * pen0);
  double previous = (1.0 - p.error_reduction) * pen0;
  for (int s = 0; s < 20; ++s) {
    const double pen = sim.step().max_penetration;
    EXPECT_LE(pen, (1.0 - p.error_reduction) * previous + 1e-9 * pen0) << "step " << s;
    previous = pen;
  }
  for (int s = 0; s < 300; ++s) sim.step();
  const auto& st = sim.step();
  // (0.8)^310 ξ0 ≈ 1e-33 m: penetration gone up to round-off of the position (1e-16 · z).
  EXPECT_LT(st.max_penetration, 1e-15);
  EXPECT_NEAR(st.global_normal_impulse_sum, m * kG * kDt, 1e-10 * m * kG * kDt);
  EXPECT_NEAR(sim.impulses()[0][1], 0.0, 1e-12 * m * kG * kDt);  // no friction needed
  const auto& q = sim.particles();
  EXPECT_NEAR(q.position[0].x(), 0.3, 1e-15);
  EXPECT_NEAR(q.position[0].y(), -0.2, 1e-15);
  EXPECT_NEAR(q.position[0].z(), kR, 1e-15);
  EXPECT_LT(q.velocity[0].norm(), 1e-12);
  EXPECT_LT(q.angular_velocity[0].norm(), 1e-10);
}

class Column : public testing::TestWithParam<contact::Model> {};

TEST_P(Column, TenSpheresCarryTheWeightAboveThem) {
  constexpr int kN = 10;
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.error_reduction = 0.2;
  p.contact_threshold = 0.1 * kR;
  p.model.model = GetParam();
  p.tolerance = 1e-12;
  p.max_sweeps = 2000;
  const auto mat = sim.materials().add({2650.0, 0.5});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  const double pen0 = 1e-3 * kR;  // every contact starts penetrated
  for (int i = 0; i < kN; ++i)
    sim.particles().add_sphere(sim.materials(), mat,
                               Vec3(0.01, 0.02, kR - pen0 + i * (2 * kR - pen0)), kR);
  const double m = sim.particles().mass[0];
  const double W = m * kG * kDt;  // one sphere's weight × dt

  for (int s = 0; s < 400; ++s) sim.step();
  const auto& st = sim.step();
  ASSERT_TRUE(st.converged) << st.residual;
  ASSERT_EQ(st.contacts, std::size_t(kN));
  EXPECT_LT(st.max_penetration, 1e-14);
  EXPECT_NEAR(st.global_normal_impulse_sum, kN * W, 1e-8 * kN * W);
  // Each contact between sphere i and i+1 carries the spheres above: (N − 1 − i) W.
  const auto& q = sim.particles();
  const auto& c = sim.contacts();
  for (std::size_t j = 0; j < c.size(); ++j) {
    if (c.involves_global(j)) continue;
    const auto upper = std::max(q.position[c.body1[j]].z(), q.position[c.body2[j]].z());
    const int above = kN - int(std::lround((upper - kR) / (2 * kR)));
    EXPECT_NEAR(sim.impulses()[j][0], above * W, 1e-8 * kN * W) << "contact " << j;
  }
  for (int i = 0; i < kN; ++i) {
    EXPECT_NEAR(q.position[i].x(), 0.01, 1e-15);
    EXPECT_NEAR(q.position[i].y(), 0.02, 1e-15);
    EXPECT_NEAR(q.position[i].z(), kR + i * 2 * kR, 1e-12 * kR) << i;
    EXPECT_LT(q.velocity[i].norm(), 1e-9 * kG * kDt) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, Column,
                         testing::Values(contact::Model::mdp, contact::Model::coulomb_approx,
                                         contact::Model::frictionless, contact::Model::ccp),
                         [](const auto& info) {
                           return std::string(contact::model_name(info.param));
                         });
