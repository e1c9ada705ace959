// Configuration errors: each kind gives one line naming file, line:column, key path and the
// expectation; valid files come back with every default filled in.
#include "granite/core/error.hpp"
#include "granite/config/config.hpp"
#include "granite/config/scenario_schema.hpp"
#include "granite/config/settings.hpp"
#include "granite/body/global_body.hpp"
#include "granite/body/triangle_mesh.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

using granite::InputError;
using granite::config::load_scenario;

const char* kValid = R"(run:
  dt: 1.0e-4
  end_time: 0.01
domain:
  min: [0, 0, 0]
  max: [1, 1, 1]
materials:
  - name: glass
    density: 2650
bodies:
  - type: plane
    point: [0, 0, 0]
    normal: [0, 0, 1]
    material: glass
particles:
  - type: sphere
    position: [0.5, 0.5, 0.5]
    radius: 0.01
    material: glass
)";

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("granite_cfg_" + name + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return text.replace(pos, from.size(), to);
}

// Returns the error message of loading `text` (fails the test if it loads).
std::string error_of(const std::string& name, const std::string& text,
                     const std::vector<std::string>& overrides = {}) {
  const std::string path = write_temp(name, text);
  try {
    load_scenario(path, overrides);
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line expected: " << message;
    EXPECT_EQ(message.rfind(path, 0), 0u) << "message must start with the file: " << message;
    return message;
  }
  ADD_FAILURE() << "expected an InputError for " << name;
  return "";
}

TEST(Config, ValidFileGetsDefaults) {
  const auto cfg = load_scenario(write_temp("valid", kValid), {});
  EXPECT_DOUBLE_EQ(cfg.resolved["run"]["dt"].as<double>(), 1e-4);
  EXPECT_EQ(cfg.resolved["run"]["thermo_every"].as<int>(), 100);
  EXPECT_EQ(cfg.resolved["contact"]["model"].as<std::string>(), "mdp");
  EXPECT_DOUBLE_EQ(cfg.resolved["gravity"][2].as<double>(), -9.81);
  EXPECT_DOUBLE_EQ(cfg.resolved["materials"][0]["friction"].as<double>(), 0.4);
  EXPECT_DOUBLE_EQ(cfg.resolved["bodies"][0]["velocity"][0].as<double>(), 0.0);
}

TEST(Config, UnknownKeyNamesKeyAndLine) {
  const auto msg = error_of(
      "unknown", replace(kValid, "  end_time: 0.01\n", "  end_time: 0.01\n  end_tme: 3\n"));
  EXPECT_NE(msg.find(":4:3: run.end_tme: unknown key"), std::string::npos) << msg;
}

TEST(Config, WrongTypeNamesKeyLineAndExpectation) {
  const auto msg = error_of("type", replace(kValid, "dt: 1.0e-4", "dt: fast"));
  EXPECT_NE(msg.find(":2:7: run.dt: expected a number > 0; got 'fast'"), std::string::npos) << msg;
}

TEST(Config, MissingRequiredKey) {
  const auto msg = error_of("missing", replace(kValid, "  end_time: 0.01\n", ""));
  EXPECT_NE(msg.find(":2:3: run.end_time: missing required key"), std::string::npos) << msg;
}

