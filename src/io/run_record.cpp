#include "granite/io/run_record.hpp"

#include "granite/io/atomic_file.hpp"

#include <cstdlib>
#include <filesystem>

namespace granite::io {

namespace {

// A YAML scalar as the most specific JSON type that reads it back exactly.
nlohmann::ordered_json scalar_to_json(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  if (!text.empty()) {
    char* end = nullptr;
    const long long integer = std::strtoll(text.c_str(), &end, 10);
    if (*end == '\0') return integer;
    const double real = std::strtod(text.c_str(), &end);
    if (*end == '\0') return real;
  }
  return text;
}

}  // namespace

nlohmann::ordered_json config_to_json(const YAML::Node& node) {
  switch (node.Type()) {
  case YAML::NodeType::Map: {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& entry : node)
      out[entry.first.as<std::string>()] = config_to_json(entry.second);
    return out;
  }
  case YAML::NodeType::Sequence: {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& entry : node) out.push_back(config_to_json(entry));
    return out;
  }
  case YAML::NodeType::Scalar:
    return scalar_to_json(node.Scalar());
  default:
    return nullptr;
  }
}

void write_run_record(const std::string& output_dir, const nlohmann::ordered_json& record) {
  write_text_atomically((std::filesystem::path(output_dir) / "run.json").string(),
                        record.dump(2) + "\n");
}

}  // namespace granite::io
