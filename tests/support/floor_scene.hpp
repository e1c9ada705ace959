#pragma once
// One body on the floor z = 0 under gravity (tilted or not), for the validation tests of shapes
// on a plane: the simulation's parameters for a converged relaxation (tolerance 1e-12, enough
// sweeps) and the half-space floor of a material of `density` and friction `mu`. Returns the
// material's index, for the body the test adds.
#include "granite/timestep/simulation.hpp"

namespace granite::test_support {

inline body::MaterialIndex floor_scene(timestep::Simulation& sim, double dt, const Vec3& gravity,
                                       double threshold, contact::Model model, int max_sweeps,
                                       double density, double mu) {
  auto& p = sim.parameters();
  p.dt = dt;
  p.gravity = gravity;
  p.contact_threshold = threshold;
  p.model.model = model;
  p.tolerance = 1e-12;
  p.max_sweeps = max_sweeps;
  const auto material = sim.materials().add({density, mu});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, material);
  return material;
}

}  // namespace granite::test_support
