// Simulation::validate(): invalid parameters and undefined materials are an InputError on the
// first step (step() validates once, not every step), and an explicit validate() catches a
// parameter changed between steps.
#include "granite/core/error.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <functional>

using namespace granite;

namespace {
// One sphere resting above a floor, with valid parameters.
void populate(timestep::Simulation& sim) {
  const auto glass = sim.materials().add({2650.0, 0.5});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, glass);
  sim.particles().add_sphere(sim.materials(), glass, {0, 0, 1e-3}, 0.5e-3);
  sim.parameters().dt = 1e-5;
  sim.parameters().gravity = {0, 0, -9.81};
}
}  // namespace

TEST(SimulationValidation, InvalidParameterThrowsOnTheFirstStep) {
  const std::vector<std::function<void(timestep::Parameters&)>> breakers = {
      [](auto& p) { p.dt = 0.0; },
      [](auto& p) { p.contact_threshold = -1e-6; },
      [](auto& p) { p.error_reduction = 1.5; },
      [](auto& p) { p.max_sweeps = 0; },
      [](auto& p) { p.tolerance = -1.0; },
  };
  for (const auto& breaker : breakers) {
    timestep::Simulation sim;
    populate(sim);
    breaker(sim.parameters());
    EXPECT_THROW(sim.step(), InputError);
    EXPECT_EQ(sim.steps(), 0);
  }
}

TEST(SimulationValidation, UndefinedMaterialThrowsOnTheFirstStep) {
  timestep::Simulation particle_case;
  populate(particle_case);
  body::ParticleInit init;  // Particles::add does not know the material table
  init.position = {0.1, 0, 1e-3};
  init.radius = 0.5e-3;
  init.mass = 1e-6;
  init.material = 7;
  particle_case.particles().add(init);
  EXPECT_THROW(particle_case.step(), InputError);

  timestep::Simulation global_case;
  populate(global_case);
  global_case.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitX()}, 3);
  EXPECT_THROW(global_case.step(), InputError);
}

TEST(SimulationValidation, ValidateCatchesAParameterChangedBetweenSteps) {
  timestep::Simulation sim;
  populate(sim);
  sim.step();
  sim.validate();
  sim.parameters().dt = -1e-5;
  EXPECT_THROW(sim.validate(), InputError);
}
