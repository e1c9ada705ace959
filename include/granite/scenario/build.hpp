#pragma once
// Scenario assembly: turns the settings of a configuration (see docs/config.md) into a
// Simulation with its parameters, materials, global bodies and initial particles.
#include "granite/comm/communicator.hpp"
#include "granite/config/settings.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/timestep/simulation.hpp"

#include <array>
#include <functional>
#include <random>
#include <vector>

namespace granite::scenario {

/// A sphere a generator makes, known to every rank (whichever rank owns it).
struct Sphere {
  Vec3 centre = Vec3::Zero();
  double radius = 0.0;  // a shaped particle's: its bounding radius
  body::MaterialIndex material = 0;
  BodyId id = 0;
  body::ShapeIndex shape = body::kSphere;
  Quat orientation = Quat::Identity();  // a shaped particle's
};

/// Decides whether this process creates the particle at a position (its owner does).
using OwnsPosition = std::function<bool(const Vec3&)>;

/// Where the build puts particles: each generated particle on the rank `owner` names for its
/// position (every rank generates every source alike and keeps its own); a `file` source's
/// rows are read in shares over `comm` (io::read_particle_file) and sent to their owners.
/// The default: this process alone keeps everything.
struct Placement {
  std::function<int(const Vec3&)> owner = [](const Vec3&) { return 0; };
  const comm::Communicator* comm = nullptr;  // nullptr: this process alone (comm::self())
  bool create = true;  // false: ids are counted, no particle is made (they come from a checkpoint)
};

/// Fills the new simulation `sim` (its materials get the indices of `settings.materials`) from
/// `settings`, creating the particles `place` gives this rank. Every process walks all
/// particle sources in the same order, so ids (0, 1, 2, ... in config order) and the random
/// velocity perturbations drawn from `rng` are the same whatever the decomposition: the same
/// seed gives the same particles. Returns the number of ids used (the next free id), the same
/// on every process. Collective over `place.comm` when the sources include a file, whose
/// `measured` must be set (measure_particle_files).
///
/// A particle's radius and material come from its source's size distribution and a random
/// fill's positions from run.seed and the particle's id (counter-based streams), also the same
/// at every decomposition. `report` (optional) receives one entry per random fill.
struct SourceReport {
  std::size_t source = 0;  // index in `particles`
  std::uint64_t requested = 0, created = 0;
  double requested_fraction = 0.0, reached_fraction = 0.0;
  bool short_of_target = false;
  bool shaped = false;  // particles of a shape, not spheres
};
BodyId build_simulation(const config::Settings& settings, timestep::Simulation& sim,
                        std::mt19937_64& rng, const Placement& place = {},
                        std::vector<SourceReport>* report = nullptr);

/// Reads every `file` source in shares over `comm` (collective) and sets its `measured`: rows
/// and largest radius, which largest_radius() and the build need. An unreadable or malformed
/// file is an InputError on every rank.
void measure_particle_files(config::Settings& settings, const comm::Communicator& comm);

/// The axis-aligned domain box [min, max] of the configuration, its periodic axes and its
/// outflow faces (index 2·axis for the lower face, 2·axis + 1 for the upper one).
struct Domain {
  Vec3 min, max;
  std::array<bool, 3> periodic{false, false, false};
  std::array<bool, 6> outflow{true, true, true, true, true, true};
  /// The face through which x has left the domain (on a non-periodic axis), or -1 if inside.
  int exit_face(const Vec3& x) const {
    for (int a = 0; a < 3; ++a) {
      if (periodic[a]) continue;
      if (x[a] < min[a]) return 2 * a;
      if (x[a] > max[a]) return 2 * a + 1;
    }
    return -1;
  }
  bool contains(const Vec3& x) const { return exit_face(x) < 0; }
};
Domain domain_of(const config::DomainSettings& settings);

/// The largest radius the configuration makes: its particle sources (a file's as measured) and
/// the inflow layer (0 without particles). The decomposition is chosen to hold its ghost width.
double largest_radius(const config::Settings& settings);

/// contact.skin, or if it is absent kAutoSkinRadii × largest_radius(settings): from the
/// configuration only, so that a restart gets the same skin (build_simulation() sets it; a
/// distributed run may reduce an automatic skin to what its subdomains hold, see
/// scenario/checkpoint_start.hpp decomposition_of).
inline constexpr double kAutoSkinRadii = 0.8;
double neighbour_skin(const config::Settings& settings);

/// The distributed domain's settings of a configuration (the ghost width it is chosen for),
/// with the run's neighbour-list `skin`.
parallel::ParallelSettings parallel_settings(const config::Settings& settings, double skin);

}  // namespace granite::scenario
