// The cross-key checks on the typed settings (see checks.hpp).
#include "checks.hpp"

#include "granite/body/triangle_mesh.hpp"
#include "granite/core/error.hpp"
#include "granite/solver/method.hpp"

#include <cmath>
#include <optional>
#include <variant>

namespace granite::config::detail {

namespace {

// 2^53: the step counter and step × dt stay exact integers in a double up to here.
constexpr double kMaxSteps = 9007199254740992.0;

// The run's step count and every interval in steps must fit the step counter: run.dt = 1e-300
// would otherwise give a negative step count, and an interval of 1e300 s an overflowing one.
void check_step_counts(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const Settings& s = cfg.settings;
  const double dt = s.run.dt, end_time = s.run.end_time;
  if (!(end_time / dt <= kMaxSteps)) {
    const bool dt_set = origins.count("run.dt") && !origins.count("run.end_time");
    const std::string key = dt_set ? "run.dt" : "run.end_time";
    throw InputError(origin(cfg, origins, key, in(in(input, "run"), dt_set ? "dt" : "end_time")) +
                     ": " + key + ": run.end_time / run.dt = " + number(end_time) + " s / " +
                     number(dt) + " s = " + number(end_time / dt) +
                     " steps, more than the 2^53 a run can count");
  }
  const char* const after = " (0 means only after the last step)";
  const MeasurementSettings& m = s.measurements;
  const YAML::Node measurements = in(input, "measurements");
  const auto interval = [](const auto& section) {
    return section ? std::optional(section->interval) : std::nullopt;
  };
  const struct {
    const char* path;
    YAML::Node node;
    std::optional<double> seconds;
    const char* suffix;  // of the error line
  } intervals[] = {{"output.snapshot_interval", in(in(input, "output"), "snapshot_interval"),
                    s.output.snapshot_interval, after},
                   {"output.checkpoint_interval", in(in(input, "output"), "checkpoint_interval"),
                    s.output.checkpoint_interval, after},
                   {"statistics.interval", in(in(input, "statistics"), "interval"),
                    interval(s.statistics), after},
                   {"measurements.body_forces.interval",
                    in(in(measurements, "body_forces"), "interval"), interval(m.body_forces), ""},
                   {"measurements.mass_flow.interval",
                    in(in(measurements, "mass_flow"), "interval"), interval(m.mass_flow), ""},
                   {"measurements.grid.interval", in(in(measurements, "grid"), "interval"),
                    interval(m.grid), ""},
                   {"measurements.orientation.interval",
                    in(in(measurements, "orientation"), "interval"), interval(m.orientation), ""}};
  for (const auto& i : intervals) {
    if (!i.seconds || *i.seconds / dt <= kMaxSteps) continue;
    throw InputError(origin(cfg, origins, i.path, i.node) + ": " + i.path + ": " +
                     number(*i.seconds) + " s is " + number(*i.seconds / dt) +
                     " steps of run.dt, more than the 2^53 a run can count" + i.suffix);
  }
}

void check_domain_and_solver(const ScenarioConfig& cfg, const YAML::Node& input,
                             const Origins& origins) {
  const Settings& s = cfg.settings;
  const YAML::Node method = in(in(input, "solver"), "method");
  if (const std::string why = solver::model_mismatch(s.solver.method, s.contact.model.model);
      !why.empty())
    throw InputError(origin(cfg, origins, "solver.method", method) + ": solver.method: " + why);
  if (s.solver.method == solver::Method::lemke)
    for (int axis = 0; axis < 3; ++axis)
      if (s.domain.periodic[axis])
        throw InputError(origin(cfg, origins, "solver.method", method) +
                         ": solver.method: lemke takes no periodic axis (a periodic image would "
                         "count as a body of its own in the step's LCP); domain.periodic has " +
                         std::string(1, "xyz"[axis]));
  if ((s.domain.max.array() <= s.domain.min.array()).any())
    throw InputError(where(cfg.file, in(in(input, "domain"), "max")) +
                     ": domain.max: expected each component > domain.min");
}

// The statistics region lies inside the domain, min < max on every axis, and its bed-height
// columns are at most kMaxStatisticsColumns.
void check_statistics(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const Settings& s = cfg.settings;
  if (!s.statistics) return;
  const StatisticsSettings& st = *s.statistics;
  const Vec3 low = st.region_min.value_or(s.domain.min);
  const Vec3 high = st.region_max.value_or(s.domain.max);
  const auto at = [&](const char* key) {
    return origin(cfg, origins, std::string("statistics.") + key,
                  in(in(input, "statistics"), key)) +
           ": statistics." + key + ": ";
  };
  if ((low.array() < s.domain.min.array()).any())
    throw InputError(at("region_min") + "expected each component >= domain.min");
  if ((high.array() > s.domain.max.array()).any())
    throw InputError(at("region_max") + "expected each component <= domain.max");
  if ((high.array() <= low.array()).any())
    throw InputError(at(st.region_max ? "region_max" : "region_min") +
                     "expected statistics.region_max > statistics.region_min on every axis");
  if (st.column_width) {
    const double width = *st.column_width;
    const double columns =
        std::ceil((high[0] - low[0]) / width) * std::ceil((high[1] - low[1]) / width);
    if (!(columns <= double(kMaxStatisticsColumns)))
      throw InputError(at("column_width") + number(width) + " m makes " + number(columns) +
                       " columns over the region, more than " +
                       std::to_string(kMaxStatisticsColumns));
  }
}

// A grid with max > min and at most 10^6 cells; mass-flow planes with a direction.
void check_measurements(const ScenarioConfig& cfg, const YAML::Node& input,
                        const Origins& origins) {
  const MeasurementSettings& m = cfg.settings.measurements;
  const YAML::Node given = in(input, "measurements");
  if (m.grid) {
    double cells = 1.0;
    for (int a = 0; a < 3; ++a) cells *= double(m.grid->cells[a]);
    const char* key = (m.grid->max.array() <= m.grid->min.array()).any() ? "max"
                      : cells > 1.0e6                                    ? "cells"
                                                                         : nullptr;
    if (key) {
      const std::string path = std::string("measurements.grid.") + key;
      throw InputError(origin(cfg, origins, path, in(in(given, "grid"), key)) + ": " + path +
                       (key == std::string("max")
                            ? ": expected > measurements.grid.min on every axis"
                            : ": " + number(cells) + " cells in all, more than 10^6"));
    }
  }
  if (!m.mass_flow) return;
  for (std::size_t k = 0; k < m.mass_flow->planes.size(); ++k) {
    if (m.mass_flow->planes[k].normal.norm() > 0.0) continue;
    const std::string path = "measurements.mass_flow.planes[" + std::to_string(k) + "].normal";
    throw InputError(
        origin(cfg, origins, path, in(in(in(in(given, "mass_flow"), "planes"), k), "normal")) +
        ": " + path + ": expected a non-zero vector");
  }
}

// contact.compatible: frictionless contacts only (Olsen & Kamrin treat no friction): contact.model
// frictionless, or friction 0 on every material; Young's moduli on every material or on none.
void check_compatible(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const Settings& s = cfg.settings;
  if (!s.contact.compatible) return;
  const std::string law(solver::contact_law_name(*s.contact.compatible));
  const contact::Model model = s.contact.model.model;
  std::size_t given = 0;
  for (std::size_t i = 0; i < s.materials.size(); ++i) {
    const MaterialSettings& material = s.materials[i];
    given += material.youngs_modulus ? 1 : 0;
    if (model == contact::Model::frictionless || material.friction == 0.0) continue;
    throw InputError(
        origin(cfg, origins, "contact.compatible", in(in(input, "contact"), "compatible")) +
        ": contact.compatible: " + law +
        " is defined for frictionless contacts (Olsen & Kamrin); it needs contact.model: "
        "frictionless or friction: 0 on every material (got contact.model: " +
        shown(contact::model_name(model)) + " and materials[" + std::to_string(i) + "] '" +
        shown(material.name) + "' with friction " + number(material.friction) + ")");
  }
  if (given == 0 || given == s.materials.size()) return;
  for (std::size_t i = 0; i < s.materials.size(); ++i)
    if (!s.materials[i].youngs_modulus)
      throw InputError(where(cfg.file, in(in(input, "materials"), i)) + ": materials[" +
                       std::to_string(i) +
                       "].youngs_modulus: required with contact.compatible when another "
                       "material gives one (only ratios matter; absent on every material: all "
                       "equal)");
}

// Rolling and spinning resistance: where the torque blocks are built (solver::rolling_mismatch).
void check_rolling(const ScenarioConfig& cfg, const YAML::Node& input) {
  const Settings& s = cfg.settings;
  const std::string why = solver::rolling_mismatch(s.solver.method, s.contact.model.model,
                                                   s.contact.compatible.has_value());
  if (why.empty()) return;
  for (std::size_t i = 0; i < s.materials.size(); ++i) {
    const MaterialSettings& m = s.materials[i];
    if (m.rolling_friction == 0.0 && m.spinning_friction == 0.0) continue;
    throw InputError(where(cfg.file, in(in(input, "materials"), i)) + ": materials[" +
                     std::to_string(i) + "] '" + shown(m.name) +
                     "': rolling_friction and spinning_friction " + why);
  }
}

// A distribution's range min < max; by mass, uniform and normal radii are drawn by rejection
// with acceptance (min/r)^3, so max is at most 100 min.
void check_size(const std::string& file, const SizeSettings& size, const YAML::Node& given,
                const std::string& path) {
  using Kind = SizeSettings::Kind;
  if (const YAML::Node axis = in(given, "orientation_axis")) {
    if (!size.random_orientation)
      throw InputError(where(file, axis) + ": " + path +
                       ".orientation_axis: needs orientation: random");
    if (!(size.orientation_axis.norm() > 0.0))
      throw InputError(where(file, axis) + ": " + path +
                       ".orientation_axis: expected a non-zero vector");
  }
  if (size.kind == Kind::fixed || size.kind == Kind::mixture) return;
  const YAML::Node max = in(in(given, "size"), "max");
  if (!(size.max > size.min))
    throw InputError(where(file, max) + ": " + path + ".size.max: expected > min");
  if (size.by_mass && size.kind != Kind::lognormal && size.max > 100.0 * size.min)
    throw InputError(where(file, max) + ": " + path +
                     ".size.max: by mass, expected at most 100 x min (got " +
                     number(size.max / size.min) + " x)");
}

void check_lattice(const std::string& file, const LatticeSettings& lattice, const YAML::Node& given,
                   const std::string& path) {
  check_size(file, lattice.size, given, path);
  if ((lattice.max.array() < lattice.min.array()).any())
    throw InputError(where(file, in(given, "max")) + ": " + path +
                     ".max: expected each component >= min");
  const bool distribution = lattice.size.kind != SizeSettings::Kind::fixed;
  const bool shaped = lattice.size.shape != body::kSphere;
  if (2.0 * lattice.size.largest() > lattice.spacing)
    throw InputError(
        where(file, in(given, shaped         ? "shape"
                              : distribution ? "size"
                                             : "radius")) +
        ": " + path +
        (shaped ? ".shape: expected a bounding radius (" + number(lattice.size.largest()) + " m)"
         : distribution ? ".size: expected a largest radius"
                        : ".radius: expected") +
        " at most spacing/2 (particles would overlap)");
  if (lattice.fixed)
    for (const auto& [key, value] :
         {std::pair{"velocity", lattice.velocity}, std::pair{"perturbation", lattice.perturbation}})
      if (value.norm() > 0.0)
        throw InputError(where(file, in(given, key)) + ": " + path + "." + key +
                         ": a fixed particle source takes no " + key);
}

// A random fill or a pour: a region with min < max or a non-zero axis.
void check_region(const std::string& file, const RegionSettings& region, const YAML::Node& given,
                  const std::string& path) {
  const YAML::Node at = in(given, "region");
  if (!region.cylinder && (region.max.array() <= region.min.array()).any())
    throw InputError(where(file, in(at, "max")) + ": " + path +
                     ".region.max: expected each component > min");
  if (region.cylinder && region.axis.norm() == 0.0)
    throw InputError(where(file, in(at, "axis")) + ": " + path +
                     ".region.axis: expected a non-zero vector");
}

// A fixed particle source takes no velocity.
void check_at_rest(const std::string& file, const Vec3& velocity, const Vec3& angular_velocity,
                   const YAML::Node& given, const std::string& path) {
  for (const auto& [key, value] :
       {std::pair{"velocity", velocity}, std::pair{"angular_velocity", angular_velocity}})
    if (value.norm() > 0.0)
      throw InputError(where(file, in(given, key)) + ": " + path + "." + key +
                       ": a fixed particle source takes no " + key);
}

void check_sources(const ScenarioConfig& cfg, const YAML::Node& input) {
  const Settings& s = cfg.settings;
  const std::string& file = cfg.file;
  for (std::size_t i = 0; i < s.particles.size(); ++i) {
    const std::string path = "particles[" + std::to_string(i) + "]";
    const YAML::Node given = in(in(input, "particles"), i);
    if (const auto* lattice = std::get_if<LatticeSettings>(&s.particles[i])) {
      check_lattice(file, *lattice, given, path);
    } else if (const auto* fill = std::get_if<RandomFillSettings>(&s.particles[i])) {
      check_size(file, fill->size, given, path);
      check_region(file, fill->region, given, path);
    } else if (const auto* pour = std::get_if<PourSettings>(&s.particles[i])) {
      check_size(file, pour->size, given, path);
      if (!(pour->end > pour->start))
        throw InputError(where(file, in(given, "end")) + ": " + path + ".end: expected > start");
      check_region(file, pour->region, given, path);
    } else if (const auto* sphere = std::get_if<SphereSettings>(&s.particles[i])) {
      if (sphere->fixed)
        check_at_rest(file, sphere->velocity, sphere->angular_velocity, given, path);
    } else if (const auto* shaped = std::get_if<BodySettings>(&s.particles[i])) {
      if (shaped->orientation.coeffs().norm() == 0.0)
        throw InputError(where(file, in(in(given, "orientation"), "axis")) + ": " + path +
                         ".orientation.axis: expected a non-zero vector");
      if (shaped->fixed)
        check_at_rest(file, shaped->velocity, shaped->angular_velocity, given, path);
    }
  }
  if (!s.inflow) return;
  const YAML::Node given = in(input, "inflow");
  const std::size_t piston = s.inflow->piston;
  if (piston >= s.bodies.size())
    throw InputError(where(file, in(given, "piston")) +
                     ": inflow.piston: expected the index of an entry of `bodies` (there are " +
                     std::to_string(s.bodies.size()) + ")");
  const body::GlobalBody& body = s.bodies[piston];
  if (body.parts.size() != 1 || !std::holds_alternative<body::HalfSpace>(body.parts[0]) ||
      body.velocity.norm() == 0.0)
    throw InputError(where(file, in(given, "piston")) + ": inflow.piston: bodies[" +
                     std::to_string(piston) + "] must be a plane with a non-zero velocity");
  check_lattice(file, s.inflow->layer, in(given, "layer"), "inflow.layer");
}

// A mesh wall (bodies[i]) meets the domain.
void check_mesh_wall(const ScenarioConfig& cfg, const body::Mesh& wall, std::size_t i,
                     const YAML::Node& input, const Origins& origins) {
  const std::string path = "bodies[" + std::to_string(i) + "]";
  const YAML::Node node = in(in(input, "bodies"), i);
  const body::Aabb& local = wall.mesh->bounds();
  body::Aabb placed;
  for (int c = 0; c < 8; ++c)
    placed.grow(
        wall.to_world(Vec3(c & 1 ? local.hi.x() : local.lo.x(), c & 2 ? local.hi.y() : local.lo.y(),
                           c & 4 ? local.hi.z() : local.lo.z())));
  const auto point = [](const Vec3& x) {
    return "(" + number(x.x()) + ", " + number(x.y()) + ", " + number(x.z()) + ")";
  };
  const DomainSettings& d = cfg.settings.domain;
  if (!placed.intersects(body::Aabb{d.min, d.max}))
    throw InputError(origin(cfg, origins, path + ".file", in(node, "file")) + ": " + path +
                     ": the mesh lies wholly outside the domain (its box " + point(placed.lo) +
                     " to " + point(placed.hi) + " m; check scale and position)");
}

// Degenerate global bodies (body::primitive_problem: the rule the run applies too), and mesh
// walls' placement.
void check_bodies(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  for (std::size_t i = 0; i < cfg.settings.bodies.size(); ++i) {
    const auto& parts = cfg.settings.bodies[i].parts;
    const bool is_union = cfg.resolved["bodies"][i]["type"].as<std::string>() == "union";
    for (std::size_t j = 0; j < parts.size(); ++j) {
      const body::PrimitiveProblem problem = body::primitive_problem(parts[j]);
      if (!problem) continue;
      YAML::Node node = in(in(input, "bodies"), i);
      std::string path = "bodies[" + std::to_string(i) + "]";
      if (is_union) {
        node = in(in(node, "parts"), j);
        path += ".parts[" + std::to_string(j) + "]";
      }
      path += "." + problem.key;
      throw InputError(origin(cfg, origins, path, in(node, problem.key)) + ": " + path + ": " +
                       problem.expectation);
    }
    if (const auto* wall = std::get_if<body::Mesh>(&parts.front()))
      check_mesh_wall(cfg, *wall, i, input, origins);
  }
}

// Prescribed motions: one of velocity and motion, a table of increasing times with a velocity
// each, a non-empty active window, not on the inflow's piston (the inflow moves it).
void check_motions(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  const Settings& s = cfg.settings;
  for (std::size_t i = 0; i < s.motions.size(); ++i) {
    const body::PrescribedMotion& m = s.motions[i];
    const std::string at = "bodies[" + std::to_string(i) + "]";
    const YAML::Node given = in(in(input, "bodies"), i);
    auto fail = [&](const std::string& key, const std::string& problem) {
      throw InputError(origin(cfg, origins, at + "." + key, in(given, key)) + ": " + at + "." +
                       key + ": " + problem);
    };
    if (m.translates() && s.bodies[i].velocity != Vec3::Zero())
      fail("motion", "give either velocity or motion, not both");
    if (m.rotates() && s.bodies[i].velocity != Vec3::Zero())
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

}  // namespace

void check_settings(const ScenarioConfig& cfg, const YAML::Node& input, const Origins& origins) {
  check_step_counts(cfg, input, origins);
  check_statistics(cfg, input, origins);
  check_measurements(cfg, input, origins);
  check_compatible(cfg, input, origins);
  check_rolling(cfg, input);
  check_domain_and_solver(cfg, input, origins);
  check_sources(cfg, input);
  check_bodies(cfg, input, origins);
  check_motions(cfg, input, origins);
}

}  // namespace granite::config::detail
