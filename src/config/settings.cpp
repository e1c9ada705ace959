// The resolved configuration read into typed settings (see settings.hpp).
#include "granite/config/settings.hpp"

#include "granite/body/triangle_mesh.hpp"
#include "granite/core/error.hpp"
#include "granite/io/mesh_file.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace granite::config {

namespace {

// The value the schema's choice `node` names in `table` (the schema admits only its names).
template <class E, std::size_t N>
E named(const YAML::Node& node, const std::array<Named<E>, N>& table) {
  return *value_named(table, node.as<std::string>());
}

Vec3 vec3(const YAML::Node& node) {
  return {node[0].as<double>(), node[1].as<double>(), node[2].as<double>()};
}

// v / |v|, or the zero vector as given (the checks refuse it with the line that gave it).
Vec3 unit(const Vec3& v) { return v.norm() > 0.0 ? Vec3(v.normalized()) : v; }

template <class T, std::size_t N>
std::array<T, N> array(const YAML::Node& node) {
  std::array<T, N> values{};
  for (std::size_t i = 0; i < N; ++i) values[i] = node[i].as<T>();
  return values;
}

using MaterialIndices = std::map<std::string, body::MaterialIndex>;

// A box's orientation {axis, angle in degrees}; a zero axis gives the zero quaternion, which
// check_bodies refuses (body::primitive_problem).
Quat orientation(const YAML::Node& o) {
  if (!o) return Quat::Identity();
  const Vec3 axis = vec3(o["axis"]);
  if (!(axis.norm() > 0.0)) return Quat(0.0, 0.0, 0.0, 0.0);
  constexpr double kDegree = 3.14159265358979323846 / 180.0;
  return Quat(Eigen::AngleAxisd(o["angle"].as<double>() * kDegree, axis.normalized()));
}

// A mesh wall: the file's triangles scaled, then placed by orientation and position (the loader
// has joined a relative `file` to the configuration's directory).
body::Mesh mesh_wall(const YAML::Node& n) {
  const std::string path = n["file"].as<std::string>();
  io::TriangleMesh file = io::read_mesh_file(path, "mesh wall");
  for (Vec3& v : file.vertices) v *= n["scale"].as<double>();
  try {
    return {std::make_shared<const body::TriangleMesh>(file.vertices, file.triangles,
                                                       n["flat_angle"].as<double>()),
            vec3(n["position"]), orientation(n["orientation"])};
  } catch (const InputError& e) {
    throw InputError(path + " (mesh wall): " + e.what());
  }
}

body::Primitive primitive(const YAML::Node& n) {
  const auto type = n["type"].as<std::string>();
  if (type == "mesh") return mesh_wall(n);
  if (type == "plane") return body::HalfSpace{vec3(n["point"]), vec3(n["normal"])};
  if (type == "box")
    return body::Box{vec3(n["center"]), vec3(n["half_extents"]), orientation(n["orientation"])};
  return body::Cylinder{vec3(n["center"]), vec3(n["axis"]), n["radius"].as<double>(),
                        n["half_length"].as<double>(), n["inside"].as<bool>()};
}

DomainSettings domain(const YAML::Node& d) {
  DomainSettings s;
  s.min = vec3(d["min"]);
  s.max = vec3(d["max"]);
  s.periodic = array<bool, 3>(d["periodic"]);
  for (const auto& face : d["outflow"]) s.outflow[named(face, kFaceNames)] = true;
  s.on_lost = named(d["on_lost"], kLostPolicyNames);
  s.decomposition = array<int, 3>(d["decomposition"]);
  s.balance = named(d["balance"], kBalanceModeNames);
  s.balance_every = d["balance_every"].as<int>();
  s.balance_adaptive = d["balance_adaptive"].as<bool>();
  s.imbalance_threshold = d["imbalance_threshold"].as<double>();
  return s;
}

ContactSettings contact_settings(const YAML::Node& c) {
  ContactSettings s;
  s.model.model = named(c["model"], contact::kModelNames);
  s.model.golden_iterations = c["golden_iterations"].as<int>();
  s.model.friction_directions = c["friction_directions"].as<int>();
  s.threshold = c["threshold"].as<double>();
  s.skin = c["skin"] ? c["skin"].as<double>() : -1.0;  // absent: automatic
  s.rebuild_every = c["rebuild_every"].as<int>();
  s.locality_sort = named(c["locality_sort"], kLocalitySortNames);
  s.error_reduction = c["error_reduction"].as<double>();
  s.max_initial_overlap = c["max_initial_overlap"].as<double>();
  s.compatible = value_named(solver::kContactLawNames, c["compatible"].as<std::string>());
  s.compatible_every_step = named(c["compatible_steps"], kCompatibleStepsNames);
  s.compatible_tolerance = c["compatible_tolerance"].as<double>();
  s.compatible_max_iterations = c["compatible_max_iterations"].as<int>();
  return s;
}

body::GlobalBody global_body(const YAML::Node& b, const MaterialIndices& materials) {
  body::GlobalBody global;
  if (b["type"].as<std::string>() == "union")
    for (const auto& part : b["parts"]) global.parts.push_back(primitive(part));
  else
    global.parts.push_back(primitive(b));
  global.velocity = vec3(b["velocity"]);
  global.surface_velocity = vec3(b["surface_velocity"]);
  global.material = materials.at(b["material"].as<std::string>());
  return global;
}

body::PrescribedMotion motion(const YAML::Node& b) {
  body::PrescribedMotion m;
  if (const YAML::Node mo = b["motion"]) {
    if (mo["type"].as<std::string>() == "oscillation") {
      m.kind = body::PrescribedMotion::Kind::oscillation;
      m.amplitude = vec3(mo["amplitude"]);
      m.frequency = mo["frequency"].as<double>();
      m.phase = mo["phase"].as<double>();
    } else {
      m.kind = body::PrescribedMotion::Kind::table;
      for (const auto& t : mo["times"]) m.times.push_back(t.as<double>());
      for (const auto& v : mo["velocities"]) m.velocities.push_back(vec3(v));
    }
  }
  if (const YAML::Node r = b["rotation"]) {
    m.center = vec3(r["center"]);
    m.angular_velocity = vec3(r["angular_velocity"]);
  }
  m.active_from = b["active_from"].as<double>();
  if (b["active_until"]) m.active_until = b["active_until"].as<double>();
  return m;
}

// `radius` or `size` of a generator (load_scenario has checked that exactly one is given).
SizeSettings size(const YAML::Node& p, body::MaterialIndex material,
                  const MaterialIndices& materials, const body::ShapeTable& shapes) {
  SizeSettings s;
  s.random_orientation = p["orientation"].as<std::string>() == "random";
  if (p["orientation_axis"]) s.orientation_axis = unit(vec3(p["orientation_axis"]));
  if (p["shape"]) {  // load_scenario has checked the name
    s.shape = shapes.find(p["shape"].as<std::string>());
    s.radius = shapes[s.shape].bounding_radius;
    s.shape_volume = shapes[s.shape].unit_mass.volume;
    return s;
  }
  const YAML::Node d = p["size"];
  if (!d) {
    s.radius = p["radius"].as<double>();
    return s;
  }
  const std::string type = d["type"].as<std::string>();
  s.by_mass = named(d["by"], kSizeByMassNames);
  if (type == "mixture") {
    s.kind = SizeSettings::Kind::mixture;
    for (const auto& c : d["components"]) {
      SizeComponent component{
          0.0, c["material"] ? materials.at(c["material"].as<std::string>()) : material,
          c["fraction"].as<double>()};
      if (c["shape"]) {  // load_scenario has checked the name
        component.shape = shapes.find(c["shape"].as<std::string>());
        component.radius = shapes[component.shape].bounding_radius;
        component.shape_volume = shapes[component.shape].unit_mass.volume;
      } else {
        component.radius = c["radius"].as<double>();
      }
      s.components.push_back(component);
    }
    return s;
  }
  s.min = d["min"].as<double>();
  s.max = d["max"].as<double>();
  if (type == "uniform") {
    s.kind = SizeSettings::Kind::uniform;
  } else if (type == "normal") {
    s.kind = SizeSettings::Kind::normal;
    s.mean = d["mean"].as<double>();
    s.std = d["std"].as<double>();
  } else {
    s.kind = SizeSettings::Kind::lognormal;
    s.median = d["median"].as<double>();
    s.sigma = d["sigma"].as<double>();
  }
  return s;
}

RegionSettings region(const YAML::Node& r) {
  RegionSettings s;
  if (r["type"].as<std::string>() == "box") {
    s.min = vec3(r["min"]);
    s.max = vec3(r["max"]);
    return s;
  }
  s.cylinder = true;
  s.center = vec3(r["center"]);
  s.axis = unit(vec3(r["axis"]));  // a zero axis is refused by check_settings
  s.radius = r["radius"].as<double>();
  s.half_length = r["half_length"].as<double>();
  return s;
}

// The keys a random fill and a pour share.
template <class Insertion>
Insertion insertion(const YAML::Node& p, const MaterialIndices& materials,
                    const body::ShapeTable& shapes) {
  Insertion s;
  s.region = region(p["region"]);
  s.material = materials.at(p["material"].as<std::string>());
  s.size = size(p, s.material, materials, shapes);
  s.velocity = vec3(p["velocity"]);
  s.perturbation = vec3(p["perturbation"]);
  s.attempts = p["attempts"].as<int>();
  s.group = p["group"].as<int>();
  return s;
}

RandomFillSettings random_fill(const YAML::Node& p, const MaterialIndices& materials,
                               const body::ShapeTable& shapes) {
  auto s = insertion<RandomFillSettings>(p, materials, shapes);
  if (p["count"]) s.count = p["count"].as<std::uint64_t>();
  if (p["solid_fraction"]) s.solid_fraction = p["solid_fraction"].as<double>();
  return s;
}

PourSettings pour(const YAML::Node& p, const MaterialIndices& materials,
                  const body::ShapeTable& shapes) {
  auto s = insertion<PourSettings>(p, materials, shapes);
  if (p["rate"]) s.rate = p["rate"].as<double>();
  if (p["mass_rate"]) s.mass_rate = p["mass_rate"].as<double>();
  s.start = p["start"].as<double>();
  s.end = p["end"].as<double>();
  return s;
}

LatticeSettings lattice(const YAML::Node& p, const MaterialIndices& materials,
                        const body::ShapeTable& shapes) {
  LatticeSettings s;
  s.min = vec3(p["min"]);
  s.max = vec3(p["max"]);
  s.spacing = p["spacing"].as<double>();
  s.material = materials.at(p["material"].as<std::string>());
  s.size = size(p, s.material, materials, shapes);
  s.velocity = vec3(p["velocity"]);
  s.perturbation = vec3(p["perturbation"]);
  s.group = p["group"].as<int>();
  if (p["fixed"]) s.fixed = p["fixed"].as<bool>();
  return s;
}

BodySettings shaped_body(const YAML::Node& p, const MaterialIndices& materials,
                         const body::ShapeTable& shapes) {
  BodySettings s;
  s.shape = shapes.find(p["shape"].as<std::string>());  // load_scenario has checked the name
  s.position = vec3(p["position"]);
  s.orientation = orientation(p["orientation"]);
  s.material = materials.at(p["material"].as<std::string>());
  s.velocity = vec3(p["velocity"]);
  s.angular_velocity = vec3(p["angular_velocity"]);
  s.group = p["group"].as<int>();
  s.fixed = p["fixed"].as<bool>();
  return s;
}

ParticleSource particle_source(const YAML::Node& p, const MaterialIndices& materials,
                               const body::ShapeTable& shapes) {
  if (p["type"].as<std::string>() == "lattice") return lattice(p, materials, shapes);
  if (p["type"].as<std::string>() == "random") return random_fill(p, materials, shapes);
  if (p["type"].as<std::string>() == "pour") return pour(p, materials, shapes);
  if (p["type"].as<std::string>() == "body") return shaped_body(p, materials, shapes);
  if (p["type"].as<std::string>() == "file")
    return FileSettings{p["path"].as<std::string>(), materials.at(p["material"].as<std::string>()),
                        p["group"].as<int>(), std::nullopt};
  SphereSettings s;
  s.position = vec3(p["position"]);
  s.radius = p["radius"].as<double>();
  s.material = materials.at(p["material"].as<std::string>());
  s.velocity = vec3(p["velocity"]);
  s.angular_velocity = vec3(p["angular_velocity"]);
  if (p["mass"]) s.mass = p["mass"].as<double>();
  s.group = p["group"].as<int>();
  s.fixed = p["fixed"].as<bool>();
  return s;
}

StatisticsSettings statistics(const YAML::Node& s) {
  StatisticsSettings out;
  out.interval = s["interval"].as<double>();
  if (s["region_min"]) out.region_min = vec3(s["region_min"]);
  if (s["region_max"]) out.region_max = vec3(s["region_max"]);
  if (s["column_width"]) out.column_width = s["column_width"].as<double>();
  out.average_from = s["average_from"].as<double>();
  return out;
}

MeasurementSettings measurements(const YAML::Node& m) {
  MeasurementSettings out;
  if (!m) return out;
  if (const YAML::Node f = m["body_forces"])
    out.body_forces = BodyForceSettings{f["interval"].as<double>(), vec3(f["torque_point"])};
  if (const YAML::Node f = m["mass_flow"]) {
    out.mass_flow = MassFlowSettings{f["interval"].as<double>(), {}};
    for (const auto& plane : f["planes"])  // a zero normal is refused by check_settings
      out.mass_flow->planes.push_back({vec3(plane["point"]), unit(vec3(plane["normal"]))});
  }
  if (const YAML::Node g = m["grid"])
    out.grid = GridSettings{g["interval"].as<double>(), vec3(g["min"]), vec3(g["max"]),
                            array<int, 3>(g["cells"])};
  if (const YAML::Node o = m["orientation"])
    out.orientation = OrientationSettings{o["interval"].as<double>()};
  return out;
}

OutputSettings output(const YAML::Node& o) {
  OutputSettings s;
  s.directory = o["directory"].as<std::string>();
  s.thermo_file = o["thermo_file"].as<bool>();
  s.snapshot_interval = o["snapshot_interval"].as<double>();
  s.snapshot_initial = o["snapshot_initial"].as<bool>();
  s.compression = o["compression"].as<int>();
  s.contacts = o["contacts"].as<bool>();
  for (const auto& step : o["export_fclib_steps"])
    s.export_fclib_steps.push_back(step.as<std::int64_t>());
  s.checkpoint_interval = o["checkpoint_interval"].as<double>();
  return s;
}

}  // namespace

