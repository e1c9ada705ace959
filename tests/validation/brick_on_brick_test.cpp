// A 4 × 2 × 1 mm brick lying across another (turned 90° about z), tilted by 0.02 rad about
// (1, 1, 0) and sunk into it by a tenth of its thickness at its lowest corner, which hangs
// beyond the lower brick; the lower brick rests on the floor. Under a converged relaxation the
// Signorini condition u_n' ≥ −ε ξ/dt removes every contact's penetration at least at the rate
// (1 − ε) per step while it is active (resting_contact_test.cpp), so after 300 steps
// (0.8³⁰⁰ ≈ 1e-29) none is left beyond the settling's own: a step's fall g dt², corrected at
// ε per step, bounds it by g dt²/ε. The upper brick falls flat onto the lower one (its weight
// acts at its centre, above the lower brick) and comes to rest there. This needs the face's
// manifold where the pair's least overlap lies along an edge pair's axis near the faces' normal
// (polyhedron_contacts.cpp): the single contact at a crossing of two edges let the upper brick
// tip into the lower one.
#include "granite/timestep/simulation.hpp"
#include "../support/floor_scene.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace granite;

TEST(BrickOnBrick, ATiltedBrickAcrossAnotherComesToRestFlatWithoutOverlap) {
  constexpr double kG = 9.81, kDt = 1e-4, kEpsilon = 0.2;
  const Vec3 h(2e-3, 1e-3, 0.5e-3);
  timestep::Simulation sim;
  const auto glass = test_support::floor_scene(sim, kDt, Vec3(0, 0, -kG), 0.1 * h[2],
                                               contact::Model::mdp, 500, 2500.0, 0.5);
  sim.parameters().error_reduction = kEpsilon;
  const auto brick = sim.shapes().add_box("brick", h);
  sim.particles().add_shaped(sim.materials(), sim.shapes(), brick, glass, Vec3(0, 0, h[2]),
                             Quat::Identity());
  const Quat turn = Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ())) *
                    Quat(Eigen::AngleAxisd(0.02, Vec3(1.0, 1.0, 0.0).normalized()));
  double low = 0.0;  // the upper brick's lowest corner below its centre
  for (const double sx : {-1.0, 1.0})
    for (const double sy : {-1.0, 1.0})
      for (const double sz : {-1.0, 1.0})
        low = std::min(low, (turn * Vec3(sx * h[0], sy * h[1], sz * h[2]))[2]);
  const double sunk = 0.1 * 2.0 * h[2];
  sim.particles().add_shaped(sim.materials(), sim.shapes(), brick, glass,
                             Vec3(0, 0, 3.0 * h[2] - sunk - low), turn);
  for (int s = 0; s < 300; ++s) sim.step();
  const double bound = kG * kDt * kDt / kEpsilon;
  double worst = 0.0;
  for (int s = 0; s < 100; ++s) worst = std::max(worst, sim.step().max_penetration);
  EXPECT_LT(worst, bound);
  const auto& q = sim.particles();
  // Flat on the lower brick: its z axis vertical, its centre a thickness above the lower's.
  const std::size_t upper = q.id[0] == 0 ? 1 : 0;
  EXPECT_GT((q.orientation[upper] * Vec3::UnitZ())[2], std::cos(1e-4));
  EXPECT_NEAR(q.position[upper][2], 3.0 * h[2], bound);
  EXPECT_LT(q.velocity[upper].norm(), 1e-4);
}
