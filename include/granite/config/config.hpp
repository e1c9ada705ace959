#pragma once
// Loading a scenario file: YAML parse, command-line overrides, schema validation with
// defaults filled in, and the checks that involve several keys.
#include "granite/config/settings.hpp"

#include <yaml-cpp/yaml.h>

#include <functional>
#include <string>
#include <vector>

namespace granite::config {

struct ScenarioConfig {
  std::string file;     // as given on the command line
  YAML::Node resolved;  // validated, every default filled in (recorded verbatim with the output)
  Settings settings;    // `resolved` as typed settings
};

/// Throws InputError with one line naming the file, line/column, key path and expectation.
/// `overrides` are "key.path=value" strings (list entries by index: materials.0.friction=0.3).
ScenarioConfig load_scenario(const std::string& path, const std::vector<std::string>& overrides);

/// What differs between the resolved configuration text stored in a checkpoint and `now`,
/// one "key: old in the checkpoint, new now" per key, in key order; empty if they agree. Keys
/// added to the schema since the checkpoint was written count with their defaults.
/// run.end_time, run.thermo_every and output.* may change on a restart and are not listed, nor
/// the keys (paths like "materials[0].youngs_modulus") for which `also` is true.
std::vector<std::string>
restart_differences(const std::string& saved_text, const YAML::Node& now,
                    const std::function<bool(const std::string&)>& also = {});

/// The resolved configuration as YAML text (what `granite check` prints and runs record).
std::string to_text(const YAML::Node& resolved);

}  // namespace granite::config
