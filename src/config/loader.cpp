// Loading a configuration (see include/granite/config/config.hpp): parse, --set overrides,
// the schema (types, ranges, defaults), the references settings_of needs, the typed settings,
// the cross-key checks on them (checks.cpp).
#include "granite/config/config.hpp"

#include "granite/config/scenario_schema.hpp"
#include "granite/config/yaml_duplicate_keys.hpp"
#include "granite/core/error.hpp"
#include "granite/io/input_file.hpp"

#include "checks.hpp"

#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace granite::config {

using detail::in;
using detail::Origins;
using detail::where;

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, sep);) parts.push_back(part);
  return parts;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// The value of an index key; one too large for size_t is past the end of any list.
std::size_t index_of(const std::string& key) {
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), index);
  return error == std::errc() ? index : std::numeric_limits<std::size_t>::max();
}

// How many places of the document hold `node`: more than one when a YAML alias (*name) shares
// it. Each distinct node is visited once, since aliases can share deep subtrees or form cycles
// (`&a [*a]`).
int references(const YAML::Node& root, const YAML::Node& node) {
  std::vector<YAML::Node> visited, pending{root};
  int count = 0;
  while (!pending.empty()) {
    const YAML::Node current = pending.back();
    pending.pop_back();
    if (std::any_of(visited.begin(), visited.end(),
                    [&](const YAML::Node& v) { return v.is(current); }))
      continue;
    visited.push_back(current);
    const auto hold = [&](const YAML::Node& child) {
      count += child.is(node) ? 1 : 0;
      pending.push_back(child);
    };
    if (current.IsSequence())
      for (const auto& child : current) hold(child);
    else if (current.IsMap())
      for (const auto& pair : current) hold(pair.second);
  }
  return count;
}

// Applies one "a.b.0.c=value" or "a.b[0].c=value" override to the parsed document and returns
// the schema-style path ("a.b[0].c") it set.
std::string apply_override(YAML::Node& root, const std::string& text) {
  const std::string set = "--set " + shown(text);
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError(set + ": expected KEY.PATH=VALUE");
  std::string dotted;  // list indices as written in error messages, "[0]", become ".0"
  for (const char c : text.substr(0, eq))
    if (c == '[')
      dotted += '.';
    else if (c != ']')
      dotted += c;
  const std::vector<std::string> keys = split(dotted, '.');
  YAML::Node value;
  try {
    const std::string yaml = text.substr(eq + 1);
    if (const auto duplicate = find_duplicate_key(yaml))
      throw InputError(set + ": duplicate key '" + shown(duplicate->key) + "'");
    value = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    throw InputError(set + ": value is not valid YAML (" +
                     (dynamic_cast<const YAML::DeepRecursion*>(&e) ? "nested too deeply" : e.msg) +
                     ")");
  }
  std::string path;
  // yaml-cpp nodes are handles: assigning through `node` writes into `root`.
  std::vector<YAML::Node> chain{root};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string& key = keys[i];
    if (key.empty()) throw InputError(set + ": empty key in path");
    YAML::Node parent = chain.back();
    YAML::Node child;
    if (is_index(key)) {
      const std::size_t index = index_of(key);
      if (!parent.IsSequence() || index >= parent.size())
        throw InputError(set + ": " + (path.empty() ? "(top level)" : path) + " has no entry " +
                         key);
      child = parent[index];
      path += "[" + key + "]";
    } else {
      if (parent.IsDefined() && !parent.IsNull() && !parent.IsMap())
        throw InputError(set + ": " + path + " is not a map");
      child = parent[key];
      path += (path.empty() ? "" : ".") + key;
    }
    // A node that a YAML alias shares with another key would take the value there too.
    if (child.IsDefined() && references(root, child) > 1)
      throw InputError(set + ": " + path +
                       " is shared with another key through a YAML alias (*name); write it out "
                       "in full to set it alone");
    if (i + 1 == keys.size()) {
      if (is_index(key))
        parent[index_of(key)] = value;
      else
        parent[key] = value;
    }
    chain.push_back(child);
  }
  return path;
}

