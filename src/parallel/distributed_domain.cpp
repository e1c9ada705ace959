#include "granite/parallel/distributed_domain.hpp"

#include "granite/parallel/migration.hpp"

#include <algorithm>
#include <limits>

namespace granite::parallel {

DistributedDomain::DistributedDomain(MPI_Comm comm, const Decomposition& decomposition,
                                     double contact_threshold, const ParallelSettings& settings) :
    comm_(comm),
    decomposition_(decomposition), threshold_(contact_threshold), settings_(settings),
    exchange_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  exchange_.set_peers(decomposition_.neighbour_ranks(rank_));
}

std::size_t DistributedDomain::synchronise(body::Particles& particles) {
  migrated_ = migrate(particles, decomposition_, rank_, exchange_).sent;
  double max_radius = particles.max_radius();
  MPI_Allreduce(MPI_IN_PLACE, &max_radius, 1, MPI_DOUBLE, MPI_MAX, comm_);
  const std::size_t owned = particles.size();
  halo_.rebuild(particles, owned, decomposition_, rank_, 2.0 * max_radius + threshold_, exchange_);
  return owned;
}

void DistributedDomain::before_relaxation(const std::vector<solver::BodyState>& states,
                                          std::size_t owned) {
  halo_.reset_corrections(states, owned);
  relaxation_bytes_ = 0;
}

double DistributedDomain::after_sweep(std::vector<solver::BodyState>& states, std::size_t owned,
                                      double local_residual, int sweep) {
  const std::uint64_t before = exchange_.bytes_sent();
  halo_.exchange_corrections(states, owned, exchange_);
  relaxation_bytes_ += exchange_.bytes_sent() - before;
  if (sweep % settings_.check_every != 0) return std::numeric_limits<double>::infinity();
  double global = local_residual;
  MPI_Allreduce(MPI_IN_PLACE, &global, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return global;
}

void DistributedDomain::reduce(timestep::StepStatistics& s) {
  std::uint64_t counts[2] = {s.particles, s.contacts};
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_UINT64_T, MPI_SUM, comm_);
  s.particles = counts[0];
  s.contacts = counts[1];
  double sums[3] = {s.kinetic_energy, s.normal_impulse_sum, s.global_normal_impulse_sum};
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, comm_);
  s.kinetic_energy = sums[0];
  s.normal_impulse_sum = sums[1];
  s.global_normal_impulse_sum = sums[2];
  MPI_Allreduce(MPI_IN_PLACE, &s.max_penetration, 1, MPI_DOUBLE, MPI_MAX, comm_);
  int converged = s.converged ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &converged, 1, MPI_INT, MPI_MIN, comm_);
  s.converged = converged != 0;
}

}  // namespace granite::parallel