double SizeSettings::largest() const {
  switch (kind) {
  case Kind::fixed:
    return radius;
  case Kind::mixture: {
    double r = 0.0;
    for (const SizeComponent& c : components) r = std::max(r, c.radius);
    return r;
  }
  default:
    return max;
  }
}

bool SizeSettings::has_shapes() const {
  return shape != body::kSphere ||
         std::any_of(components.begin(), components.end(),
                     [](const SizeComponent& c) { return c.shape != body::kSphere; });
}

double RegionSettings::volume() const {
  if (cylinder) return M_PI * radius * radius * 2.0 * half_length;
  return (max - min).prod();
}

BalanceMode automatic_balance(const std::vector<body::GlobalBody>& bodies) {
  std::size_t triangles = 0;
  for (const body::GlobalBody& b : bodies)
    for (const body::Primitive& part : b.parts)
      if (const auto* wall = std::get_if<body::Mesh>(&part))
        triangles += wall->mesh->triangle_count();
  return triangles > kAutoBalanceMeshTriangles ? BalanceMode::none : BalanceMode::dynamic;
}

Settings settings_of(const YAML::Node& r) {
  Settings s;
  const YAML::Node run = r["run"];
  s.run = {run["dt"].as<double>(), run["end_time"].as<double>(), run["thermo_every"].as<int>(),
           run["seed"].as<std::uint64_t>()};
  s.domain = domain(r["domain"]);
  s.gravity = vec3(r["gravity"]);
  s.contact = contact_settings(r["contact"]);
  const YAML::Node solver = r["solver"];
  s.solver = {solver["max_sweeps"].as<int>(), solver["tolerance"].as<double>(),
              solver["relaxation_weight"].as<double>(), solver["check_every"].as<int>()};
  s.solver.convergence = named(solver["convergence"], solver::kConvergenceNames);
  s.solver.ordering = named(solver["ordering"], solver::kOrderingNames);
  s.solver.warm_start = solver["warm_start"].as<double>();
  s.solver.exchange = named(solver["exchange"], kExchangeNames);
  s.solver.method = named(solver["method"], solver::kMethodNames);
  s.solver.lemke_max_contacts = solver["lemke"]["max_contacts"].as<int>();

  // A material's index is its position in `materials` (the order build_simulation adds them).
  MaterialIndices indices;
  for (const auto& m : r["materials"]) {
    indices[m["name"].as<std::string>()] = body::MaterialIndex(s.materials.size());
    s.materials.push_back(
        {m["name"].as<std::string>(), m["density"].as<double>(), m["friction"].as<double>(), {}});
    if (m["youngs_modulus"]) s.materials.back().youngs_modulus = m["youngs_modulus"].as<double>();
    s.materials.back().rolling_friction = m["rolling_friction"].as<double>();
    s.materials.back().spinning_friction = m["spinning_friction"].as<double>();
  }
  for (const auto& b : r["bodies"]) {
    s.bodies.push_back(global_body(b, indices));
    s.motions.push_back(motion(b));
  }
  if (s.domain.balance == BalanceMode::automatic) {
    s.domain.balance = automatic_balance(s.bodies);
    s.domain.balance_auto = true;
  }
  for (const auto& shape : r["shapes"]) {  // load_scenario has checked the names unique
    const std::string type = shape["type"].as<std::string>(),
                      name = shape["name"].as<std::string>();
    if (type == "capsule") {
      s.shapes.add_capsule(name, shape["radius"].as<double>(), shape["half_length"].as<double>());
      continue;
    }
    if (type == "box") {
      s.shapes.add_box(name, vec3(shape["half_extents"]));
      continue;
    }
    if (type == "ellipsoid") {
      s.shapes.add_ellipsoid(name, vec3(shape["semi_axes"]));
      continue;
    }
    if (type == "convex") {  // load_scenario has checked that exactly one source is given
      std::vector<Vec3> vertices;
      if (const YAML::Node file = shape["file"]) {
        io::TriangleMesh mesh =
            io::read_mesh_file(file.as<std::string>(), "convex shape '" + name + "'");
        io::merge_equal_vertices(mesh);
        vertices = std::move(mesh.vertices);
      } else {
        for (const auto& v : shape["vertices"]) vertices.push_back(vec3(v));
      }
      for (Vec3& v : vertices) v *= shape["scale"].as<double>();
      s.shapes.add_convex(name, vertices);
      continue;
    }
    std::vector<body::SpherePart> parts;
    for (const auto& part : shape["parts"])
      parts.push_back({part["radius"].as<double>(), vec3(part["position"])});
    s.shapes.add_clump(name, std::move(parts));
  }
  for (const auto& p : r["particles"]) s.particles.push_back(particle_source(p, indices, s.shapes));
  if (const YAML::Node in = r["inflow"])
    s.inflow = InflowSettings{in["piston"].as<std::size_t>(), in["layer_every"].as<double>(),
                              lattice(in["layer"], indices, s.shapes)};
  if (const YAML::Node st = r["statistics"]) s.statistics = statistics(st);
  s.measurements = measurements(r["measurements"]);
  s.output = output(r["output"]);
  return s;
}

}  // namespace granite::config