[[noreturn]] void syntax_error(const std::string& source, const YAML::Exception& e) {
  // yaml-cpp stops nesting (lists in lists, maps in maps) at a fixed parser depth; its message
  // is only "bad file".
  const bool deep = dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr;
  throw InputError(source + ":" + std::to_string(e.mark.line + 1) + ":" +
                   std::to_string(e.mark.column + 1) +
                   ": YAML syntax error: " + (deep ? std::string("nested too deeply") : e.msg));
}

YAML::Node parse_file(const std::string& path) {
  const std::string text = io::read_input_file(path, "configuration file");
  try {
    if (const auto duplicate = find_duplicate_key(text))
      throw InputError(path + ":" + std::to_string(duplicate->line) + ":" +
                       std::to_string(duplicate->column) + ": duplicate key '" +
                       shown(duplicate->key) + "' (first at line " +
                       std::to_string(duplicate->first_line) + ")");
    YAML::Node root = YAML::Load(text);
    if (!root.IsDefined() || root.IsNull())
      throw InputError(path + ": the configuration file is empty");
    if (!root.IsMap()) throw InputError(path + ":1:1: (top level): expected a map of sections");
    return root;
  } catch (const YAML::ParserException& e) {
    syntax_error(path, e);
  }
}

// The checks that settings_of needs passed before it reads the configuration (names and the
// presence of alternatives; the typed settings cannot hold a wrong one): material and shape
// names unique and known, `radius`, `size` or `shape`, `count` or `solid_fraction`, `rate` or
// `mass_rate`. The checks across keys run on the typed settings (checks.cpp).
void check_references(const ScenarioConfig& cfg, const YAML::Node& input) {
  const YAML::Node& r = cfg.resolved;
  // The names of a list's entries (`section`, each a `noun`), unique.
  const auto unique_names = [&](const char* section, const char* noun) {
    std::set<std::string> names;
    for (std::size_t i = 0; i < r[section].size(); ++i) {
      const auto name = r[section][i]["name"].as<std::string>();
      if (!names.insert(name).second)
        throw InputError(where(cfg.file, in(in(in(input, section), i), "name")) + ": " + section +
                         "[" + std::to_string(i) + "].name: duplicate " + noun + " name '" +
                         shown(name) + "'");
    }
    return names;
  };
  const std::set<std::string> names = unique_names("materials", "material");
  const std::set<std::string> shapes = unique_names("shapes", "shape");
  for (std::size_t i = 0; i < r["shapes"].size(); ++i) {  // a convex shape's vertices or file
    const YAML::Node shape = r["shapes"][i];
    if (shape["type"].as<std::string>() != "convex") continue;
    const int given = int(bool(shape["vertices"])) + int(bool(shape["file"]));
    if (given != 1)
      throw InputError(
          where(cfg.file, in(in(input, "shapes"), i)) + ": shapes[" + std::to_string(i) +
          "]: " + (given > 1 ? "give vertices or file, not both" : "missing vertices (or file)"));
  }
  // An entry's `key` names one of `known_names`; `hint` ends the message otherwise.
  const auto known_name = [&](const std::set<std::string>& known_names, const char* key,
                              const char* hint, const YAML::Node& resolved, const YAML::Node& given,
                              const std::string& path) {
    const auto name = resolved[key].as<std::string>();
    if (!known_names.count(name))
      throw InputError(where(cfg.file, in(given, key)) + ": " + path + "." + key + ": unknown " +
                       key + " '" + shown(name) + "'" + hint);
  };
  const auto known = [&](const YAML::Node& resolved, const YAML::Node& given,
                         const std::string& path) {
    known_name(names, "material", "", resolved, given, path);
  };
  const auto known_shape = [&](const YAML::Node& resolved, const YAML::Node& given,
                               const std::string& path) {
    known_name(shapes, "shape", " (not in `shapes`)", resolved, given, path);
  };
  // A generator's `radius`, `size` or `shape`: exactly one, the shape and a mixture's
  // materials known.
  const auto sized = [&](const YAML::Node& p, const YAML::Node& given, const std::string& path) {
    const int given_count = int(bool(p["radius"])) + int(bool(p["size"])) + int(bool(p["shape"]));
    if (given_count != 1)
      throw InputError(where(cfg.file, given) + ": " + path +
                       (given_count > 1 ? ": give one of radius, size or shape"
                                        : ": missing radius (or size, a distribution, or shape)"));
    if (p["shape"]) known_shape(p, given, path);
    const YAML::Node d = p["size"];
    if (!d || d["type"].as<std::string>() != "mixture") return;
    for (std::size_t k = 0; k < d["components"].size(); ++k) {
      const YAML::Node c = d["components"][k], c_given = in(in(in(given, "size"), "components"), k);
      const std::string at = path + ".size.components[" + std::to_string(k) + "]";
      if (bool(c["radius"]) == bool(c["shape"]))
        throw InputError(where(cfg.file, c_given) + ": " + at + ": give one of radius or shape");
      if (c["material"]) known(c, c_given, at);
      if (c["shape"]) known_shape(c, c_given, at);
    }
  };
  for (const char* section : {"bodies", "particles"})
    for (std::size_t i = 0; i < r[section].size(); ++i) {
      const YAML::Node p = r[section][i], given = in(in(input, section), i);
      const std::string path = std::string(section) + "[" + std::to_string(i) + "]";
      known(p, given, path);
      const std::string type = p["type"].as<std::string>();
      if (type == "lattice" || type == "random" || type == "pour") sized(p, given, path);
      if (type == "body") known_shape(p, given, path);
      if (type != "random" && type != "pour") continue;
      const char* one = type == "pour" ? "rate" : "count";
      const char* other = type == "pour" ? "mass_rate" : "solid_fraction";
      if (bool(p[one]) == bool(p[other]))
        throw InputError(where(cfg.file, given) + ": " + path + ": " +
                         (p[one] ? std::string("give ") + one + " or " + other + ", not both"
                                 : std::string("missing ") + one + " (or " + other + ")"));
    }
  if (r["inflow"]) {
    const YAML::Node layer = r["inflow"]["layer"], given = in(in(input, "inflow"), "layer");
    known(layer, given, "inflow.layer");
    sized(layer, given, "inflow.layer");
  }
}

}  // namespace

ScenarioConfig load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  YAML::Node input = parse_file(path);
  Origins origins;
  for (const auto& text : overrides) origins[apply_override(input, text)] = "--set " + shown(text);
  ScenarioConfig cfg;
  cfg.file = path;
  cfg.resolved = resolve(input, scenario_schema(), path, origins);
  check_references(cfg, input);
  // Mesh files of shapes and mesh walls are relative to the configuration's directory (they
  // belong to the scene): the resolved configuration holds the joined path.
  for (const char* list : {"shapes", "bodies"})
    for (YAML::Node entry : cfg.resolved[list])
      if (const YAML::Node file = entry["file"]) {
        const std::filesystem::path given = file.as<std::string>();
        if (given.is_relative())
          entry["file"] =
              (std::filesystem::path(path).parent_path() / given).lexically_normal().string();
      }
  cfg.settings = settings_of(cfg.resolved);
  detail::check_settings(cfg, input, origins);
  return cfg;
}

std::string to_text(const YAML::Node& resolved) {
  YAML::Emitter out;
  out.SetIndent(2);
  out.SetDoublePrecision(17);
  out << resolved;
  return std::string(out.c_str()) + "\n";
}

}  // namespace granite::config
