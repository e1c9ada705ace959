#pragma once
// Checks of a state the user made rather than the dynamics: the particles as built from the
// configuration, as read from a restart, and each new inflow layer. A particle outside the
// domain, a particle too large for the domain, or two bodies overlapping by more than
// contact.max_initial_overlap would otherwise be silently deleted or blasted apart by the error
// reduction on the first step; here they are an InputError naming the first offenders and
// their count, the same on every rank.
#include "granite/comm/communicator.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/scenario/build.hpp"
#include "granite/timestep/simulation.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace granite::scenario {

/// The offenders of one check found on this process: their count and the description of the
/// first few.
struct Offenders {
  static constexpr std::size_t kNamed = 3;
  std::uint64_t count = 0;
  std::vector<std::string> first;
  void add(const std::string& description);
};

/// Particles [0, owned) whose centre lies outside the domain box (on any axis).
Offenders outside_domain(const body::Particles& particles, std::size_t owned, const Domain& domain);
/// Particles [0, owned) with a radius above half the smallest domain extent: they do not fit
/// between two walls, nor (periodic) in the ghost layer of width 2 r + threshold.
Offenders too_large(const body::Particles& particles, std::size_t owned, const Domain& domain);
/// Detected contacts whose overlap (−gap: r1 + r2 − distance between particles, r − signed
/// distance to a global body) exceeds max_overlap times the smaller radius, counting only
/// contacts with a particle of id >= first_new (0: all).
Offenders overlaps(const body::Particles& particles, const collision::ContactList& contacts,
                   double max_overlap, BodyId first_new = 0);

/// Collective: InputError on every rank, "<origin>: <count> <problem>: <first offenders>; <hint>",
/// if any rank has offenders (the count summed over ranks, the offenders of the lowest rank).
void throw_if_offenders(const Offenders& local, const std::string& origin,
                        const std::string& problem, const std::string& hint,
                        const comm::Communicator& comm);

/// Collective: the three checks on `sim`'s particles (all owned, between steps) and, through
/// the domain's synchronise, that the subdomains hold the ghost width of the largest one; the
/// overlaps beyond `max_overlap` found with the run's contact detection, across ranks through
/// `distributed` (ghosts are added and dropped again; nullptr in a serial run); no overlap
/// check without `max_overlap` (a restart: the run's own overlaps). `origin` names the state,
/// e.g. "initial state".
void check_initial_state(timestep::Simulation& sim, parallel::DistributedDomain* distributed,
                         const Domain& domain, std::optional<double> max_overlap,
                         const std::string& origin, const comm::Communicator& comm);

/// Collective: a new inflow layer of spheres (every rank passes all of them; consecutive ids)
/// against itself, the global bodies and this rank's other particles (ids below the layer's).
/// Needs no ghosts: every rank knows the whole layer.
void check_new_layer(const timestep::Simulation& sim, const std::vector<Sphere>& layer,
                     double max_overlap, const std::string& origin, const comm::Communicator& comm);

}  // namespace granite::scenario
