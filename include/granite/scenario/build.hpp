#pragma once
// Scenario assembly: turns a resolved configuration (see docs/config.md) into a Simulation
// with its parameters, materials, global bodies and initial particles.
#include "granite/timestep/simulation.hpp"

#include <yaml-cpp/yaml.h>

#include <random>

namespace granite::scenario {

/// Fills `sim` from `resolved` (validated by config::load_scenario). Random velocity
/// perturbations are drawn from `rng`, so the same seed gives the same particles.
void build_simulation(const YAML::Node& resolved, timestep::Simulation& sim, std::mt19937_64& rng);

/// The axis-aligned domain box [min, max] of the configuration.
struct Domain {
  Vec3 min, max;
  bool contains(const Vec3& x) const {
    return (x.array() >= min.array()).all() && (x.array() <= max.array()).all();
  }
};
Domain domain_of(const YAML::Node& resolved);

} // namespace granite::scenario
