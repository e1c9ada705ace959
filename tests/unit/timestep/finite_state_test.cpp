// timestep::non_finite_state(): names the first non-finite impulse (by the contact's bodies) or
// particle value (by the body id and the quantity) after a step, "" while everything is finite.
#include "granite/timestep/finite_state.hpp"

#include <gtest/gtest.h>

#include <limits>

using namespace granite;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A sphere resting on a floor (in contact) and a free one above it.
void populate(timestep::Simulation& sim) {
  const auto glass = sim.materials().add({2650.0, 0.5});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, glass);
  sim.particles().add_sphere(sim.materials(), glass, {0, 0, 0.5e-3}, 0.5e-3, Vec3::Zero(), 4);
  sim.particles().add_sphere(sim.materials(), glass, {0, 0, 5e-3}, 0.5e-3, Vec3::Zero(), 7);
  sim.parameters().dt = 1e-5;
  sim.parameters().gravity = {0, 0, -9.81};
  sim.parameters().contact_threshold = 1e-5;
}
}  // namespace

TEST(FiniteState, FiniteStateIsEmpty) {
  timestep::Simulation sim;
  populate(sim);
  sim.step();
  ASSERT_EQ(sim.contacts().size(), 1u);
  EXPECT_EQ(timestep::non_finite_state(sim), "");
}

TEST(FiniteState, NamesTheParticleAndTheQuantity) {
  timestep::Simulation sim;
  populate(sim);
  sim.particles().velocity[1].x() = kNaN;  // the free sphere: no contact involved
  sim.step();
  EXPECT_EQ(timestep::non_finite_state(sim), "particle 7 has a non-finite position");

  timestep::Simulation spinning;
  populate(spinning);
  spinning.particles().angular_velocity[1].z() = kNaN;
  spinning.step();
  EXPECT_EQ(timestep::non_finite_state(spinning), "particle 7 has a non-finite angular velocity");
}

TEST(FiniteState, NamesTheContactOfANonFiniteImpulse) {
  timestep::Simulation sim;
  populate(sim);
  sim.particles().inverse_mass[0] = kNaN;  // the resting sphere's Delassus term
  sim.step();
  EXPECT_EQ(timestep::non_finite_state(sim),
            "the impulse of the contact between particle 4 and global body 0 is not finite");
}
