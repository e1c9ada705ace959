#include "granite/config/config.hpp"

#include "granite/core/error.hpp"
#include "granite/io/input_file.hpp"
#include "granite/config/scenario_schema.hpp"
#include "granite/config/yaml_duplicate_keys.hpp"
#include "granite/solver/method.hpp"

#include <Eigen/Core>
#include <yaml-cpp/depthguard.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace granite::config {

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

std::string where(const std::string& file, const YAML::Node& node) {
  if (node && node.Mark().line >= 0)
    return file + ":" + std::to_string(node.Mark().line + 1) + ":" +
           std::to_string(node.Mark().column + 1);
  return file;
}

Eigen::Vector3d vec3(const YAML::Node& node) {
  return {node[0].as<double>(), node[1].as<double>(), node[2].as<double>()};
}

std::string number(double value);

// The largest radius a generator's `radius` or `size` gives (checked by check_size).
double largest_radius(const YAML::Node& p) {
  const YAML::Node d = p["size"];
  if (!d) return p["radius"].as<double>();
  if (d["type"].as<std::string>() != "mixture") return d["max"].as<double>();
  double largest = 0.0;
  for (const auto& c : d["components"]) largest = std::max(largest, c["radius"].as<double>());
  return largest;
}

// A generator's `radius` or `size`: exactly one, a range min < max, known mixture materials.
void check_size(const std::string& file, const YAML::Node& p, const YAML::Node& input,
                const std::string& path, const std::set<std::string>& materials) {
  if (bool(p["radius"]) == bool(p["size"]))
    throw InputError(where(file, input) + ": " + path +
                     (p["radius"] ? ": give radius or size, not both"
                                  : ": missing radius (or size, a distribution)"));
  const YAML::Node d = p["size"];
  if (!d) return;
  const YAML::Node given = input["size"];
  if (d["type"].as<std::string>() == "mixture") {
    for (std::size_t k = 0; k < d["components"].size(); ++k) {
      const YAML::Node c = d["components"][k];
      if (c["material"] && !materials.count(c["material"].as<std::string>()))
        throw InputError(where(file, given["components"][k]["material"]) + ": " + path +
                         ".size.components[" + std::to_string(k) +
                         "].material: unknown material '" + shown(c["material"].as<std::string>()) +
                         "'");
    }
    return;
  }
  const double min = d["min"].as<double>(), max = d["max"].as<double>();
  if (!(max > min))
    throw InputError(where(file, given["max"]) + ": " + path + ".size.max: expected > min");
  // By mass, uniform and normal radii are drawn by rejection with acceptance (min/r)^3.
  if (d["by"].as<std::string>() == "mass" && d["type"].as<std::string>() != "lognormal" &&
      max > 100.0 * min)
    throw InputError(where(file, given["max"]) + ": " + path +
                     ".size.max: by mass, expected at most 100 x min (got " + number(max / min) +
                     " x)");
}

void check_lattice(const std::string& file, const YAML::Node& p, const YAML::Node& input,
                   const std::string& path) {
  for (int axis = 0; axis < 3; ++axis)
    if (p["max"][axis].as<double>() < p["min"][axis].as<double>())
      throw InputError(where(file, input["max"]) + ": " + path +
                       ".max: expected each component >= min");
  if (2.0 * largest_radius(p) > p["spacing"].as<double>())
    throw InputError(where(file, input["radius"] ? input["radius"] : input["size"]) + ": " + path +
                     (p["size"] ? ".size: expected a largest radius" : ".radius: expected") +
                     " at most spacing/2 (spheres would overlap)");
}

