// Scenario assembly from a configuration: lattice geometry, seeded perturbations, bodies.
#include "granite/io/config.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/lattice.hpp"

#include <gtest/gtest.h>

namespace {

using granite::Vec3;

TEST(Lattice, CellCentresFillTheRegion) {
  const auto c = granite::scenario::lattice_centres(Vec3(0, 0, 0), Vec3(1.0, 0.5, 0.3), 0.1);
  ASSERT_EQ(c.size(), 10u * 5u * 3u);
  EXPECT_TRUE(c.front().isApprox(Vec3(0.05, 0.05, 0.05)));
  EXPECT_TRUE(c.back().isApprox(Vec3(0.95, 0.45, 0.25)));
  EXPECT_TRUE(granite::scenario::lattice_centres(Vec3(0, 0, 0), Vec3(0.05, 1, 1), 0.1).empty());
}

granite::timestep::Simulation build(std::uint64_t seed) {
  const auto cfg = granite::config::load_scenario(
      std::string(GRANITE_SOURCE_DIR) + "/configs/obstacle_drop.yaml", {});
  std::mt19937_64 rng(seed);
  granite::timestep::Simulation sim;
  granite::scenario::build_simulation(cfg.settings, sim, rng);
  return sim;
}

TEST(ScenarioBuild, ObstacleDropHasItsParticlesAndBodies) {
  const auto sim = build(7);
  ASSERT_EQ(sim.particles().size(), 22u * 11u * 12u);
  EXPECT_EQ(sim.globals().size(), 6u);
  EXPECT_EQ(sim.globals()[5].parts.size(), 2u);                       // cylinder + box union
  EXPECT_TRUE(sim.globals()[4].velocity.isApprox(Vec3(0.05, 0, 0)));  // the piston
  EXPECT_EQ(sim.parameters().model.model, granite::contact::Model::mdp);
  const double mass = 2650.0 * 4.0 / 3.0 * M_PI * 1e-9;
  EXPECT_NEAR(sim.particles().mass[0], mass, 1e-12 * mass);
  double largest = 0;
  for (const Vec3& v : sim.particles().velocity)
    largest = std::max(largest, v.cwiseAbs().maxCoeff());
  EXPECT_LE(largest, 0.05);  // perturbation amplitude
  EXPECT_GT(largest, 0.04);  // ... and it is used
}

TEST(ScenarioBuild, SameSeedSameParticlesOtherSeedOtherParticles) {
  const auto a = build(7), b = build(7), c = build(8);
  EXPECT_EQ(a.particles().velocity, b.particles().velocity);
  EXPECT_NE(a.particles().velocity, c.particles().velocity);
}

}  // namespace
