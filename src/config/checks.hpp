#pragma once
// The checks of a configuration that involve more than one key, on its typed settings
// (settings.hpp); the user's nodes give the file:line:column of the error line.
#include "positions.hpp"

namespace granite::config::detail {

/// Throws InputError naming the first problem: step counts that a run cannot count, a domain,
/// statistics region or measurement grid with max <= min, a method and a model that do not go
/// together, a compatible pass on frictional contacts, sizes, lattices, regions and windows of
/// the particle sources, fixed sources that move, the inflow's piston, degenerate global bodies
/// and their prescribed motions.
void check_settings(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins);

}  // namespace granite::config::detail
