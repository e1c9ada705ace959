#pragma once
// The MPI side of a time step (paper §3.1 with preclik14's parallelisation): the step's
// domain (step_domain.hpp) of a distributed run, holding the communicator, the decomposition
// and the halo plan; timestep::Simulation holds it (set_domain).
//   synchronise:  migrate owned bodies whose centre left the subdomain, rebuild the ghosts
//                 (halo width = 2·max radius + contact threshold + skin, so every contact of
//                 an owned body sees its partner; a subdomain thinner than that width along an
//                 axis with neighbours throws SubdomainTooThin);
//   agree_on_rebuild / refresh_ghosts: with a skin, synchronise only when some rank asks for
//                 it or a body crossed a periodic face (its position is wrapped only by a
//                 migration); in between, the ghosts are refreshed by the last plan;
//   exchange:     the solvers' seam (HaloExchange): after every sweep the Jacobi part of
//                 the hybrid relaxation (Halo::exchange_corrections; since contacts with a
//                 ghost body update their impulse with the weight ω, the exchange sums plain
//                 increments and the converged velocities carry every impulse exactly once),
//                 the convergence tests' reductions, APGD's products and scalars, the
//                 compatible pass's sums on scratch bodies and maxima;
//   end_step:     the ghosts are dropped (the next synchronise rebuilds them).
#include "granite/comm/communicator.hpp"
#include "granite/core/error.hpp"
#include "granite/comm/peer_exchange.hpp"
#include "granite/parallel/decomposition.hpp"
#include "granite/parallel/halo.hpp"
#include "granite/parallel/halo_exchange.hpp"
#include "granite/parallel/step_domain.hpp"

namespace granite::parallel {

/// Thrown by synchronise() on every rank alike when the largest radius has grown past what the
/// decomposition holds (the ghost layer would reach beyond the nearest neighbours and contacts
/// would be lost): one line naming the axis, the subdomain width and the ghost width needed.
class SubdomainTooThin : public InputError {
public:
  using InputError::InputError;
};

struct ParallelSettings {
  double skin =
      0.0;  // m: the neighbour-list skin (timestep::Parameters::skin), added to the ghost width
  double balance_width = 0.0;  // m: the ghost width the decomposition was chosen for
};

class DistributedDomain final : public StepDomain {
public:
  DistributedDomain(const comm::Communicator& comm, const Decomposition& decomposition,
                    double contact_threshold, const ParallelSettings& settings);
  // halo_exchange_ refers to members: not copied or moved.
  DistributedDomain(const DistributedDomain&) = delete;
  DistributedDomain& operator=(const DistributedDomain&) = delete;

  std::size_t synchronise(body::Particles& particles) override;
  /// synchronise() without the migration: every body stays with the rank that holds it. The
  /// check of a restart's first state uses it, so that the bodies that left their subdomain
  /// since the last migration stay where the uninterrupted run has them until its next step
  /// migrates them (after that step's locality sort, which sees them on their old rank).
  std::size_t synchronise_in_place(body::Particles& particles);
  bool agree_on_rebuild(const body::Particles& particles, bool wanted) override;
  std::size_t restore_ghosts(body::Particles& particles, double width) override;
  double ghost_width() const override { return ghost_width_; }
  bool mark_halo_bodies(const body::Particles& particles,
                        std::vector<std::uint8_t>& near) const override;
  std::size_t refresh_ghosts(body::Particles& particles, const std::vector<std::int64_t>& owned_map,
                             std::vector<std::int64_t>& ghost_map, bool& ghosts_deleted) override;
  solver::Exchange& exchange() override { return halo_exchange_; }
  void hand_over_history(solver::ContactHistory& history, const solver::ContactKeys& keys,
                         const body::Particles& particles, std::size_t owned) override;
  void end_step(body::Particles& particles, std::size_t owned) override;

  int rank() const { return comm_.rank(); }
  const Decomposition& decomposition() const { return decomposition_; }
  /// Moves the decomposition's cuts, on every rank alike (a restart's cuts), and takes the
  /// neighbour ranks of the new subdomain as peers; the next synchronise() migrates the bodies
  /// to their new owners (all-to-all for those that moved past the neighbours) and rebuilds the
  /// ghosts.
  void set_cuts(const Cuts& cuts);

  struct Rebalance {
    double before = 1.0, after = 1.0;  // max/mean load over the ranks
    bool tried = false;                // before > threshold: balanced cuts were computed
    bool moved = false;                // and taken (after < before)
  };
  /// Load balance, between steps, collective: measures max/mean of the load (weights `w` of
  /// the owned particles at `x`); if it exceeds `threshold`, computes the balanced cuts
  /// (parallel/balance.hpp; each subdomain at least the ghost width of the last synchronise()
  /// or the configuration's, ParallelSettings::balance_width, wide) and set_cuts() to them if
  /// they lower max/mean; then the next step rebuilds (agree_on_rebuild says so).
  Rebalance rebalance(const std::vector<Vec3>& x, const std::vector<std::uint64_t>& w,
                      double threshold = 1.0);
  std::size_t ghost_count() const { return halo_.ghost_count(); }
  /// Bytes this rank sent in relaxation exchanges during the last step, and sweeps done.
  std::uint64_t relaxation_bytes() const { return halo_exchange_.correction_bytes(); }
  std::size_t last_migrated() const { return migrated_; }
  /// Bytes this rank sent in the last synchronise() or refresh_ghosts() (migration, ghosts).
  std::uint64_t synchronise_bytes() const { return synchronise_bytes_; }

private:
  /// The ghosts of the current owners at the current width (throws SubdomainTooThin).
  std::size_t rebuild_ghosts(body::Particles& particles, std::uint64_t bytes_before);
  /// Collective: the ghost width of these particles (the largest radius over the ranks).
  GhostWidth ghost_width_of(const body::Particles& particles) const;

  comm::Communicator comm_;
  Decomposition decomposition_;
  double threshold_;
  ParallelSettings settings_;
  comm::PeerExchange exchange_;
  Halo halo_;
  HaloExchange halo_exchange_{comm_, halo_, exchange_};  // the solvers' seam, on halo_
  std::size_t migrated_ = 0;
  std::uint64_t synchronise_bytes_ = 0;
  double ghost_width_ = 0.0;  // of the last synchronise()
  bool cuts_moved_ = false;   // by rebalance() since the last synchronise()
};

}  // namespace granite::parallel
