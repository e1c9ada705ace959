// The distributed solver::Exchange (see include/granite/parallel/halo_exchange.hpp).
#include "granite/parallel/halo_exchange.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/timer.hpp"

#include <algorithm>

namespace granite::parallel {

void HaloExchange::reset_corrections(const std::vector<solver::BodyState>& bodies) {
  halo_.reset_corrections(bodies, owned_);
  correction_bytes_ = 0;
}

// The three calls of the overlapped form in a row (each timed and counted by itself).
void HaloExchange::exchange_corrections(std::vector<solver::BodyState>& bodies) {
  send_increments(bodies);
  return_totals(bodies);
  receive_totals(bodies);
}

// One rank's exchange (a periodic axis with one subdomain: the rank is its own peer) is
// immediate; it keeps the sweep whole, as on a run without ghosts.
bool HaloExchange::mark_boundary(std::vector<std::uint8_t>& boundary) const {
  if (comm_.size() == 1) return false;
  halo_.mark_boundary(boundary, owned_);
  return true;
}

void HaloExchange::send_increments(std::vector<solver::BodyState>& bodies) {
  ScopedSeconds t(seconds_);
  const std::uint64_t before = peers_.bytes_sent();
  halo_.send_increments(bodies, owned_, peers_);
  correction_bytes_ += peers_.bytes_sent() - before;
}

void HaloExchange::return_totals(std::vector<solver::BodyState>& bodies) {
  ScopedSeconds t(seconds_);
  const std::uint64_t before = peers_.bytes_sent();
  halo_.return_totals(bodies, peers_);
  correction_bytes_ += peers_.bytes_sent() - before;
}

void HaloExchange::receive_totals(std::vector<solver::BodyState>& bodies) {
  ScopedSeconds t(seconds_);
  halo_.receive_totals(bodies, owned_, peers_);
}

void HaloExchange::exchange_sums(std::vector<solver::BodyState>& bodies) {
  ScopedSeconds t(seconds_);
  halo_.exchange_sums(bodies, owned_, peers_);
}

void HaloExchange::sum(double* values, std::size_t count) {
  ScopedSeconds t(seconds_);
  std::vector<double> sums(values, values + count);
  comm::sum_in_place(sums, comm_);
  std::copy(sums.begin(), sums.end(), values);
}

void HaloExchange::max(double* values, std::size_t count) {
  ScopedSeconds t(seconds_);
  std::vector<double> maxima(values, values + count);
  comm::max_in_place(maxima, comm_);
  std::copy(maxima.begin(), maxima.end(), values);
}

}  // namespace granite::parallel
