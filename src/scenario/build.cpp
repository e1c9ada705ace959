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
  p.ordering_seed = s.run.seed;
  p.warm_start = s.solver.warm_start;
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

  for (const config::MaterialSettings& m : s.materials)
    sim.materials().add({m.density, m.friction});
  for (const body::GlobalBody& global : s.bodies) sim.globals().add(global);

  BodyId next_id = 0;
  for (const config::ParticleSource& source : s.particles) {
    if (const auto* sphere = std::get_if<config::SphereSettings>(&source)) {
      const BodyId id = next_id++;
      if (!owns(sphere->position)) continue;
      sim.particles().add_sphere(sim.materials(), sphere->material, sphere->position,
                                 sphere->radius, sphere->velocity, id, sphere->group);
      sim.particles().angular_velocity.back() = sphere->angular_velocity;
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
                                   lattice.group);
    }
  }
  return next_id;
}

}  // namespace granite::scenario