// A random fill (count or solid_fraction) or a pour (rate or mass_rate, end > start): a region
// with min < max or a non-zero axis.
void check_random(const std::string& file, const YAML::Node& p, const YAML::Node& input,
                  const std::string& path) {
  const bool pour = p["type"].as<std::string>() == "pour";
  const char* one = pour ? "rate" : "count";
  const char* other = pour ? "mass_rate" : "solid_fraction";
  if (bool(p[one]) == bool(p[other]))
    throw InputError(where(file, input) + ": " + path + ": " +
                     (p[one] ? std::string("give ") + one + " or " + other + ", not both"
                             : std::string("missing ") + one + " (or " + other + ")"));
  if (pour && !(p["end"].as<double>() > p["start"].as<double>()))
    throw InputError(where(file, input["end"]) + ": " + path + ".end: expected > start");
  const YAML::Node r = p["region"], given = input["region"];
  if (r["type"].as<std::string>() == "box") {
    for (int axis = 0; axis < 3; ++axis)
      if (!(r["max"][axis].as<double>() > r["min"][axis].as<double>()))
        throw InputError(where(file, given["max"]) + ": " + path +
                         ".region.max: expected each component > min");
  } else if (vec3(r["axis"]).norm() == 0.0) {
    throw InputError(where(file, given["axis"]) + ": " + path +
                     ".region.axis: expected a non-zero vector");
  }
}

using Origins = std::map<std::string, std::string>;

// Where the value of `path` came from: the --set that gave it, or file:line:col of `node`.
std::string origin(const ScenarioConfig& cfg, const Origins& origins, const std::string& path,
                   const YAML::Node& node) {
  for (const auto& [key, text] : origins)
    if (path == key || path.rfind(key + ".", 0) == 0) return text;
  return where(cfg.file, node);
}

