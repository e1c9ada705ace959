#pragma once
// A small typed schema for YAML configuration files. Every key Granite reads is declared once
// (type, unit, default, range, description); validation, default filling and the generated
// reference docs/config.md all come from the same declaration.
#include <yaml-cpp/yaml.h>

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace granite::config {

enum class Kind { map, list, tagged, boolean, integer, real, string, choice, vec3, int3, bool3 };

struct Schema;
using SchemaPtr = std::shared_ptr<const Schema>;

/// Field::default_yaml of an optional section that stays absent unless given (its keys are
/// validated, required ones included, only when it is present).
inline constexpr const char* kAbsent = "(absent)";

struct Field {
  std::string key;
  SchemaPtr schema;
  bool required = false;
  std::string default_yaml;  // YAML text of the default; empty: no default
  std::string unit;          // SI unit, "" if dimensionless
  std::string doc;
};

struct Schema {
  Kind kind = Kind::map;
  // Ranges (integer, real and each component of vec3/int3).
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  bool max_exclusive = false;
  bool wide = false;  // integer: any 64-bit value; otherwise it must fit an int (what is read)
  std::vector<std::string> choices;                         // choice
  std::vector<Field> fields;                                // map (and each tagged variant)
  SchemaPtr element;                                        // list
  std::size_t min_size = 0;                                 // list
  std::vector<std::pair<std::string, SchemaPtr>> variants;  // tagged: selected by key "type"
  std::string doc;                                          // tagged variant description
};

// Builders used by the schema tables.
SchemaPtr boolean();
SchemaPtr integer(double min, double max = std::numeric_limits<double>::infinity());
/// An integer read as a 64-bit value (a seed, a step number).
SchemaPtr wide_integer(double min);
SchemaPtr real(double min, double max = std::numeric_limits<double>::infinity(),
               bool min_exclusive = false, bool max_exclusive = false);
SchemaPtr any_real();
SchemaPtr text();
SchemaPtr choice(std::vector<std::string> choices);
SchemaPtr vec3(double min = -std::numeric_limits<double>::infinity(),
               double max = std::numeric_limits<double>::infinity());
SchemaPtr int3(double min, double max = std::numeric_limits<double>::infinity());
SchemaPtr bool3();
SchemaPtr map(std::vector<Field> fields);
SchemaPtr list(SchemaPtr element, std::size_t min_size = 0);
SchemaPtr tagged(std::vector<std::pair<std::string, SchemaPtr>> variants);

/// Human-readable expectation, e.g. "a number > 0" or "one of mdp|coulomb".
std::string describe(const Schema& schema);

/// Validates `input` against `schema` and returns a deep copy with every default filled in.
/// Throws InputError with one line "FILE:LINE:COL: KEY.PATH: expected ...; got ..." on the
/// first problem (unknown key, wrong type, missing required key, value out of range).
/// `origins` maps key paths whose values did not come from the file (command-line --set) to
/// the text to name instead of FILE:LINE:COL.
YAML::Node resolve(const YAML::Node& input, const Schema& schema, const std::string& file,
                   const std::map<std::string, std::string>& origins = {});

/// Markdown reference of every key (path, type, unit, default, description).
std::string markdown(const Schema& schema, const std::string& title);

}  // namespace granite::config
