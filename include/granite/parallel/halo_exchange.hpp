#pragma once
// The distributed solver::Exchange: the halo's correction exchange with the neighbouring
// ranks (one aggregated non-blocking message per neighbour) and the reductions over the
// communicator, each call timed by the exchange itself. parallel::DistributedDomain owns one
// and tells it how many bodies it owns after each synchronisation.
#include "granite/comm/communicator.hpp"
#include "granite/comm/peer_exchange.hpp"
#include "granite/parallel/halo.hpp"
#include "granite/solver/exchange.hpp"

#include <cstdint>

namespace granite::parallel {

class HaloExchange final : public solver::Exchange {
public:
  HaloExchange(const comm::Communicator& comm, Halo& halo, comm::PeerExchange& peers) :
      comm_(comm), halo_(halo), peers_(peers) {}

  /// Bodies [0, owned) are this rank's, the rest ghosts (after each synchronisation).
  void set_owned(std::size_t owned) { owned_ = owned; }
  /// Bytes sent by exchange_corrections() since the last reset_corrections().
  std::uint64_t correction_bytes() const { return correction_bytes_; }

  void reset_corrections(const std::vector<solver::BodyState>& bodies) override;
  void exchange_corrections(std::vector<solver::BodyState>& bodies) override;
  bool mark_boundary(std::vector<std::uint8_t>& boundary) const override;
  void send_increments(std::vector<solver::BodyState>& bodies) override;
  void return_totals(std::vector<solver::BodyState>& bodies) override;
  void receive_totals(std::vector<solver::BodyState>& bodies) override;
  void exchange_sums(std::vector<solver::BodyState>& bodies) override;
  void sum(double* values, std::size_t count) override;
  void max(double* values, std::size_t count) override;
  double seconds() const override { return seconds_; }
  bool one_rank() const override { return comm_.size() == 1; }

private:
  comm::Communicator comm_;
  Halo& halo_;
  comm::PeerExchange& peers_;
  std::size_t owned_ = 0;
  std::uint64_t correction_bytes_ = 0;
  double seconds_ = 0.0;
};

}  // namespace granite::parallel
