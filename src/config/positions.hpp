#pragma once
// Where a configuration value came from, for the one error line that names it (loader.cpp,
// checks.cpp): the --set that gave it, or file:line:column of its node in the user's file.
#include "granite/config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <map>
#include <string>

namespace granite::config::detail {

/// Key path ("a.b[0].c") -> "--set '...'" that set it.
using Origins = std::map<std::string, std::string>;

/// file:line:column of `node`, or `file` for a node that is not in the file (a default).
std::string where(const std::string& file, const YAML::Node& node);
/// The --set that gave `path` (or a section above it), else where(cfg.file, node).
std::string origin(const ScenarioConfig& cfg, const Origins& origins, const std::string& path,
                   const YAML::Node& node);
/// The user's node under `node` at a key or a list index; undefined if `node` or the entry is
/// absent (an absent section's values are defaults; yaml-cpp throws on a lookup in an absent
/// node, so every step goes through these).
YAML::Node in(const YAML::Node& node, const std::string& key);
YAML::Node in(const YAML::Node& node, std::size_t index);
/// %.6g.
std::string number(double value);

}  // namespace granite::config::detail
