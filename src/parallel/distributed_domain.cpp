// The distributed step's domain (see include/granite/parallel/distributed_domain.hpp).
#include "granite/parallel/distributed_domain.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/parallel/balance.hpp"
#include "granite/parallel/migration.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace granite::parallel {

DistributedDomain::DistributedDomain(const comm::Communicator& comm,
                                     const Decomposition& decomposition, double contact_threshold,
                                     const ParallelSettings& settings) :
    comm_(comm),
    decomposition_(decomposition), threshold_(contact_threshold), settings_(settings),
    exchange_(comm.native()) {
  exchange_.set_peers(decomposition_.neighbour_ranks(comm_.rank()));
}

std::size_t DistributedDomain::synchronise(body::Particles& particles) {
  cuts_moved_ = false;
  const std::uint64_t before = exchange_.bytes_sent();
  migrated_ = migrate(particles, decomposition_, comm_.rank(), exchange_).sent;
  return rebuild_ghosts(particles, before);
}

std::size_t DistributedDomain::synchronise_in_place(body::Particles& particles) {
  const std::uint64_t before = exchange_.bytes_sent();
  migrated_ = 0;
  return rebuild_ghosts(particles, before);
}

std::size_t DistributedDomain::rebuild_ghosts(body::Particles& particles,
                                              std::uint64_t bytes_before) {
  const GhostWidth ghost = ghost_width_of(particles);
  // The same on every rank (the radius is the global maximum): every rank throws alike.
  if (const std::string thin = decomposition_.too_thin(ghost); !thin.empty()) {
    const Int3& d = decomposition_.dims();
    throw SubdomainTooThin("decomposition [" + std::to_string(d[0]) + ", " + std::to_string(d[1]) +
                           ", " + std::to_string(d[2]) + "]: " + thin);
  }
  const std::size_t owned = particles.size();
  ghost_width_ = ghost.value();
  halo_.rebuild(particles, owned, decomposition_, comm_.rank(), ghost_width_, exchange_);
  synchronise_bytes_ = exchange_.bytes_sent() - bytes_before;
  halo_exchange_.set_owned(owned);
  return owned;
}

GhostWidth DistributedDomain::ghost_width_of(const body::Particles& particles) const {
  return {comm::max(particles.max_radius(), comm_), threshold_, settings_.skin};
}

bool DistributedDomain::mark_halo_bodies(const body::Particles& particles,
                                         std::vector<std::uint8_t>& near) const {
  if (comm_.size() == 1) return false;  // HaloExchange::mark_boundary: no overlap on one rank
  const double width = ghost_width_of(particles).value();  // rebuild_ghosts' width
  near.assign(particles.size(), 0);
  for (const Neighbour& n : decomposition_.neighbours(comm_.rank()))
    for (std::size_t i = 0; i < particles.size(); ++i)
      if (near[i] == 0 && n.box.distance(particles.position[i]) <= width) near[i] = 1;
  return true;
}

std::size_t DistributedDomain::restore_ghosts(body::Particles& particles, double width) {
  const std::uint64_t before = exchange_.bytes_sent();
  const std::size_t owned = particles.size();
  ghost_width_ = width;
  halo_.rebuild(particles, owned, decomposition_, comm_.rank(), width, exchange_, true);
  synchronise_bytes_ = exchange_.bytes_sent() - before;
  migrated_ = 0;
  halo_exchange_.set_owned(owned);
  return owned;
}

DistributedDomain::Rebalance DistributedDomain::rebalance(const std::vector<Vec3>& x,
                                                          const std::vector<std::uint64_t>& w,
                                                          double threshold) {
  Rebalance r;
  std::uint64_t load = 0;
  for (const std::uint64_t weight : w) load += weight;
  r.before = r.after = max_over_mean(loads_by_rank(load, comm_));
  r.tried = r.before > threshold;
  if (!r.tried) return r;
  Decomposition next = decomposition_;
  next.set_cuts(
      balanced_cuts(next, x, w, w.size(), std::max(ghost_width_, settings_.balance_width), comm_));
  const double after = max_over_mean(loads_under(next, x, w, w.size(), comm_));
  r.moved = after < r.before;
  if (r.moved) {
    set_cuts(next.cuts());
    cuts_moved_ = true;
    r.after = after;
  }
  return r;
}

void DistributedDomain::set_cuts(const Cuts& cuts) {
  decomposition_.set_cuts(cuts);
  exchange_.set_peers(decomposition_.neighbour_ranks(comm_.rank()));
}

bool DistributedDomain::agree_on_rebuild(const body::Particles& particles, bool wanted) {
  // Moved cuts (on every rank alike) need a migration and new ghosts.
  wanted = wanted || cuts_moved_;
  // A body that crossed a periodic face is wrapped back only by a migration, and the fixes
  // expect positions inside the domain between steps: that, too, asks for a rebuild.
  if (decomposition_.periodic(0) || decomposition_.periodic(1) || decomposition_.periodic(2))
    for (std::size_t i = 0; i < particles.size() && !wanted; ++i)
      wanted = decomposition_.wrap(particles.position[i]) != particles.position[i];
  return !comm::all_ok(!wanted, comm_);
}

std::size_t DistributedDomain::refresh_ghosts(body::Particles& particles,
                                              const std::vector<std::int64_t>& owned_map,
                                              std::vector<std::int64_t>& ghost_map,
                                              bool& ghosts_deleted) {
  const std::uint64_t before = exchange_.bytes_sent();
  const std::size_t owned = particles.size();
  ghosts_deleted = halo_.refresh(particles, owned, owned_map, ghost_map, exchange_);
  synchronise_bytes_ = exchange_.bytes_sent() - before;
  migrated_ = 0;
  halo_exchange_.set_owned(owned);
  return owned;
}

namespace {

constexpr int kHistoryTag = 300;

}  // namespace

void DistributedDomain::hand_over_history(solver::ContactHistory& history,
                                          const solver::ContactKeys& keys,
                                          const body::Particles& particles, std::size_t owned) {
  if (exchange_.peers().empty()) return;  // no neighbour to take or give any
  const std::vector<solver::HistoryEntry> entries = history.unclaimed(keys, particles, owned);
  std::vector<solver::HistoryRecord> wire;
  wire.reserve(entries.size());
  for (const solver::HistoryEntry& e : entries) wire.push_back(solver::record_of(e));
  // Every neighbour gets all of them: the process that now relaxes a contact is the owner of
  // one of its bodies, which at most one migration step ago was a neighbour's.
  const std::vector<std::vector<solver::HistoryRecord>> send(exchange_.peers().size(), wire);
  std::vector<std::vector<solver::HistoryRecord>> recv;
  exchange_.exchange(send, recv, kHistoryTag);
  std::vector<solver::HistoryEntry> received;
  for (const auto& from : recv)
    for (const solver::HistoryRecord& r : from) received.push_back(solver::entry_of(r));
  history.insert(received);
}

void DistributedDomain::end_step(body::Particles& particles, std::size_t owned) {
  // Ghosts live for one step: the next synchronise() migrates owned bodies and rebuilds them.
  particles.truncate(owned);
}

}  // namespace granite::parallel
