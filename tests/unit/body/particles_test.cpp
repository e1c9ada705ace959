// Particle storage: structure-of-arrays bookkeeping, stable ids across removal, mass
// properties, and the global-body helpers.
#include "granite/body/global_body.hpp"
#include "granite/body/particles.hpp"
#include "granite/core/error.hpp"
#include "granite/timestep/report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <random>

using namespace granite;

TEST(Particles, AddRemoveKeepsArraysDenseAndIdsStable) {
  body::MaterialTable materials;
  const auto m = materials.add({2000.0, 0.4});
  body::Particles p;
  for (int i = 0; i < 10; ++i) p.add_sphere(materials, m, Vec3(i, 0, 0), 0.1 + 0.01 * i);
  EXPECT_EQ(p.size(), 10u);
  EXPECT_EQ(p.id[7], 7);
  const auto removed = p.remove_if([&](std::size_t i) { return p.id[i] % 3 == 0; });
  EXPECT_EQ(removed, 4u);
  ASSERT_EQ(p.size(), 6u);
  for (auto* a : {&p.velocity, &p.angular_velocity, &p.force, &p.torque, &p.position})
    EXPECT_EQ(a->size(), 6u);
  EXPECT_EQ(p.mass.size(), 6u);
  EXPECT_EQ(p.body_inertia.size(), 6u);
  EXPECT_EQ(p.radius.size(), 6u);
  // Survivors keep their order and their data travels with them.
  const std::vector<BodyId> expected = {1, 2, 4, 5, 7, 8};
  EXPECT_EQ(p.id, expected);
  const auto k = p.find(7);
  ASSERT_GE(k, 0);
  EXPECT_DOUBLE_EQ(p.position[k].x(), 7.0);
  EXPECT_DOUBLE_EQ(p.radius[k], 0.17);
  EXPECT_EQ(p.find(3), -1);
  // New ids continue after the largest ever used.
  EXPECT_EQ(p.add_sphere(materials, m, Vec3::Zero(), 0.1), 10);
}

TEST(Particles, MassPropertiesAndWorldInertia) {
  body::MaterialTable materials;
  const auto m = materials.add({2650.0, 0.0});
  body::Particles p;
  p.add_sphere(materials, m, Vec3::Zero(), 0.5);
  const double mass = 2650.0 * 4.0 / 3.0 * std::numbers::pi * 0.125;
  EXPECT_NEAR(p.mass[0], mass, 1e-12 * mass);
  EXPECT_NEAR(p.body_inertia[0](1, 1), 0.4 * mass * 0.25, 1e-12 * mass);
  // Asymmetric body rotated 90° about z: I_world swaps the x and y moments.
  body::ParticleInit init;
  init.radius = 1.0;
  init.mass = 2.0;
  init.body_inertia = Vec3(1.0, 2.0, 3.0).asDiagonal();
  init.orientation = Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ()));
  init.angular_velocity = Vec3(1, 0, 0);
  p.add(init);
  const Mat3 I = p.world_inertia(1);
  EXPECT_NEAR(I(0, 0), 2.0, 1e-12);
  EXPECT_NEAR(I(1, 1), 1.0, 1e-12);
  EXPECT_NEAR((p.world_inverse_inertia(1) * I - Mat3::Identity()).norm(), 0.0, 1e-12);
  EXPECT_NEAR(p.kinetic_energy(1), 0.5 * 2.0 * 1.0, 1e-12);
}

