#pragma once
// Scenario assembly: turns a resolved configuration (see docs/config.md) into a Simulation
// with its parameters, materials, global bodies and initial particles.
#include "granite/timestep/simulation.hpp"

#include <yaml-cpp/yaml.h>

#include <array>
#include <functional>
#include <random>

namespace granite::scenario {

/// Decides whether this process creates the particle at a position (its owner does).
using OwnsPosition = std::function<bool(const Vec3&)>;

/// Fills `sim` from `resolved` (validated by config::load_scenario), creating only the
/// particles for which `owns` is true. Every process walks all particle sources in the same
/// order, so ids (0, 1, 2, ... in config order) and the random velocity perturbations drawn
/// from `rng` are the same whatever the decomposition: the same seed gives the same particles.
/// Returns the number of ids used (the next free id), the same on every process.
BodyId build_simulation(const YAML::Node& resolved, timestep::Simulation& sim, std::mt19937_64& rng,
                        const OwnsPosition& owns = [](const Vec3&) { return true; });

/// The axis-aligned domain box [min, max] of the configuration and its periodic axes.
struct Domain {
  Vec3 min, max;
  std::array<bool, 3> periodic{false, false, false};
  /// True if x is inside on every non-periodic axis (outflow deletes the others).
  bool contains(const Vec3& x) const {
    for (int a = 0; a < 3; ++a)
      if (!periodic[a] && (x[a] < min[a] || x[a] > max[a])) return false;
    return true;
  }
};
Domain domain_of(const YAML::Node& resolved);

} // namespace granite::scenario