TEST(Config, OutOfRangeValue) {
  const auto msg = error_of("range", std::string(kValid) + "contact:\n  error_reduction: 1.5\n");
  EXPECT_NE(msg.find(":21:20: contact.error_reduction: expected a number in [0, 1]"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
}

TEST(Config, ListEntriesAreNamedByIndex) {
  const auto msg = error_of("list", replace(kValid, "density: 2650", "density: -1"));
  EXPECT_NE(msg.find(":9:14: materials[0].density: expected a number > 0"), std::string::npos)
      << msg;
}

TEST(Config, UnknownBodyType) {
  const auto msg = error_of("tag", replace(kValid, "type: plane", "type: torus"));
  EXPECT_NE(
      msg.find(":11:11: bodies[0].type: expected a map with 'type: plane|box|cylinder|union|mesh'"),
      std::string::npos)
      << msg;
}

TEST(Config, WrongVectorLength) {
  const auto msg = error_of("vec", replace(kValid, "max: [1, 1, 1]", "max: [1, 1]"));
  EXPECT_NE(msg.find(":6:8: domain.max: expected a list of 3 numbers"), std::string::npos) << msg;
}

TEST(Config, UnknownMaterialReference) {
  const auto msg = error_of("material", replace(kValid, "    material: glass\nparticles",
                                                "    material: steel\nparticles"));
  EXPECT_NE(msg.find(":14:15: bodies[0].material: unknown material 'steel'"), std::string::npos)
      << msg;
}

TEST(Config, YamlSyntaxErrorHasLine) {
  const auto msg = error_of("syntax", replace(kValid, "min: [0, 0, 0]", "min: [0, 0, 0"));
  EXPECT_NE(msg.find("YAML syntax error"), std::string::npos) << msg;
}

TEST(Config, OverridesApplyAndErrorsNameTheOverride) {
  const std::string path = write_temp("override", kValid);
  const auto cfg = load_scenario(path, {"contact.model=coulomb", "materials.0.friction=0.25"});
  EXPECT_EQ(cfg.resolved["contact"]["model"].as<std::string>(), "coulomb");
  EXPECT_DOUBLE_EQ(cfg.resolved["materials"][0]["friction"].as<double>(), 0.25);
  // List indices also as the error messages write them.
  const auto bracketed = load_scenario(path, {"materials[0].friction=0.125"});
  EXPECT_DOUBLE_EQ(bracketed.resolved["materials"][0]["friction"].as<double>(), 0.125);
  try {
    load_scenario(path, {"contact.model=fast"});
    ADD_FAILURE() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("--set contact.model=fast: contact.model: expected one of"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(load_scenario(path, {"contact.modle=mdp"}), InputError);
  EXPECT_THROW(load_scenario(path, {"nokey"}), InputError);
}

TEST(Config, LocalitySortIsOnByDefaultAndNoneTurnsItOff) {
  const std::string path = write_temp("locality", kValid);
  EXPECT_TRUE(load_scenario(path, {}).settings.contact.locality_sort);
  EXPECT_TRUE(load_scenario(path, {"contact.locality_sort=morton"}).settings.contact.locality_sort);
  EXPECT_FALSE(load_scenario(path, {"contact.locality_sort=none"}).settings.contact.locality_sort);
  try {
    load_scenario(path, {"contact.locality_sort=hilbert"});
    ADD_FAILURE() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("contact.locality_sort: expected one of"),
              std::string::npos)
        << e.what();
  }
}

TEST(Config, IntegersMustFitWhatIsReadFromThem) {
  const std::string path = write_temp("wide", kValid);
  try {
    load_scenario(path, {"run.thermo_every=99999999999"});
    ADD_FAILURE() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "run.thermo_every: expected an integer >= 1; got 99999999999 (out of range)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(load_scenario(path, {"run.seed=99999999999"}).settings.run.seed, 99999999999u);
}

TEST(Config, SettingsAreTheResolvedValuesWithMaterialIndices) {
  const std::string path = write_temp("settings", kValid);
  const auto cfg =
      load_scenario(path, {"materials=[{name: steel, density: 7800}, {name: glass, density: 2650}]",
                           "particles.0.group=3", "contact.model=coulomb_approx"});
  const granite::config::Settings& s = cfg.settings;
  EXPECT_DOUBLE_EQ(s.run.dt, 1e-4);
  EXPECT_EQ(s.run.thermo_every, 100);
  EXPECT_EQ(s.contact.model.model, granite::contact::Model::coulomb_approx);
  ASSERT_EQ(s.materials.size(), 2u);
  EXPECT_EQ(s.materials[1].name, "glass");
  EXPECT_DOUBLE_EQ(s.materials[1].friction, 0.4);
  ASSERT_EQ(s.bodies.size(), 1u);
  EXPECT_EQ(s.bodies[0].material, 1u);
  ASSERT_EQ(s.particles.size(), 1u);
  const auto& sphere = std::get<granite::config::SphereSettings>(s.particles[0]);
  EXPECT_EQ(sphere.material, 1u);
  EXPECT_EQ(sphere.group, 3);
  EXPECT_DOUBLE_EQ(sphere.radius, 0.01);
  EXPECT_EQ(s.domain.outflow, (std::array<bool, 6>{true, true, true, true, true, true}));
  EXPECT_FALSE(s.inflow);
  EXPECT_FALSE(s.statistics);
  EXPECT_EQ(s.output.directory, "output");
}

// Oriented boxes (axis and angle in degrees), drums and rotations reach the typed settings;
// a zero orientation axis and a rotation with a velocity are refused.
TEST(Config, OrientationDrumAndRotation) {
  const std::string text = replace(
      kValid, "  - type: plane\n    point: [0, 0, 0]\n    normal: [0, 0, 1]\n    material: glass\n",
      "  - {type: box, center: [0.5, 0.5, 0.1], half_extents: [0.1, 0.2, 0.3], material: glass,\n"
      "     orientation: {axis: [0, 0, 2], angle: 90}}\n"
      "  - {type: cylinder, center: [0.5, 0.5, 0.5], axis: [0, 1, 0], radius: 0.4,\n"
      "     half_length: 0.1, inside: true, material: glass,\n"
      "     rotation: {center: [0.5, 0.5, 0.5], angular_velocity: [0, 2, 0]}}\n");
  const auto cfg = load_scenario(write_temp("orientation", text), {});
  const granite::config::Settings& s = cfg.settings;
  ASSERT_EQ(s.bodies.size(), 2u);
  const auto& box = std::get<granite::body::Box>(s.bodies[0].parts[0]);
  EXPECT_NEAR((box.orientation * granite::Vec3::UnitX() - granite::Vec3::UnitY()).norm(), 0.0,
              1e-15);
  const auto& drum = std::get<granite::body::Cylinder>(s.bodies[1].parts[0]);
  EXPECT_TRUE(drum.inside);
  EXPECT_FALSE(std::get<granite::body::Box>(s.bodies[0].parts[0]).half_extents.isZero());
  EXPECT_TRUE(s.motions[1].rotates());
  EXPECT_FALSE(s.motions[0].moves());
  EXPECT_EQ(s.motions[1].angular_velocity, granite::Vec3(0, 2, 0));
  EXPECT_EQ(s.motions[1].center, granite::Vec3(0.5, 0.5, 0.5));
  EXPECT_NE(error_of("zero_axis", text, {"bodies.0.orientation.axis=[0,0,0]"})
                .find("bodies[0].orientation: axis: expected a non-zero vector"),
            std::string::npos);
  EXPECT_NE(error_of("rotation_velocity", text, {"bodies.1.velocity=[1,0,0]"})
                .find("bodies[1].rotation: a rotating body translates only by a motion"),
            std::string::npos);
}

TEST(Config, MissingFile) {
  try {
    load_scenario("/nonexistent/granite.yaml", {});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/granite.yaml: cannot open"),
              std::string::npos);
  }
}

// docs/config.md is generated from the schema; the two must agree.
// A checkpoint written before a key existed (its stored configuration, resolved by that
// version, lacks the key) restarts under a configuration that leaves the key at its default:
// the key counts with its default on both sides. A changed value is still a difference, and
// so is an entry added to a list.
TEST(Config, RestartOfACheckpointWrittenBeforeAKeyExistedTakesTheKeysDefault) {
  const auto cfg = load_scenario(write_temp("restart_now", kValid), {});
  YAML::Node older = YAML::Clone(cfg.resolved);
  older["solver"].remove("exchange");
  const std::string saved = granite::config::to_text(older);
  EXPECT_TRUE(granite::config::restart_differences(saved, cfg.resolved).empty());

  const auto explicit_value =
      load_scenario(write_temp("restart_exchange", kValid), {"solver.exchange=after_sweep"});
  const auto differences = granite::config::restart_differences(saved, explicit_value.resolved);
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(differences[0], "solver.exchange: auto in the checkpoint, after_sweep now");

  const auto added = load_scenario(write_temp("restart_added", std::string(kValid) +
                                                                   "  - type: sphere\n"
                                                                   "    position: [0.2, 0.5, 0.5]\n"
                                                                   "    radius: 0.01\n"
                                                                   "    material: glass\n"),
                                   {});
  EXPECT_FALSE(granite::config::restart_differences(saved, added.resolved).empty());
}

// domain.balance auto (the default) is dynamic; beside mesh walls of more than
// kAutoBalanceMeshTriangles triangles in all it keeps equal cuts, which split them among the
// ranks. An explicit mode is kept as given.
TEST(Config, BalanceAutoIsDynamicUnlessLargeMeshWallsNeedEqualCuts) {
  using granite::config::BalanceMode;
  const auto cfg = load_scenario(write_temp("balance_auto", kValid), {});
  EXPECT_EQ(cfg.resolved["domain"]["balance"].as<std::string>(), "auto");
  EXPECT_EQ(cfg.settings.domain.balance, BalanceMode::dynamic);
  EXPECT_TRUE(cfg.settings.domain.balance_auto);
  const auto given = load_scenario(write_temp("balance_none", kValid), {"domain.balance=none"});
  EXPECT_EQ(given.settings.domain.balance, BalanceMode::none);
  EXPECT_FALSE(given.settings.domain.balance_auto);

  // Walls of n triangles each (a strip of n triangles over n + 2 vertices).
  const auto walls = [](std::vector<std::size_t> sizes) {
    std::vector<granite::body::GlobalBody> bodies(1);
    for (const std::size_t n : sizes) {
      std::vector<granite::Vec3> vertices;
      std::vector<granite::body::MeshTriangle> triangles;
      for (std::size_t k = 0; k < n + 2; ++k)
        vertices.emplace_back(double(k / 2), double(k % 2), 0.0);
      for (std::int32_t k = 0; k < std::int32_t(n); ++k) triangles.push_back({k, k + 1, k + 2});
      bodies[0].parts.push_back(granite::body::Mesh{
          std::make_shared<const granite::body::TriangleMesh>(vertices, triangles, 0.01),
          granite::Vec3::Zero(), granite::Quat::Identity()});
    }
    return bodies;
  };
  const std::size_t limit = granite::config::kAutoBalanceMeshTriangles;
  EXPECT_EQ(granite::config::automatic_balance({}), BalanceMode::dynamic);
  EXPECT_EQ(granite::config::automatic_balance(walls({limit / 2, limit / 2})),
            BalanceMode::dynamic);
  EXPECT_EQ(granite::config::automatic_balance(walls({limit / 2, limit / 2 + 1})),
            BalanceMode::none);
}

// The configuration a checkpoint stores: `resolved` as it was written with section.key = value
// (a default since changed).
std::string checkpoint_with(const YAML::Node& resolved, const std::string& section,
                            const std::string& key, const std::string& value) {
  YAML::Node older = YAML::Clone(resolved);
  older[section][key] = value;
  return granite::config::to_text(older);
}

// A checkpoint written when domain.balance defaulted to none restarts only with none: the
// difference names the key and says what to set.
TEST(Config, RestartAcrossTheChangedBalanceDefaultNamesTheKeyToSet) {
  const auto cfg = load_scenario(write_temp("restart_balance", kValid), {});
  const std::string older = checkpoint_with(cfg.resolved, "domain", "balance", "none");
  const auto differences = granite::config::restart_differences(older, cfg.resolved);
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(differences[0], "domain.balance: none in the checkpoint, auto now (its default is now "
                            "auto: set domain.balance: none to continue this run)");
  const auto none = load_scenario(write_temp("restart_none", kValid), {"domain.balance=none"});
  EXPECT_TRUE(granite::config::restart_differences(older, none.resolved).empty());
}

// solver.exchange auto overlaps only across nodes; a checkpoint written when the default was
// overlapped restarts with that value set, as the difference says.
TEST(Config, ExchangeAutoOverlapsOnlyAcrossNodes) {
  using granite::config::ExchangeMode;
  using granite::config::overlaps_exchange;
  EXPECT_FALSE(overlaps_exchange(ExchangeMode::automatic, true));
  EXPECT_TRUE(overlaps_exchange(ExchangeMode::automatic, false));
  for (const bool one_node : {true, false}) {
    EXPECT_TRUE(overlaps_exchange(ExchangeMode::overlapped, one_node));
    EXPECT_FALSE(overlaps_exchange(ExchangeMode::after_sweep, one_node));
  }
  const auto cfg = load_scenario(write_temp("restart_exchange_auto", kValid), {});
  EXPECT_EQ(cfg.settings.solver.exchange, ExchangeMode::automatic);
  const auto differences = granite::config::restart_differences(
      checkpoint_with(cfg.resolved, "solver", "exchange", "overlapped"), cfg.resolved);
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(differences[0], "solver.exchange: overlapped in the checkpoint, auto now (its default "
                            "is now auto: set solver.exchange: overlapped to continue this run)");
}

TEST(Config, ReferenceDocumentMatchesSchema) {
  std::ifstream in(std::string(GRANITE_SOURCE_DIR) + "/docs/config.md");
  ASSERT_TRUE(in) << "docs/config.md is missing (granite check --schema > docs/config.md)";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), granite::config::markdown(granite::config::scenario_schema(),
                                                  "Granite configuration reference"))
      << "regenerate with: ./build/granite check --schema > docs/config.md";
}

// The checks across keys run on the typed settings (config/checks.cpp) and name the user's line
// and column. kValid ends at line 19; what is appended starts at line 20 (a particles entry
// continues the list).
TEST(Config, CrossKeyChecksNameTheLine) {
  const std::string lattice = "  - type: lattice\n"
                              "    min: [0, 0, 0]\n"
                              "    max: [0.1, 0.1, 0.1]\n"
                              "    spacing: 0.01\n";
  const std::string pour = "  - type: pour\n"
                           "    region: {type: box, min: [0, 0, 0.5], max: [1, 1, 1]}\n"
                           "    rate: 100\n"
                           "    radius: 0.005\n"
                           "    material: glass\n";
  const std::string inflow =
      "inflow:\n  piston: PISTON\n  layer_every: 0.01\n"
      "  layer: {min: [0, 0, 0], max: [0.1, 0.1, 0.1], spacing: 0.02, radius: 0.005, "
      "material: glass}\n";
  const struct {
    const char* name;
    std::string text;
    const char* expected;
  } cases[] = {
      {"spacing", kValid + lattice + "    radius: 0.006\n    material: glass\n",
       ":24:13: particles[1].radius: expected at most spacing/2 (particles would overlap)"},
      {"lattice_max",
       kValid + replace(lattice, "max: [0.1, 0.1, 0.1]", "max: [0.1, -0.1, 0.1]") +
           "    radius: 0.001\n    material: glass\n",
       ":22:10: particles[1].max: expected each component >= min"},
      {"size_range",
       kValid + lattice +
           "    size: {type: uniform, min: 0.002, max: 0.001}\n    material: glass\n",
       ":24:44: particles[1].size.max: expected > min"},
      {"size_by_mass",
       kValid + lattice +
           "    size: {type: uniform, min: 0.00002, max: 0.004, by: mass}\n    material: glass\n",
       ":24:46: particles[1].size.max: by mass, expected at most 100 x min (got 200 x)"},
      {"pour_window", kValid + pour + "    start: 0.5\n    end: 0.2\n",
       ":26:10: particles[1].end: expected > start"},
      {"region_box", kValid + replace(pour, "max: [1, 1, 1]", "max: [1, 1, 0.5]") + "    end: 1\n",
       ":21:48: particles[1].region.max: expected each component > min"},
      {"region_axis",
       kValid +
           replace(pour, "{type: box, min: [0, 0, 0.5], max: [1, 1, 1]}",
                   "{type: cylinder, center: [0.5, 0.5, 0.5], axis: [0, 0, 0], radius: 0.1, "
                   "half_length: 0.1}") +
           "    end: 1\n",
       ":21:61: particles[1].region.axis: expected a non-zero vector"},
      {"fixed_moves",
       replace(kValid, "    radius: 0.01\n",
               "    radius: 0.01\n    fixed: true\n    velocity: [1, 0, 0]\n"),
       ":20:15: particles[0].velocity: a fixed particle source takes no velocity"},
      {"domain", replace(kValid, "max: [1, 1, 1]", "max: [1, 0, 1]"),
       ":6:8: domain.max: expected each component > domain.min"},
      {"piston_index", kValid + replace(inflow, "PISTON", "3"),
       ":21:11: inflow.piston: expected the index of an entry of `bodies` (there are 1)"},
      {"piston_still", kValid + replace(inflow, "PISTON", "0"),
       ":21:11: inflow.piston: bodies[0] must be a plane with a non-zero velocity"},
      {"method", kValid + std::string("solver: {method: apgd}\n"),
       ":20:18: solver.method: apgd solves the cone complementarity model; it needs "
       "contact.model: ccp (got mdp)"},
      {"grid_cells",
       kValid + std::string("measurements:\n  grid: {interval: 0.01, min: [0, 0, 0], max: [1, 1, "
                            "1], cells: [200, 200, 200]}\n"),
       ":21:65: measurements.grid.cells: 8e+06 cells in all, more than 10^6"},
      {"grid_interval",
       kValid + std::string("measurements:\n  grid: {interval: 1.0e300, min: [0, 0, 0], max: [1, "
                            "1, 1], cells: [2, 2, 2]}\n"),
       ":21:20: measurements.grid.interval: 1e+300 s is 1e+304 steps of run.dt, more than the "
       "2^53 a run can count"},
      {"statistics_region",
       kValid + std::string("statistics: {interval: 0.01, region_max: [2, 1, 1]}\n"),
       ":20:42: statistics.region_max: expected each component <= domain.max"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(c.name, c.text);
    EXPECT_NE(message.find(c.expected), std::string::npos) << c.name << ": " << message;
  }
}

}  // namespace
