#pragma once
// `granite run`: builds the scenario, steps it to run.end_time, prints the thermo table every
// run.thermo_every steps (and writes it to OUTPUT/thermo.csv), deletes particles whose centre
// leaves the domain, and closes with a timing breakdown.
#include "granite/io/config.hpp"

#include <string>

namespace granite::scenario {

struct RunSummary {
  std::int64_t steps = 0;
  std::size_t particles = 0;
  std::size_t deleted = 0;
  double wall_seconds = 0.0;
};

/// Throws InputError for problems with the output directory.
RunSummary run_scenario(const config::ScenarioConfig& cfg, const std::string& output_dir);

} // namespace granite::scenario
