// Scenario assembly from a configuration: lattice geometry, seeded perturbations, bodies.
#include "granite/config/config.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/sources/inflow.hpp"
#include "granite/scenario/sources/lattice.hpp"

#include <gtest/gtest.h>

#include <fstream>

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

// The sphere source's `mass` overrides the material's density: the four-ball example's balls
// are 1 kg with the inertia 2/5 m r² = 4e-3 kg m² the paper prints; lemke settings carried over.
TEST(ScenarioBuild, SphereMassOverridesTheDensity) {
  const auto cfg = granite::config::load_scenario(GRANITE_SOURCE_DIR "/configs/four_balls.yaml",
                                                  {"solver.lemke.max_contacts=17"});
  granite::timestep::Simulation sim;
  std::mt19937_64 rng(1);
  granite::scenario::build_simulation(cfg.settings, sim, rng);
  const auto& p = sim.particles();
  ASSERT_EQ(p.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(p.mass[i], 1.0);
    EXPECT_DOUBLE_EQ(p.inverse_mass[i], 1.0);
    EXPECT_TRUE(p.body_inertia[i].isApprox(4e-3 * granite::Mat3::Identity(), 1e-15));
  }
  EXPECT_TRUE(p.velocity[0].isApprox(Vec3(1.5, 0.1, 0.0)));
  EXPECT_EQ(sim.parameters().method, granite::solver::Method::lemke);
  EXPECT_EQ(sim.parameters().lemke_max_contacts, 17);
  EXPECT_EQ(sim.parameters().model.friction_directions, 8);
  // Without `mass` the density decides: 1000 kg/m³ × 4/3 π (0.1 m)³.
  const auto plain = granite::config::load_scenario(
      GRANITE_SOURCE_DIR "/configs/four_balls.yaml",
      {"particles=[{type: sphere, position: [0, 0, 1], radius: 0.1, material: ball}]"});
  granite::timestep::Simulation sim2;
  granite::scenario::build_simulation(plain.settings, sim2, rng);
  const double mass = 1000.0 * 4.0 / 3.0 * M_PI * 1e-3;
  EXPECT_NEAR(sim2.particles().mass[0], mass, 1e-14 * mass);
}

TEST(ScenarioBuild, SameSeedSameParticlesOtherSeedOtherParticles) {
  const auto a = build(7), b = build(7), c = build(8);
  EXPECT_EQ(a.particles().velocity, b.particles().velocity);
  EXPECT_NE(a.particles().velocity, c.particles().velocity);
}

}  // namespace

// The `group` key of a particle source tags its particles (and the default tag is 0).
TEST(ScenarioBuild, ParticleSourcesTagTheirParticlesWithTheirGroup) {
  const std::string path = testing::TempDir() + "granite_group_test.yaml";
  std::ofstream(path) << "run: {dt: 1.0e-4, end_time: 1.0e-3}\n"
                         "domain: {min: [0, 0, 0], max: [0.01, 0.01, 0.01]}\n"
                         "materials: [{name: glass, density: 2650}]\n"
                         "particles:\n"
                         "  - {type: lattice, min: [0, 0, 0], max: [0.004, 0.002, 0.002],\n"
                         "     spacing: 0.002, radius: 0.0009, material: glass, group: 3}\n"
                         "  - {type: sphere, position: [0.008, 0.008, 0.008], radius: 0.001,\n"
                         "     material: glass, group: 5}\n"
                         "  - {type: sphere, position: [0.005, 0.008, 0.008], radius: 0.001,\n"
                         "     material: glass}\n";
  const auto cfg = granite::config::load_scenario(path, {});
  std::mt19937_64 rng(1);
  granite::timestep::Simulation sim;
  granite::scenario::build_simulation(cfg.settings, sim, rng);
  EXPECT_EQ(sim.particles().group, (std::vector<std::int32_t>{3, 3, 5, 0}));
}

TEST(ScenarioBuild, InflowLayersCarryTheLayerGroup) {
  granite::timestep::Simulation sim;
  const auto glass = sim.materials().add({2650.0, 0.4});
  granite::body::GlobalBody piston;
  piston.parts.push_back(granite::body::HalfSpace{Vec3::Zero(), Vec3::UnitX()});
  piston.velocity = Vec3(1.0, 0, 0);
  piston.material = glass;
  sim.globals().add(std::move(piston));
  granite::config::InflowSettings settings;
  settings.layer_every = 1e-3;
  settings.layer = {Vec3(0, 0, 0), Vec3(0.001, 0.002, 0.002),
                    0.001,         granite::config::fixed_size(4e-4),
                    glass,         Vec3::Zero(),
                    Vec3::Zero(),  7};
  granite::scenario::Inflow inflow(settings, 100, 1);
  const auto everywhere = [](const Vec3&) { return true; };
  EXPECT_EQ(inflow.after_step(sim, 1e-3, everywhere), 4u);  // one layer of 1 x 2 x 2 spheres
  EXPECT_EQ(sim.particles().group, (std::vector<std::int32_t>{7, 7, 7, 7}));
  EXPECT_EQ(sim.particles().id.front(), 100);
}
