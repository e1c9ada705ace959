// Every default is declared once (issue 36): a configuration that sets nothing but the required
// keys gives the engine exactly the values a default-constructed timestep::Parameters,
// contact::ModelSettings and solver::CompatibleSettings hold, so a
// coupling code that builds a Simulation itself runs what `granite run` runs. The one key
// without an engine value is contact.skin (absent: 0.8 × the largest radius, computed from the
// particles; the engine's 0 is "no neighbour lists").
#include "granite/config/config.hpp"
#include "granite/scenario/build.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace {

using namespace granite;

config::ScenarioConfig minimal_configuration() {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("granite_defaults_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << "run: {dt: 1.0e-4, end_time: 1.0e-3}\n"
                         "domain: {min: [0, 0, 0], max: [1, 1, 1]}\n"
                         "materials: [{name: glass, density: 2650}]\n";
  config::ScenarioConfig cfg = config::load_scenario(file.string(), {});
  std::filesystem::remove(file);
  return cfg;
}

TEST(Defaults, TheConfigurationsAreTheEngines) {
  const config::ScenarioConfig cfg = minimal_configuration();
  timestep::Simulation sim;
  std::mt19937_64 rng(1);
  scenario::build_simulation(cfg.settings, sim, rng);
  const timestep::Parameters& got = sim.parameters();
  const timestep::Parameters engine{};

  EXPECT_EQ(got.gravity, engine.gravity) << "gravity";
  EXPECT_EQ(got.model.model, engine.model.model) << "contact.model";
  EXPECT_EQ(got.model.golden_iterations, engine.model.golden_iterations)
      << "contact.golden_iterations";
  EXPECT_EQ(got.model.friction_directions, engine.model.friction_directions)
      << "contact.friction_directions";
  EXPECT_EQ(got.contact_threshold, engine.contact_threshold) << "contact.threshold";
  EXPECT_EQ(got.rebuild_every, engine.rebuild_every) << "contact.rebuild_every";
  EXPECT_EQ(got.locality_sort, engine.locality_sort) << "contact.locality_sort";
  EXPECT_EQ(got.error_reduction, engine.error_reduction) << "contact.error_reduction";
  EXPECT_EQ(got.compatible.has_value(), engine.compatible.has_value()) << "contact.compatible";
  EXPECT_EQ(got.compatible_settings.tolerance, engine.compatible_settings.tolerance)
      << "contact.compatible_tolerance";
  EXPECT_EQ(got.compatible_settings.max_outer_iterations,
            engine.compatible_settings.max_outer_iterations)
      << "contact.compatible_max_iterations";
  EXPECT_EQ(got.method, engine.method) << "solver.method";
  EXPECT_EQ(got.max_sweeps, engine.max_sweeps) << "solver.max_sweeps";
  EXPECT_EQ(got.tolerance, engine.tolerance) << "solver.tolerance";
  EXPECT_EQ(got.convergence, engine.convergence) << "solver.convergence";
  EXPECT_EQ(got.ordering, engine.ordering) << "solver.ordering";
  EXPECT_EQ(got.warm_start, engine.warm_start) << "solver.warm_start";
  EXPECT_EQ(got.check_every, engine.check_every) << "solver.check_every";
  EXPECT_EQ(got.lemke_max_contacts, engine.lemke_max_contacts) << "solver.lemke.max_contacts";
  EXPECT_EQ(got.ordering_seed, engine.ordering_seed) << "run.seed";

  EXPECT_EQ(got.relaxation_weight, engine.relaxation_weight) << "solver.relaxation_weight";
}

// The engine's defaults are those of the documented configuration, not of a test: the values
// docs/config.md states for the keys whose defaults disagreed before (issue 36).
TEST(Defaults, AreTheDocumentedOnes) {
  const timestep::Parameters engine{};
  EXPECT_EQ(engine.error_reduction, 0.2);
  EXPECT_EQ(engine.tolerance, 1e-4);
  EXPECT_EQ(engine.convergence, solver::Convergence::fc3d);
  EXPECT_EQ(engine.warm_start, 1.0);
  EXPECT_TRUE(engine.locality_sort);
  EXPECT_EQ(engine.compatible_settings.tolerance, 1e-8);
}

}  // namespace
