#include "granite/scenario/build.hpp"

#include "granite/scenario/lattice.hpp"

#include <algorithm>
#include <variant>

namespace granite::scenario {

namespace {

void set_parameters(const config::Settings& s, timestep::Parameters& p) {
  p.dt = s.run.dt;
  p.gravity = s.gravity;
  p.model = s.contact.model;
  p.contact_threshold = s.contact.threshold;
  p.error_reduction = s.contact.error_reduction;
  p.max_sweeps = s.solver.max_sweeps;
  p.tolerance = s.solver.tolerance;
  p.convergence = s.solver.convergence;
  p.ordering = s.solver.ordering;
  p.method = s.solver.method;
  p.lemke_max_contacts = s.solver.lemke_max_contacts;
  p.ordering_seed = s.run.seed;
  p.warm_start = s.solver.warm_start;
  p.compatible = s.contact.compatible;
  p.compatible_settings.tolerance = s.contact.compatible_tolerance;
  p.compatible_settings.max_outer_iterations = s.contact.compatible_max_iterations;
}

}  // namespace

Domain domain_of(const config::DomainSettings& d) {
  return Domain{d.min, d.max, d.periodic, d.outflow};
}

double largest_radius(const config::Settings& s) {
  double largest = s.inflow ? s.inflow->layer.radius : 0.0;
  for (const config::ParticleSource& source : s.particles)
    largest = std::max(largest, std::visit([](const auto& p) { return p.radius; }, source));
  return largest;
}

BodyId build_simulation(const config::Settings& s, timestep::Simulation& sim, std::mt19937_64& rng,
                        const OwnsPosition& owns) {
  set_parameters(s, sim.parameters());

  // Young's modulus absent (on every material, config check_consistency): all equal, 1 Pa
  // (only the ratios enter the compatible pass).
  for (const config::MaterialSettings& m : s.materials)
    sim.materials().add({m.density, m.friction, m.youngs_modulus.value_or(1.0)});
  for (const body::GlobalBody& global : s.bodies) sim.globals().add(global);

  BodyId next_id = 0;
  for (const config::ParticleSource& source : s.particles) {
    if (const auto* sphere = std::get_if<config::SphereSettings>(&source)) {
      const BodyId id = next_id++;
      if (!owns(sphere->position)) continue;
      // A solid sphere of the given mass, or of the material's density (`mass` absent).
      body::ParticleInit init;
      init.id = id;
      init.position = sphere->position;
      init.velocity = sphere->velocity;
      init.angular_velocity = sphere->angular_velocity;
      init.radius = sphere->radius;
      init.mass = sphere->mass > 0.0 ? sphere->mass
                                     : body::sphere_mass(sim.materials()[sphere->material].density,
                                                         sphere->radius);
      init.body_inertia = body::sphere_inertia(init.mass, sphere->radius);
      init.material = sphere->material;
      init.group = sphere->group;
      init.fixed = sphere->fixed ? 1 : 0;
      sim.particles().add(init);
      continue;
    }
    const auto& lattice = std::get<config::LatticeSettings>(source);
    // Lattice points whose sphere would overlap a global body (an obstacle, a wall) are
    // left empty; their ids and random numbers are still consumed, so they do not shift.
    auto overlaps_global = [&](const Vec3& x) {
      for (std::size_t g = 0; g < sim.globals().size(); ++g)
        for (const auto& part : sim.globals()[g].parts)
          if (body::signed_distance(part, x) < lattice.radius) return true;
      return false;
    };
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (const Vec3& x : lattice_centres(lattice.min, lattice.max, lattice.spacing)) {
      // Drawn on every process, whether it creates the particle or not.
      Vec3 v = lattice.velocity;
      for (int a = 0; a < 3; ++a) v[a] += lattice.perturbation[a] * unit(rng);
      const BodyId id = next_id++;
      if (owns(x) && !overlaps_global(x))
        sim.particles().add_sphere(sim.materials(), lattice.material, x, lattice.radius, v, id,
                                   lattice.group, lattice.fixed);
    }
  }
  return next_id;
}

}  // namespace granite::scenario
