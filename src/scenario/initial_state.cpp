// Initial-state checks (see initial_state.hpp): outside the domain, too large, overlapping.
#include "granite/scenario/initial_state.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"
#include "granite/parallel/contact_ownership.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace granite::scenario {

namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string point(const Vec3& x) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.6g, %.6g, %.6g)", x[0], x[1], x[2]);
  return text;
}

std::string particle(const body::Particles& p, std::size_t i) {
  return "particle " + std::to_string(p.id[i]) + " at " + point(p.position[i]);
}

double smallest_extent(const Domain& domain) { return (domain.max - domain.min).minCoeff(); }

}  // namespace

void Offenders::add(const std::string& description) {
  if (first.size() < kNamed) first.push_back(description);
  ++count;
}

Offenders outside_domain(const body::Particles& particles, std::size_t owned,
                         const Domain& domain) {
  Offenders found;
  for (std::size_t i = 0; i < owned; ++i) {
    const Vec3& x = particles.position[i];
    // Beyond a periodic face is the image inside (with a skin a checkpoint may hold a body
    // that crossed one since the last migration).
    for (int a = 0; a < 3; ++a)
      if (!domain.periodic[a] && (x[a] < domain.min[a] || x[a] > domain.max[a])) {
        found.add(particle(particles, i));
        break;
      }
  }
  return found;
}

Offenders too_large(const body::Particles& particles, std::size_t owned, const Domain& domain) {
  Offenders found;
  const double limit = 0.5 * smallest_extent(domain);
  for (std::size_t i = 0; i < owned; ++i)
    if (particles.radius[i] > limit)
      found.add(particle(particles, i) + " of radius " + number(particles.radius[i]) + " m");
  return found;
}

Offenders overlaps(const body::Particles& particles, const collision::ContactList& contacts,
                   double max_overlap, BodyId first_new) {
  Offenders found;
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const std::size_t a = contacts.body1[j];
    const bool global = contacts.involves_global(j);
    const std::size_t b = global ? a : contacts.body2[j];
    if (particles.id[a] < first_new && particles.id[b] < first_new) continue;
    const double smaller = std::min(particles.radius[a], particles.radius[b]);
    const double overlap = -contacts.gap[j];
    if (overlap <= max_overlap * smaller) continue;
    const std::string other =
        global ? "global body " + std::to_string(contacts.global_index(j)) : particle(particles, b);
    found.add(particle(particles, a) + " and " + other + " overlap by " + number(overlap) + " m (" +
              number(100.0 * overlap / smaller) + " % of the smaller radius)");
  }
  return found;
}

void throw_if_offenders(const Offenders& local, const std::string& origin,
                        const std::string& problem, const std::string& hint,
                        const comm::Communicator& comm) {
  const std::uint64_t count = comm::sum(local.count, comm);
  if (count == 0) return;
  std::string message;
  if (local.count > 0) {
    message = origin + ": " + std::to_string(count) + " " + problem + ": ";
    for (std::size_t k = 0; k < local.first.size(); ++k)
      message += (k > 0 ? "; " : "") + local.first[k];
    if (local.count > local.first.size()) message += "; ...";
    message += " (" + hint + ")";
  }
  comm::throw_if_any_failed(message, comm);
}

void check_initial_state(timestep::Simulation& sim, parallel::DistributedDomain* distributed,
                         const Domain& domain, std::optional<double> max_overlap,
                         const std::string& origin, const comm::Communicator& comm) {
  body::Particles& particles = sim.particles();
  throw_if_offenders(outside_domain(particles, particles.size(), domain), origin,
                     "particle(s) with the centre outside the domain",
                     "move them inside domain.min/domain.max", comm);
  throw_if_offenders(too_large(particles, particles.size(), domain), origin,
                     "particle(s) too large for the domain",
                     "a radius may be at most half the smallest domain extent, " +
                         number(0.5 * smallest_extent(domain)) + " m",
                     comm);
  // The run's own detection, with the ghosts of a distributed run, each contact counted by
  // the one rank responsible for it (as in a step).
  // A distributed synchronise refuses particles larger than a subdomain can hold (ghost
  // width 2 r + threshold beyond the nearest neighbours), the same on every rank.
  std::size_t owned = particles.size();
  try {
    // No migration here: a restart's bodies stay with the rank that wrote them, where the
    // uninterrupted run has them at its next step's locality sort (issue 43; a fresh run's
    // bodies are all inside their subdomains). A restart that takes back its neighbour lists
    // gets the ghosts of the lists' build.
    const auto& restoring = sim.restoring_neighbour_lists();
    if (distributed && restoring)
      owned = distributed->restore_ghosts(particles, restoring->ghost_width);
    else if (distributed)
      owned = distributed->synchronise_in_place(particles);
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
  Offenders overlapping;
  if (max_overlap) {
    collision::ContactDetection detection;
    collision::ContactList contacts;
    detection.detect(particles, sim.globals(), sim.shapes(), 0.0, contacts);
    parallel::retain_responsible_contacts(contacts, particles, owned);
    overlapping = overlaps(particles, contacts, *max_overlap);
  }
  if (distributed) distributed->end_step(particles, owned);
  if (max_overlap)
    throw_if_offenders(overlapping, origin,
                       "overlap(s) beyond contact.max_initial_overlap = " + number(*max_overlap),
                       "allow them with a larger contact.max_initial_overlap", comm);
}

void check_new_layer(const timestep::Simulation& sim, const std::vector<Sphere>& layer,
                     double max_overlap, const std::string& origin,
                     const comm::Communicator& comm) {
  // The whole layer, then this rank's older particles that could touch it.
  body::Particles near;
  Vec3 low = Vec3::Constant(std::numeric_limits<double>::max()), high = -low;
  BodyId first_id = std::numeric_limits<BodyId>::max();
  double radius = 0.0;  // the layer's largest
  for (const Sphere& s : layer) {
    near.add_sphere(sim.materials(), s.material, s.centre, s.radius, Vec3::Zero(), s.id);
    low = low.cwiseMin(s.centre);
    high = high.cwiseMax(s.centre);
    first_id = std::min(first_id, s.id);
    radius = std::max(radius, s.radius);
  }
  const body::Particles& p = sim.particles();
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.id[i] >= first_id) continue;
    const Vec3 outside = (low - p.position[i]).cwiseMax(p.position[i] - high).cwiseMax(0.0);
    if (outside.norm() < radius + p.radius[i])
      near.add_sphere(sim.materials(), p.material[i], p.position[i], p.radius[i], Vec3::Zero(),
                      p.id[i]);
  }
  collision::ContactDetection detection;
  collision::ContactList contacts;
  detection.detect(near, sim.globals(), sim.shapes(), 0.0, contacts);
  // Contacts within the layer or with a global body are the same on every rank: rank 0
  // counts them.
  const std::size_t count = layer.size();
  contacts.retain([&](std::size_t j) {
    const bool global = contacts.involves_global(j);
    const bool new1 = contacts.body1[j] < count, new2 = !global && contacts.body2[j] < count;
    if (!new1 && !new2) return false;  // older particles among themselves: the dynamics' business
    return (global || (new1 && new2)) ? comm.is_root() : true;
  });
  throw_if_offenders(overlaps(near, contacts, max_overlap, first_id), origin,
                     "overlap(s) beyond contact.max_initial_overlap = " + number(max_overlap),
                     "the layer is created where the piston was; lower the piston speed or "
                     "raise inflow.layer_every, or allow them with a larger "
                     "contact.max_initial_overlap",
                     comm);
}

}  // namespace granite::scenario
