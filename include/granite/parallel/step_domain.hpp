#pragma once
// The step's domain: where its particles live and how it talks to the other ranks. The
// Simulation holds one (timestep/simulation.hpp: set_domain); without one of its own it runs
// on LocalDomain, the one-rank domain, so a serial step is the distributed step's code, not
// another branch. DistributedDomain (distributed_domain.hpp) holds the communicator, the
// decomposition and the halo plan. Which rank relaxes a contact, and with what weight, are
// plain functions the step calls itself (contact_ownership.hpp); the step's statistics are
// reduced through the exchange (timestep/step_statistics.hpp).
//
// In a step:
//   owned = synchronise(particles)   -- particles [0, owned) are owned, the rest ghosts
//           (with a skin: only when agree_on_rebuild() says so; between rebuilds
//           owned = refresh_ghosts(...), the same ghosts in the same places)
//   the solvers talk to the other ranks through exchange() (solver/exchange.hpp)
//   hand_over_history() before a warm start; end_step(particles, owned) last.
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/solver/contact_history.hpp"
#include "granite/solver/exchange.hpp"

#include <cstdint>
#include <vector>

namespace granite::parallel {

class StepDomain {
public:
  virtual ~StepDomain() = default;
  /// Brings the particles up to date with the other processes (owned bodies first, then
  /// ghosts); returns the number of owned particles.
  virtual std::size_t synchronise(body::Particles& particles) = 0;
  /// With a skin, before each step (`particles` all owned): whether the neighbour lists are
  /// rebuilt (and synchronise() called) this step; `wanted`: this process asks for it. The
  /// same answer on every process (one reduction).
  virtual bool agree_on_rebuild(const body::Particles& particles, bool wanted) = 0;
  /// Between rebuilds: appends the ghosts of the last synchronise() or refresh again, in the
  /// same order, with their owners' current state (no migration: an owned body stays owned
  /// even if its centre has left the subdomain); returns the number of owned particles.
  /// `owned_map`: empty, or (bodies were deleted since) for each owned index of the last
  /// synchronise or refresh the present index or -1; the deleted bodies' ghosts vanish too.
  /// `ghost_map` (out): for each ghost of the last synchronise or refresh, its offset among
  /// the new ghosts or -1. Returns (in `ghosts_deleted`) whether any ghost vanished here.
  virtual std::size_t refresh_ghosts(body::Particles& particles,
                                     const std::vector<std::int64_t>& owned_map,
                                     std::vector<std::int64_t>& ghost_map,
                                     bool& ghosts_deleted) = 0;
  /// A restart with neighbour lists: the ghosts of the last build again, chosen by the
  /// bodies' neighbour_reference and the ghost `width` of that build, with their current
  /// state (no migration); returns the number of owned particles.
  virtual std::size_t restore_ghosts(body::Particles& particles, double width) = 0;
  /// The ghost width of the last synchronise() (m), for restore_ghosts() on a restart.
  virtual double ghost_width() const = 0;
  /// The step's solvers talk to the other processes through this (solver/exchange.hpp).
  virtual solver::Exchange& exchange() = 0;
  /// Warm start across processes, before a relaxation: the history this process no longer
  /// needs for the contacts of `keys` (solver::ContactHistory::unclaimed, bodies [0, owned) owned) goes
  /// to the neighbouring processes, and what they send joins `history`. Called on every
  /// process alike when warm starting.
  virtual void hand_over_history(solver::ContactHistory& history, const solver::ContactKeys& keys,
                                 const body::Particles& particles, std::size_t owned) = 0;
  /// Last action of a step, after the statistics (e.g. dropping the ghosts, which the next
  /// synchronise() rebuilds).
  virtual void end_step(body::Particles& particles, std::size_t owned) = 0;
  /// Collective, before synchronise(), every particle owned: near[i] = 1 for those within the
  /// ghost width of a neighbour subdomain (periodic images of this one's included), which the
  /// halo will send and whose contacts the overlapped sweep relaxes first (the locality sort
  /// puts them first). False, marking nothing, on one rank, which exchanges nothing in a sweep.
  virtual bool mark_halo_bodies(const body::Particles& /*particles*/,
                                std::vector<std::uint8_t>& /*near*/) const {
    return false;
  }
};

/// One rank: every body is owned, there are no ghosts, no other rank to agree with or to send
/// to, and a reduction over one rank is its own value.
class LocalDomain final : public StepDomain {
public:
  std::size_t synchronise(body::Particles& particles) override { return particles.size(); }
  bool agree_on_rebuild(const body::Particles&, bool wanted) override { return wanted; }
  std::size_t refresh_ghosts(body::Particles& particles, const std::vector<std::int64_t>&,
                             std::vector<std::int64_t>& ghost_map, bool& ghosts_deleted) override {
    ghost_map.clear();
    ghosts_deleted = false;
    return particles.size();
  }
  std::size_t restore_ghosts(body::Particles& particles, double) override {
    return particles.size();
  }
  double ghost_width() const override { return 0.0; }
  solver::Exchange& exchange() override { return exchange_; }
  void hand_over_history(solver::ContactHistory&, const solver::ContactKeys&,
                         const body::Particles&, std::size_t) override {}
  void end_step(body::Particles&, std::size_t) override {}

private:
  solver::LocalExchange exchange_;
};

}  // namespace granite::parallel