TEST(Particles, RejectsInvalidInput) {
  body::MaterialTable materials;
  EXPECT_THROW(materials.add({-1.0, 0.1}), InputError);
  EXPECT_THROW(materials.add({1.0, -0.1}), InputError);
  const auto m = materials.add({1.0, 0.1});
  body::Particles p;
  EXPECT_THROW(p.add_sphere(materials, m, Vec3::Zero(), 0.0), InputError);
  EXPECT_THROW(p.add_sphere(materials, 5, Vec3::Zero(), 1.0), InputError);
  body::GlobalBodies g;
  EXPECT_THROW(g.add(body::HalfSpace{Vec3::Zero(), Vec3::Zero()}, m), InputError);
  EXPECT_THROW(g.add(body::Cylinder{Vec3::Zero(), Vec3::UnitZ(), -1.0, 1.0}, m), InputError);
  EXPECT_THROW(g.add(body::GlobalBody{}), InputError);
}

TEST(GlobalBodies, KinematicBodiesMoveAndNormalsAreNormalised) {
  body::GlobalBodies g;
  const auto piston = g.add(body::HalfSpace{Vec3::Zero(), Vec3(3, 0, 0)}, 0, Vec3(1, 0, 0));
  const auto post = g.add(body::Cylinder{Vec3(1, 1, 0), Vec3(0, 0, 2), 0.5, 1.0}, 0);
  EXPECT_DOUBLE_EQ(std::get<body::HalfSpace>(g[piston].parts[0]).normal.norm(), 1.0);
  g.advance(0.25);
  EXPECT_DOUBLE_EQ(std::get<body::HalfSpace>(g[piston].parts[0]).point.x(), 0.25);
  EXPECT_DOUBLE_EQ(std::get<body::Cylinder>(g[post].parts[0]).center.x(), 1.0);  // static
  g.move(piston, Vec3(-0.25, 0, 0));                                             // piston reset
  EXPECT_DOUBLE_EQ(std::get<body::HalfSpace>(g[piston].parts[0]).point.x(), 0.0);
  EXPECT_NEAR(body::signed_distance(g[post].parts[0], Vec3(1, 2, 0)), 0.5, 1e-15);
}

TEST(Report, FormatsThermoAndTiming) {
  timestep::StepStatistics s;
  s.step = 42;
  s.contacts = 7;
  s.kinetic_energy = 1.5;
  const auto line = timestep::thermo_line(s);
  EXPECT_NE(line.find("42"), std::string::npos);
  EXPECT_NE(line.find("1.500000e+00"), std::string::npos);
  EXPECT_EQ(timestep::thermo_header().size(), line.size());
  PhaseTimers t;
  t.add(Phase::detection, 1.0);
  t.add(Phase::relaxation, 3.0);
  const auto table = timestep::timing_breakdown(t);
  EXPECT_NE(table.find("relaxation         3.0000    75.00"), std::string::npos) << table;
  EXPECT_NE(table.find("total              4.0000   100.00"), std::string::npos) << table;
}

// The sphere shortcut of inverse_inertia_of gives the bits of Eigen's closed-form inverse
// (which it replaces in every step's predicted velocities) over twelve decades of a, and a
// tensor with a −0 off-diagonal entry takes Eigen's path.
TEST(Body, SphereInverseInertiaIsEigensBitForBit) {
  std::mt19937_64 rng(44);
  std::uniform_real_distribution<double> decade(-14.0, -2.0);
  for (int k = 0; k < 100000; ++k) {
    const double a = std::pow(10.0, decade(rng)) * (1.0 + 1e-3 * double(k % 997));
    const granite::Mat3 I = a * granite::Mat3::Identity();
    const granite::Mat3 eigen = I.inverse();
    const granite::Mat3 ours = granite::body::inverse_inertia_of(I);
    ASSERT_EQ(std::memcmp(eigen.data(), ours.data(), sizeof(granite::Mat3)), 0) << "a = " << a;
  }
  granite::Mat3 I = 2.5e-9 * granite::Mat3::Identity();
  I(0, 1) = -0.0;
  const granite::Mat3 eigen = I.inverse();
  const granite::Mat3 ours = granite::body::inverse_inertia_of(I);
  EXPECT_EQ(std::memcmp(eigen.data(), ours.data(), sizeof(granite::Mat3)), 0);
}
