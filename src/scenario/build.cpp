#include "granite/scenario/build.hpp"

#include "granite/scenario/lattice.hpp"

#include <map>
#include <string>

namespace granite::scenario {

namespace {

body::Primitive primitive(const YAML::Node& n) {
  const auto type = n["type"].as<std::string>();
  if (type == "plane") return body::HalfSpace{vec3(n["point"]), vec3(n["normal"])};
  if (type == "box") return body::Box{vec3(n["center"]), vec3(n["half_extents"]), Quat::Identity()};
  return body::Cylinder{vec3(n["center"]), vec3(n["axis"]), n["radius"].as<double>(),
                        n["half_length"].as<double>()};
}

void set_parameters(const YAML::Node& r, timestep::Parameters& p) {
  p.dt = r["run"]["dt"].as<double>();
  p.gravity = vec3(r["gravity"]);
  const YAML::Node c = r["contact"];
  contact::parse_model(c["model"].as<std::string>(), p.model.model);
  p.model.golden_iterations = c["golden_iterations"].as<int>();
  p.contact_threshold = c["threshold"].as<double>();
  p.error_reduction = c["error_reduction"].as<double>();
  p.max_sweeps = r["solver"]["max_sweeps"].as<int>();
  p.tolerance = r["solver"]["tolerance"].as<double>();
}

}  // namespace

Domain domain_of(const YAML::Node& resolved) {
  const YAML::Node d = resolved["domain"];
  Domain domain{
      vec3(d["min"]),
      vec3(d["max"]),
      {d["periodic"][0].as<bool>(), d["periodic"][1].as<bool>(), d["periodic"][2].as<bool>()},
      {false, false, false, false, false, false}};
  const std::string faces[6] = {"x-", "x+", "y-", "y+", "z-", "z+"};
  for (const auto& face : d["outflow"])
    for (int f = 0; f < 6; ++f)
      domain.outflow[f] = domain.outflow[f] || face.as<std::string>() == faces[f];
  return domain;
}

BodyId build_simulation(const YAML::Node& r, timestep::Simulation& sim, std::mt19937_64& rng,
                        const OwnsPosition& owns) {
  set_parameters(r, sim.parameters());

  std::map<std::string, body::MaterialIndex> materials;
  for (const auto& m : r["materials"])
    materials[m["name"].as<std::string>()] =
        sim.materials().add({m["density"].as<double>(), m["friction"].as<double>()});

  for (const auto& b : r["bodies"]) {
    body::GlobalBody global;
    if (b["type"].as<std::string>() == "union")
      for (const auto& part : b["parts"]) global.parts.push_back(primitive(part));
    else
      global.parts.push_back(primitive(b));
    global.velocity = vec3(b["velocity"]);
    global.material = materials.at(b["material"].as<std::string>());
    sim.globals().add(std::move(global));
  }

  BodyId next_id = 0;
  for (const auto& p : r["particles"]) {
    const body::MaterialIndex material = materials.at(p["material"].as<std::string>());
    const double radius = p["radius"].as<double>();
    const Vec3 velocity = vec3(p["velocity"]);
    if (p["type"].as<std::string>() == "sphere") {
      const Vec3 x = vec3(p["position"]);
      const BodyId id = next_id++;
      if (!owns(x)) continue;
      sim.particles().add_sphere(sim.materials(), material, x, radius, velocity, id);
      sim.particles().angular_velocity.back() = vec3(p["angular_velocity"]);
      continue;
    }
    // Lattice points whose sphere would overlap a global body (an obstacle, a wall) are
    // left empty; their ids and random numbers are still consumed, so they do not shift.
    auto overlaps_global = [&](const Vec3& x) {
      for (std::size_t g = 0; g < sim.globals().size(); ++g)
        for (const auto& part : sim.globals()[g].parts)
          if (body::signed_distance(part, x) < radius) return true;
      return false;
    };
    const Vec3 amplitude = vec3(p["perturbation"]);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (const Vec3& x :
         lattice_centres(vec3(p["min"]), vec3(p["max"]), p["spacing"].as<double>())) {
      Vec3 v = velocity;
      for (int a = 0; a < 3; ++a) v[a] += amplitude[a] * unit(rng);  // drawn on every process
      const BodyId id = next_id++;
      if (owns(x) && !overlaps_global(x))
        sim.particles().add_sphere(sim.materials(), material, x, radius, v, id);
    }
  }
  return next_id;
}

}  // namespace granite::scenario
