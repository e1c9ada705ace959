#include "granite/scenario/build.hpp"

#include "granite/scenario/sources/lattice.hpp"
#include "granite/scenario/sources/random_fill.hpp"
#include "granite/scenario/sources/source_particle.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/counter_random.hpp"
#include "granite/core/log.hpp"
#include "granite/io/particle_file.hpp"
#include "granite/parallel/body_record.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <variant>

namespace granite::scenario {

namespace {

void set_parameters(const config::Settings& s, timestep::Parameters& p) {
  p.dt = s.run.dt;
  p.gravity = s.gravity;
  p.model = s.contact.model;
  p.contact_threshold = s.contact.threshold;
  p.skin = neighbour_skin(s);
  p.rebuild_every = s.contact.rebuild_every;
  p.locality_sort = s.contact.locality_sort;
  p.error_reduction = s.contact.error_reduction;
  p.max_sweeps = s.solver.max_sweeps;
  p.tolerance = s.solver.tolerance;
  p.convergence = s.solver.convergence;
  p.check_every = s.solver.check_every;
  p.ordering = s.solver.ordering;
  p.method = s.solver.method;
  p.lemke_max_contacts = s.solver.lemke_max_contacts;
  p.ordering_seed = s.run.seed;
  p.warm_start = s.solver.warm_start;
  p.relaxation_weight = s.solver.relaxation_weight;
  p.compatible = s.contact.compatible;
  p.compatible_settings.tolerance = s.contact.compatible_tolerance;
  p.compatible_settings.max_outer_iterations = s.contact.compatible_max_iterations;
}

}  // namespace

Domain domain_of(const config::DomainSettings& d) {
  return Domain{d.min, d.max, d.periodic, d.outflow};
}

namespace {

std::vector<std::string> material_names(const config::Settings& s) {
  std::vector<std::string> names;
  for (const config::MaterialSettings& m : s.materials) names.push_back(m.name);
  return names;
}

io::ParticleShare read_share(const config::FileSettings& file, const config::Settings& s,
                             const comm::Communicator& comm) {
  return io::read_particle_file(file.path, material_names(s), s.shapes.size(), comm);
}

const config::FileSettings::Measured& measured(const config::FileSettings& file) {
  if (!file.measured)
    throw std::logic_error("particle file " + file.path +
                           " used before measure_particle_files read it");
  return *file.measured;
}

// The largest radius of a source: a sphere's, a distribution's largest, a file's as measured.
struct LargestRadius {
  const config::Settings& settings;
  double operator()(const config::SphereSettings& p) const { return p.radius; }
  double operator()(const config::BodySettings& p) const {
    return settings.shapes[p.shape].bounding_radius;
  }
  double operator()(const config::FileSettings& p) const { return measured(p).largest_radius; }
  // A row's radius, or its shape's bounding radius in this configuration.
  double radius_of(const io::ParticleRow& row) const {
    return row.shape < 0 ? row.radius : settings.shapes[row.shape].bounding_radius;
  }
  template <class Generator>
  double operator()(const Generator& p) const {
    return p.size.largest();
  }
};

}  // namespace

void measure_particle_files(config::Settings& s, const comm::Communicator& comm) {
  for (config::ParticleSource& source : s.particles) {
    auto* file = std::get_if<config::FileSettings>(&source);
    if (!file) continue;
    const io::ParticleShare share = read_share(*file, s, comm);
    double largest = 0.0;
    for (const io::ParticleRow& row : share.rows)
      largest = std::max(largest, LargestRadius{s}.radius_of(row));
    file->measured = config::FileSettings::Measured{share.total, comm::max(largest, comm)};
    log::info("particle file " + file->path + ": " + std::to_string(share.total) +
              " rows, at most " + std::to_string(comm::max(share.rows_read, comm)) +
              " read by one of " + std::to_string(comm.size()) + " ranks");
  }
}

double neighbour_skin(const config::Settings& s) {
  // The factor: benchmarks/neighbour_lists.sh on channel_small (docs/performance.md).
  return s.contact.skin >= 0.0 ? s.contact.skin : kAutoSkinRadii * largest_radius(s);
}

parallel::ParallelSettings parallel_settings(const config::Settings& s, double skin) {
  return {skin, parallel::GhostWidth{largest_radius(s), s.contact.threshold, skin}.value()};
}

double largest_radius(const config::Settings& s) {
  double largest = s.inflow ? s.inflow->layer.size.largest() : 0.0;
  for (const config::ParticleSource& source : s.particles)
    largest = std::max(largest, std::visit(LargestRadius{s}, source));
  return largest;
}

namespace {

bool overlaps_global(const body::GlobalBodies& globals, const Vec3& x, double r) {
  for (std::size_t g = 0; g < globals.size(); ++g)
    for (const auto& part : globals[g].parts)
      if (body::signed_distance(part, x, r) < r) return true;
  return false;
}

// A homogeneous solid sphere (inertia 2/5 m r²) of mass `mass`, or (0) of its material's density.
void add_solid_sphere(body::ParticleInit init, double mass, const body::MaterialTable& materials,
                      body::Particles& into) {
  init.mass = mass > 0.0 ? mass : body::sphere_mass(materials[init.material].density, init.radius);
  init.body_inertia = body::sphere_inertia(init.mass, init.radius);
  into.add(init);
}

// A sphere source: one particle, of the given mass or of the material's density.
void add_sphere(const config::SphereSettings& sphere, BodyId id, timestep::Simulation& sim) {
  body::ParticleInit init;
  init.id = id;
  init.position = sphere.position;
  init.velocity = sphere.velocity;
  init.angular_velocity = sphere.angular_velocity;
  init.radius = sphere.radius;
  init.material = sphere.material;
  init.group = sphere.group;
  init.fixed = sphere.fixed ? 1 : 0;
  add_solid_sphere(init, sphere.mass, sim.materials(), sim.particles());
}

// A file row's material: its own, or the source's.
body::MaterialIndex material_of(const io::ParticleRow& row, const config::FileSettings& file) {
  return row.material >= 0 ? body::MaterialIndex(row.material) : file.material;
}

// The particle of a file's row, with id `id`, appended to `into`.
void add_row(const io::ParticleRow& row, BodyId id, const config::FileSettings& file,
             const timestep::Simulation& sim, body::Particles& into) {
  const body::MaterialIndex material = material_of(row, file);
  const std::int32_t group = row.has_group ? row.group : file.group;
  if (row.shape >= 0) {  // its mass and inertia from this configuration's shape
    into.add_shaped(sim.materials(), sim.shapes(), row.shape, material, row.position,
                    row.orientation, row.velocity, id, group);
    into.angular_velocity.back() = row.angular_velocity;
    return;
  }
  body::ParticleInit init;
  init.id = id;
  init.position = row.position;
  init.orientation = row.orientation;
  init.velocity = row.velocity;
  init.angular_velocity = row.angular_velocity;
  init.radius = row.radius;
  init.material = material;
  init.group = group;
  add_solid_sphere(init, 0.0, sim.materials(), into);
}

// A file's row as a later random fill must avoid it (POD, to be sent).
struct RowSphere {
  double centre[3], radius, orientation[4];
  BodyId id;
  body::MaterialIndex material;
  body::ShapeIndex shape;
};

// A file source (ids from `first_id` in the file's order): each rank reads its share, makes
// the particles and sends each to its owner, which adds what it receives in id order, as if it
// had read the whole file. With `made`, every rank also gets every row's sphere (a later
// random fill avoids them).
void add_file(const config::FileSettings& file, const config::Settings& s, BodyId first_id,
              const Placement& place, const comm::Communicator& comm, timestep::Simulation& sim,
              std::vector<Sphere>* made) {
  const io::ParticleShare share = read_share(file, s, comm);
  const std::size_t ranks = std::size_t(comm.size());
  if (place.create) {
    body::Particles read;
    for (std::size_t i = 0; i < share.rows.size(); ++i)
      add_row(share.rows[i], first_id + share.index[i], file, sim, read);
    std::vector<std::vector<parallel::BodyRecord>> send(ranks);
    for (std::size_t i = 0; i < read.size(); ++i)
      send.at(std::size_t(place.owner(read.position[i]))).push_back(parallel::pack(read, i));
    std::vector<parallel::BodyRecord> mine = comm::all_to_all(send, comm);
    std::sort(mine.begin(), mine.end(),
              [](const parallel::BodyRecord& a, const parallel::BodyRecord& b) {
                return a.get<&body::Particles::id>() < b.get<&body::Particles::id>();
              });
    for (const parallel::BodyRecord& record : mine) parallel::unpack(record, sim.particles());
  }
  if (!made) return;
  std::vector<RowSphere> rows;
  for (std::size_t i = 0; i < share.rows.size(); ++i) {
    const io::ParticleRow& row = share.rows[i];
    RowSphere r{
        {row.position.x(), row.position.y(), row.position.z()},
        LargestRadius{s}.radius_of(row),
        {row.orientation.w(), row.orientation.x(), row.orientation.y(), row.orientation.z()},
        first_id + share.index[i],
        material_of(row, file),
        row.shape >= 0 ? body::ShapeIndex(row.shape) : body::kSphere};
    rows.push_back(r);
  }
  std::vector<RowSphere> all =
      comm::all_to_all(std::vector<std::vector<RowSphere>>(ranks, rows), comm);
  std::sort(all.begin(), all.end(),
            [](const RowSphere& a, const RowSphere& b) { return a.id < b.id; });
  for (const RowSphere& r : all)
    made->push_back({Vec3(r.centre[0], r.centre[1], r.centre[2]), r.radius, r.material, r.id,
                     r.shape,
                     Quat(r.orientation[0], r.orientation[1], r.orientation[2], r.orientation[3])});
}

}  // namespace

BodyId build_simulation(const config::Settings& s, timestep::Simulation& sim, std::mt19937_64& rng,
                        const Placement& place, std::vector<SourceReport>* report) {
  set_parameters(s, sim.parameters());
  const int rank = place.comm ? place.comm->rank() : 0;
  sim.parameters().overlap_exchange = config::overlaps_exchange(
      s.solver.exchange, place.comm == nullptr || comm::all_on_one_node(*place.comm));
  const auto owns = [&](const Vec3& x) { return place.create && place.owner(x) == rank; };

  // Young's modulus absent (on every material, config check_consistency): all equal, 1 Pa
  // (only the ratios enter the compatible pass).
  for (const config::MaterialSettings& m : s.materials)
    sim.materials().add({m.density, m.friction, m.youngs_modulus.value_or(1.0), m.rolling_friction,
                         m.spinning_friction});
  for (const body::GlobalBody& global : s.bodies) sim.globals().add(global);
  sim.shapes() = s.shapes;

  BodyId next_id = 0;
  // Every source's spheres, on every rank, while a random fill, which avoids them, is to come.
  std::vector<Sphere> made;
  std::size_t last_fill = 0;  // one past the last random fill's source
  for (std::size_t k = 0; k < s.particles.size(); ++k)
    if (std::holds_alternative<config::RandomFillSettings>(s.particles[k])) last_fill = k + 1;
  // With shapes, random fills place by true geometry (shape_overlap.hpp).
  std::optional<ShapeOverlap> overlap;
  if (!s.shapes.empty()) overlap.emplace(sim.shapes(), sim.materials());
  for (std::size_t k = 0; k < s.particles.size(); ++k) {
    const config::ParticleSource& source = s.particles[k];
    const bool fill_follows = k + 1 < last_fill;
    if (const auto* sphere = std::get_if<config::SphereSettings>(&source)) {
      const BodyId id = next_id++;
      if (fill_follows) made.push_back({sphere->position, sphere->radius, sphere->material, id});
      if (owns(sphere->position)) add_sphere(*sphere, id, sim);
      continue;
    }
    if (const auto* shaped = std::get_if<config::BodySettings>(&source)) {
      const BodyId id = next_id++;
      if (fill_follows)
        made.push_back({shaped->position, s.shapes[shaped->shape].bounding_radius, shaped->material,
                        id, shaped->shape, shaped->orientation});
      if (!owns(shaped->position)) continue;
      sim.particles().add_shaped(sim.materials(), sim.shapes(), shaped->shape, shaped->material,
                                 shaped->position, shaped->orientation, shaped->velocity, id,
                                 shaped->group, shaped->fixed);
      sim.particles().angular_velocity.back() = shaped->angular_velocity;
      continue;
    }
    if (const auto* fill = std::get_if<config::RandomFillSettings>(&source)) {
      const SizeSampler sizes(fill->size, fill->material, sim.materials());
      FillResult result = random_fill(*fill, sizes, s.run.seed, next_id, sim.globals(), made,
                                      overlap ? &*overlap : nullptr);
      for (const Sphere& p : result.spheres) {
        CounterStream draws(s.run.seed, StreamTag::velocity, std::uint64_t(p.id));
        Vec3 v = fill->velocity;
        for (int a = 0; a < 3; ++a) v[a] += fill->perturbation[a] * draws.uniform(-1.0, 1.0);
        if (owns(p.centre)) add_source_particle(sim, fill->size, s.run.seed, p, v, fill->group);
      }
      next_id += BodyId(result.spheres.size());
      if (report)
        report->push_back({k, result.requested, result.spheres.size(), result.requested_fraction,
                           result.reached_fraction, result.short_of_target,
                           fill->size.has_shapes()});
      if (fill_follows) made.insert(made.end(), result.spheres.begin(), result.spheres.end());
      continue;
    }
    if (std::holds_alternative<config::PourSettings>(source)) continue;  // the pour fix's
    if (const auto* file = std::get_if<config::FileSettings>(&source)) {
      if (place.create || fill_follows) {
        // Made here, not above: a build without files needs no MPI (serial tests).
        const comm::Communicator self = comm::self();
        add_file(*file, s, next_id, place, place.comm ? *place.comm : self, sim,
                 fill_follows ? &made : nullptr);
      }
      next_id += measured(*file).rows;
      continue;
    }
    const auto& lattice = std::get<config::LatticeSettings>(source);
    const SizeSampler sizes(lattice.size, lattice.material, sim.materials());
    // Lattice points whose sphere would overlap a global body (an obstacle, a wall) are
    // left empty; their ids and random numbers are still consumed, so they do not shift.
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    // Every rank walks every point (the draws are sequential) but keeps none it does not own,
    // unless a random fill follows and must avoid them all.
    LatticeGrid(lattice.min, lattice.max, lattice.spacing).for_each([&](const Vec3& x) {
      // Drawn on every process, whether it creates the particle or not.
      Vec3 v = lattice.velocity;
      for (int a = 0; a < 3; ++a) v[a] += lattice.perturbation[a] * unit(rng);
      const BodyId id = next_id++;
      const bool mine = owns(x);
      if (!mine && !fill_follows) return;
      const SizeDraw size = sizes.draw(s.run.seed, id);
      if (overlaps_global(sim.globals(), x, size.radius)) return;
      const Sphere sphere{x,  size.radius, size.material,
                          id, size.shape,  source_orientation(lattice.size, s.run.seed, id)};
      if (fill_follows) made.push_back(sphere);
      if (mine)
        add_source_particle(sim, lattice.size, s.run.seed, sphere, v, lattice.group, lattice.fixed);
    });
  }
  return next_id;
}

}  // namespace granite::scenario