// input[section][key], or an undefined node if the section is absent (a default).
YAML::Node child(const YAML::Node& input, const char* section, const char* key) {
  return input[section] ? input[section][key] : YAML::Node();
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// 2^53: the step counter and step × dt stay exact integers in a double up to here.
constexpr double kMaxSteps = 9007199254740992.0;

// The run's step count and every interval in steps must fit the step counter: run.dt = 1e-300
// would otherwise give a negative step count, and an interval of 1e300 s an overflowing one.
void check_step_counts(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const YAML::Node& r = cfg.resolved;
  const double dt = r["run"]["dt"].as<double>(), end_time = r["run"]["end_time"].as<double>();
  if (!(end_time / dt <= kMaxSteps)) {
    const bool dt_set = origins.count("run.dt") && !origins.count("run.end_time");
    const std::string key = dt_set ? "run.dt" : "run.end_time";
    throw InputError(origin(cfg, origins, key, child(input, "run", dt_set ? "dt" : "end_time")) +
                     ": " + key + ": run.end_time / run.dt = " + number(end_time) + " s / " +
                     number(dt) + " s = " + number(end_time / dt) +
                     " steps, more than the 2^53 a run can count");
  }
  const std::pair<const char*, const char*> intervals[] = {{"output", "snapshot_interval"},
                                                           {"output", "checkpoint_interval"},
                                                           {"statistics", "interval"}};
  for (const auto& [section, key] : intervals) {
    if (!r[section] || !r[section][key]) continue;
    const double interval = r[section][key].as<double>();
    if (interval / dt <= kMaxSteps) continue;
    const std::string path = std::string(section) + "." + key;
    throw InputError(origin(cfg, origins, path, child(input, section, key)) + ": " + path + ": " +
                     number(interval) + " s is " + number(interval / dt) +
                     " steps of run.dt, more than the 2^53 a run can count (0 means only after "
                     "the last step)");
  }
}

// The statistics region lies inside the domain, min < max on every axis, and its bed-height
// columns are at most kMaxStatisticsColumns.
void check_statistics(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const YAML::Node& r = cfg.resolved;
  const YAML::Node st = r["statistics"];
  if (!st) return;
  const Eigen::Vector3d domain_min = vec3(r["domain"]["min"]),
                        domain_max = vec3(r["domain"]["max"]);
  const Eigen::Vector3d low = st["region_min"] ? vec3(st["region_min"]) : domain_min;
  const Eigen::Vector3d high = st["region_max"] ? vec3(st["region_max"]) : domain_max;
  const auto at = [&](const char* key) {
    return origin(cfg, origins, std::string("statistics.") + key, child(input, "statistics", key)) +
           ": statistics." + key + ": ";
  };
  if ((low.array() < domain_min.array()).any())
    throw InputError(at("region_min") + "expected each component >= domain.min");
  if ((high.array() > domain_max.array()).any())
    throw InputError(at("region_max") + "expected each component <= domain.max");
  if ((high.array() <= low.array()).any())
    throw InputError(at(st["region_max"] ? "region_max" : "region_min") +
                     "expected statistics.region_max > statistics.region_min on every axis");
  if (st["column_width"]) {
    const double width = st["column_width"].as<double>();
    const double columns =
        std::ceil((high[0] - low[0]) / width) * std::ceil((high[1] - low[1]) / width);
    if (!(columns <= double(kMaxStatisticsColumns)))
      throw InputError(at("column_width") + number(width) + " m makes " + number(columns) +
                       " columns over the region, more than " +
                       std::to_string(kMaxStatisticsColumns));
  }
}

// Mass-flow planes have a direction; measurement intervals fit the step counter.
void check_measurements(const ScenarioConfig& cfg, const YAML::Node& input,
                        const Origins& origins) {
  const YAML::Node m = cfg.resolved["measurements"];
  if (!m) return;
  const YAML::Node given = input["measurements"];
  const double dt = cfg.resolved["run"]["dt"].as<double>();
  for (const char* name : {"body_forces", "mass_flow", "grid"}) {
    if (!m[name]) continue;
    const double interval = m[name]["interval"].as<double>();
    if (interval / dt <= kMaxSteps) continue;
    const std::string path = std::string("measurements.") + name + ".interval";
    throw InputError(origin(cfg, origins, path, given ? child(given, name, "interval") : given) +
                     ": " + path + ": " + number(interval) + " s is " + number(interval / dt) +
                     " steps of run.dt, more than the 2^53 a run can count");
  }
  if (const YAML::Node g = m["grid"]) {
    const Eigen::Vector3d low = vec3(g["min"]), high = vec3(g["max"]);
    double cells = 1.0;
    for (int a = 0; a < 3; ++a) cells *= g["cells"][a].as<double>();
    const std::string problem =
        (high.array() <= low.array()).any()
            ? "measurements.grid.max: expected > measurements.grid.min on every axis"
        : cells > 1.0e6
            ? "measurements.grid.cells: " + number(cells) + " cells in all, more than 10^6"
            : std::string();
    if (!problem.empty()) {
      const std::string key = problem.substr(0, problem.find(':'));
      const YAML::Node node =
          given ? child(given, "grid", key.substr(key.rfind('.') + 1).c_str()) : YAML::Node();
      throw InputError(origin(cfg, origins, key, node) + ": " + problem);
    }
  }
  if (!m["mass_flow"]) return;
  const YAML::Node planes = m["mass_flow"]["planes"];
  for (std::size_t k = 0; k < planes.size(); ++k) {
    if (vec3(planes[k]["normal"]).norm() > 0.0) continue;
    const std::string path = "measurements.mass_flow.planes[" + std::to_string(k) + "].normal";
    const YAML::Node node = given && given["mass_flow"] && given["mass_flow"]["planes"]
                                ? given["mass_flow"]["planes"][k]["normal"]
                                : YAML::Node();
    throw InputError(origin(cfg, origins, path, node) + ": " + path +
                     ": expected a non-zero vector");
  }
}

// Prescribed motions: one of velocity and motion, a table of increasing times with a velocity
// each, a non-empty active window, not on the inflow's piston (the inflow moves it).
void check_motions(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const Settings& s = cfg.settings;
  for (std::size_t i = 0; i < s.motions.size(); ++i) {
    const body::PrescribedMotion& m = s.motions[i];
    const std::string at = "bodies[" + std::to_string(i) + "]";
    const YAML::Node given = input["bodies"] ? input["bodies"][i] : YAML::Node();
    auto fail = [&](const std::string& key, const std::string& problem) {
      const YAML::Node node = given ? given[key] : YAML::Node();
      throw InputError(origin(cfg, origins, at + "." + key, node) + ": " + at + "." + key + ": " +
                       problem);
    };
    if (m.translates() && s.bodies[i].velocity != Eigen::Vector3d::Zero())
      fail("motion", "give either velocity or motion, not both");
    if (m.rotates() && s.bodies[i].velocity != Eigen::Vector3d::Zero())
      fail("rotation", "a rotating body translates only by a motion (e.g. a table with one "
                       "velocity), not by velocity");
    if (m.kind == body::PrescribedMotion::Kind::table) {
      if (m.times.size() != m.velocities.size())
        fail("motion", std::to_string(m.times.size()) + " times but " +
                           std::to_string(m.velocities.size()) + " velocities");
      for (std::size_t k = 1; k < m.times.size(); ++k)
        if (!(m.times[k] > m.times[k - 1]))
          fail("motion", "times must increase (entry " + std::to_string(k) + ": " +
                             number(m.times[k]) + " after " + number(m.times[k - 1]) + ")");
    }
    if (!(m.active_until > m.active_from))
      fail("active_until", "expected > active_from (" + number(m.active_from) + " s)");
    if (s.inflow && s.inflow->piston == i && (m.moves() || m.has_window()))
      fail("motion", "the inflow moves its piston; it takes no motion or active window");
  }
}

// Degenerate global bodies (body::primitive_problem: the rule the run applies too).
void check_bodies(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  for (std::size_t i = 0; i < cfg.settings.bodies.size(); ++i) {
    const auto& parts = cfg.settings.bodies[i].parts;
    const bool is_union = cfg.resolved["bodies"][i]["type"].as<std::string>() == "union";
    for (std::size_t j = 0; j < parts.size(); ++j) {
      const body::PrimitiveProblem problem = body::primitive_problem(parts[j]);
      if (!problem) continue;
      YAML::Node node = input["bodies"] ? input["bodies"][i] : YAML::Node();
      std::string path = "bodies[" + std::to_string(i) + "]";
      if (is_union) {
        node = node && node["parts"] ? node["parts"][j] : YAML::Node();
        path += ".parts[" + std::to_string(j) + "]";
      }
      path += "." + problem.key;
      throw InputError(origin(cfg, origins, path, node ? node[problem.key] : YAML::Node()) + ": " +
                       path + ": " + problem.expectation);
    }
  }
}

// contact.compatible: frictionless contacts only (Olsen & Kamrin treat no friction): contact.model
// frictionless, or friction 0 on every material; Young's moduli on every material or on none.
void check_compatible(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const YAML::Node& r = cfg.resolved;
  const std::string law = r["contact"]["compatible"].as<std::string>();
  if (law == "off") return;
  const std::string model = r["contact"]["model"].as<std::string>();
  const YAML::Node materials = r["materials"];
  std::size_t given = 0;
  for (std::size_t i = 0; i < materials.size(); ++i) {
    given += materials[i]["youngs_modulus"] ? 1 : 0;
    const double friction = materials[i]["friction"].as<double>();
    if (model == "frictionless" || friction == 0.0) continue;
    throw InputError(
        origin(cfg, origins, "contact.compatible", child(input, "contact", "compatible")) +
        ": contact.compatible: " + law +
        " is defined for frictionless contacts (Olsen & Kamrin); it needs contact.model: "
        "frictionless or friction: 0 on every material (got contact.model: " +
        shown(model) + " and materials[" + std::to_string(i) + "] '" +
        shown(materials[i]["name"].as<std::string>()) + "' with friction " + number(friction) +
        ")");
  }
  if (given == 0 || given == materials.size()) return;
  for (std::size_t i = 0; i < materials.size(); ++i)
    if (!materials[i]["youngs_modulus"])
      throw InputError(where(cfg.file, input["materials"][i]) + ": materials[" + std::to_string(i) +
                       "].youngs_modulus: required with contact.compatible when another "
                       "material gives one (only ratios matter; absent on every material: all "
                       "equal)");
}

// Checks that involve more than one key; `input` gives the line numbers.
void check_consistency(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const YAML::Node& r = cfg.resolved;
  check_step_counts(cfg, input, origins);
  check_statistics(cfg, input, origins);
  check_measurements(cfg, input, origins);
  check_compatible(cfg, input, origins);
  solver::Method method = solver::Method::gauss_seidel;
  contact::Model model = contact::Model::mdp;
  solver::parse_method(r["solver"]["method"].as<std::string>(), method);
  contact::parse_model(r["contact"]["model"].as<std::string>(), model);
  if (const std::string why = solver::model_mismatch(method, model); !why.empty())
    throw InputError(origin(cfg, origins, "solver.method", child(input, "solver", "method")) +
                     ": solver.method: " + why);
  if (method == solver::Method::lemke)
    for (int axis = 0; axis < 3; ++axis)
      if (r["domain"]["periodic"][axis].as<bool>())
        throw InputError(origin(cfg, origins, "solver.method", child(input, "solver", "method")) +
                         ": solver.method: lemke takes no periodic axis (a periodic image would "
                         "count as a body of its own in the step's LCP); domain.periodic has " +
                         std::string(1, "xyz"[axis]));
  for (int axis = 0; axis < 3; ++axis)
    if (r["domain"]["max"][axis].as<double>() <= r["domain"]["min"][axis].as<double>())
      throw InputError(where(cfg.file, input["domain"]["max"]) +
                       ": domain.max: expected each component > domain.min");

  std::set<std::string> names;
  for (std::size_t i = 0; i < r["materials"].size(); ++i) {
    const auto name = r["materials"][i]["name"].as<std::string>();
    if (!names.insert(name).second)
      throw InputError(where(cfg.file, input["materials"][i]["name"]) + ": materials[" +
                       std::to_string(i) + "].name: duplicate material name '" + shown(name) + "'");
  }
  for (const char* section : {"bodies", "particles"}) {
    for (std::size_t i = 0; i < r[section].size(); ++i) {
      const auto name = r[section][i]["material"].as<std::string>();
      const std::string path = std::string(section) + "[" + std::to_string(i) + "]";
      if (!names.count(name))
        throw InputError(where(cfg.file, input[section][i]["material"]) + ": " + path +
                         ".material: unknown material '" + shown(name) + "'");
      const std::string type = r[section][i]["type"].as<std::string>();
      if (type == "lattice" || type == "random" || type == "pour")
        check_size(cfg.file, r[section][i], input[section][i], path, names);
      if (type == "lattice") check_lattice(cfg.file, r[section][i], input[section][i], path);
      if (type == "random" || type == "pour")
        check_random(cfg.file, r[section][i], input[section][i], path);
      const YAML::Node source = r[section][i];
      if (source["fixed"] && source["fixed"].as<bool>())
        for (const char* key : {"velocity", "angular_velocity", "perturbation"})
          if (source[key] && vec3(source[key]).norm() > 0.0)
            throw InputError(where(cfg.file, input[section][i][key]) + ": " + path + "." + key +
                             ": a fixed particle source takes no " + key);
    }
  }
  if (const YAML::Node inflow = r["inflow"]) {
    const YAML::Node in = input["inflow"];
    const auto piston = inflow["piston"].as<std::size_t>();
    if (piston >= r["bodies"].size())
      throw InputError(where(cfg.file, in["piston"]) +
                       ": inflow.piston: expected the index of an "
                       "entry of `bodies` (there are " +
                       std::to_string(r["bodies"].size()) + ")");
    const YAML::Node body = r["bodies"][piston];
    Eigen::Vector3d v(body["velocity"][0].as<double>(), body["velocity"][1].as<double>(),
                      body["velocity"][2].as<double>());
    if (body["type"].as<std::string>() != "plane" || v.norm() == 0.0)
      throw InputError(where(cfg.file, in["piston"]) + ": inflow.piston: bodies[" +
                       std::to_string(piston) + "] must be a plane with a non-zero velocity");
    const auto name = inflow["layer"]["material"].as<std::string>();
    if (!names.count(name))
      throw InputError(where(cfg.file, in["layer"]["material"]) +
                       ": inflow.layer.material: unknown material '" + shown(name) + "'");
    check_size(cfg.file, inflow["layer"], in["layer"], "inflow.layer", names);
    check_lattice(cfg.file, inflow["layer"], in["layer"], "inflow.layer");
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
  check_consistency(cfg, input, origins);
  cfg.settings = settings_of(cfg.resolved);
  check_bodies(cfg, input, origins);
  check_motions(cfg, input, origins);
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
