#pragma once
// OUTPUT/run.json: the machine-readable record of a run (format "granite-run", version 1;
// layout in docs/output.md). Scripts and tests read it instead of parsing the log.
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <string>

namespace granite::io {

inline constexpr const char* kRunRecordFormat = "granite-run";
inline constexpr int kRunRecordVersion = 1;

/// The resolved configuration as JSON: maps and lists as such, scalars as booleans, integers,
/// numbers or strings (in that order of preference).
nlohmann::ordered_json config_to_json(const YAML::Node& resolved);

/// Writes `record` to `output_dir`/run.json atomically (run.json.tmp, renamed). Call on one
/// rank. Throws InputError naming the file if it cannot be written.
void write_run_record(const std::string& output_dir, const nlohmann::ordered_json& record);

}  // namespace granite::io
