#pragma once
// The MPI side of a time step (paper §3.1 with preclik14's parallelisation): plugs into
// timestep::Simulation as its StepHooks.
//   synchronise:  migrate owned bodies whose centre left the subdomain, rebuild the ghosts
//                 (halo width = 2·max radius + contact threshold, so every contact of an
//                 owned body sees its partner);
//   after_sweep:  the Jacobi part of the hybrid relaxation (Halo::exchange_corrections) and
//                 the global convergence test (an allreduce every `check_every` sweeps);
//                 contacts with a ghost body update their impulse with the weight ω
//                 (ghost_contact_weight), so the exchange itself sums plain increments and
//                 the converged velocities carry every impulse exactly once;
//   reduce:       step statistics summed / maximised over ranks.
// Contact responsibility (one rank per contact) is the Simulation's rule: a contact with a
// global body or between two owned bodies is treated by the owner; between an owned body and
// a ghost, by the owner of the body with the smaller id.
#include "granite/parallel/decomposition.hpp"
#include "granite/parallel/halo.hpp"
#include "granite/comm/peer_exchange.hpp"
#include "granite/timestep/simulation.hpp"

#include <mpi.h>

namespace granite::parallel {

struct ParallelSettings {
  double relaxation_weight = 1.0;  // ω: impulse-update weight of contacts with a ghost body
  int check_every = 1;             // sweeps between global convergence tests
};

class DistributedDomain final : public timestep::StepHooks {
public:
  DistributedDomain(MPI_Comm comm, const Decomposition& decomposition, double contact_threshold,
                    const ParallelSettings& settings);

  std::size_t synchronise(body::Particles& particles) override;
  void before_relaxation(const std::vector<solver::BodyState>& states, std::size_t owned) override;
  double after_sweep(std::vector<solver::BodyState>& states, std::size_t owned,
                     double local_residual, int sweep) override;
  void reduce(timestep::StepStatistics& stats) override;
  double ghost_contact_weight() const override { return settings_.relaxation_weight; }

  int rank() const { return rank_; }
  const Decomposition& decomposition() const { return decomposition_; }
  std::size_t ghost_count() const { return halo_.ghost_count(); }
  /// Bytes this rank sent in relaxation exchanges during the last step, and sweeps done.
  std::uint64_t relaxation_bytes() const { return relaxation_bytes_; }
  std::size_t last_migrated() const { return migrated_; }

private:
  MPI_Comm comm_;
  int rank_ = 0;
  Decomposition decomposition_;
  double threshold_;
  ParallelSettings settings_;
  comm::PeerExchange exchange_;
  Halo halo_;
  std::uint64_t relaxation_bytes_ = 0;
  std::size_t migrated_ = 0;
};

}  // namespace granite::parallel
