// Newton's cradle without restitution: three equal spheres in a row, touching, the first hits
// the other two head-on at v. With purely inelastic contacts the converged multi-contact
// solution has zero normal relative velocity at both contacts, so all three move at v/3
// (momentum m v shared by 3 m) and two thirds of the kinetic energy are dissipated.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

using namespace granite;

class ThreeSpheres : public testing::TestWithParam<contact::Model> {};

TEST_P(ThreeSpheres, InelasticHeadOnImpactSharesMomentum) {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = 1e-4;
  p.gravity = Vec3::Zero();
  p.contact_threshold = 0.01;
  p.model.model = GetParam();
  p.tolerance = 1e-12;
  p.max_sweeps = 1000;
  const auto mat = sim.materials().add({1000.0, 0.4});
  const double r = 0.5, v = 2.0;
  sim.particles().add_sphere(sim.materials(), mat, Vec3(0, 0, 0), r, Vec3(v, 0, 0));
  sim.particles().add_sphere(sim.materials(), mat, Vec3(2 * r, 0, 0), r);
  sim.particles().add_sphere(sim.materials(), mat, Vec3(4 * r, 0, 0), r);
  const double e0 = sim.particles().total_kinetic_energy();

  const auto& st = sim.step();
  ASSERT_EQ(st.contacts, 2u);
  ASSERT_TRUE(st.converged);
  // The Gauss–Seidel error after convergence is ~ tolerance × largest impulse.
  const double tol = 1e-9 * v;
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(sim.particles().velocity[i].x(), v / 3.0, tol) << i;
    EXPECT_NEAR(sim.particles().velocity[i].tail<2>().norm(), 0.0, tol) << i;
    EXPECT_NEAR(sim.particles().angular_velocity[i].norm(), 0.0, tol / r) << i;
  }
  EXPECT_NEAR(st.kinetic_energy, e0 / 3.0, 1e-8 * e0);
  // And they stay together (no further impulses needed, no drift apart).
  for (int s = 0; s < 10; ++s) sim.step();
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_NEAR(sim.particles().velocity[i].x(), v / 3.0, tol) << i;
}

INSTANTIATE_TEST_SUITE_P(Models, ThreeSpheres,
                         testing::Values(contact::Model::frictionless, contact::Model::mdp,
                                         contact::Model::coulomb, contact::Model::coulomb_approx,
                                         contact::Model::ccp),
                         [](const auto& info) {
                           return std::string(contact::model_name(info.param));
                         });
