// Where a configuration value came from (see positions.hpp).
#include "positions.hpp"

#include <cstdio>

namespace granite::config::detail {

std::string where(const std::string& file, const YAML::Node& node) {
  if (node && node.Mark().line >= 0)
    return file + ":" + std::to_string(node.Mark().line + 1) + ":" +
           std::to_string(node.Mark().column + 1);
  return file;
}

std::string origin(const ScenarioConfig& cfg, const Origins& origins, const std::string& path,
                   const YAML::Node& node) {
  for (const auto& [key, text] : origins)
    if (path == key || path.rfind(key + ".", 0) == 0) return text;
  return where(cfg.file, node);
}

YAML::Node in(const YAML::Node& node, const std::string& key) {
  if (!node || !node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node& n = node;
  return n[key] ? n[key] : YAML::Node(YAML::NodeType::Undefined);
}

YAML::Node in(const YAML::Node& node, std::size_t index) {
  if (!node || !node.IsSequence() || index >= node.size())
    return YAML::Node(YAML::NodeType::Undefined);
  return node[index];
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace granite::config::detail
