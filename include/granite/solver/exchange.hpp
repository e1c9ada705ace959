#pragma once
// The one seam between a step's solvers and the other ranks: the Gauss–Seidel relaxation
// (solver/relaxation.hpp), APGD's matrix-free product (solver/apgd_step.hpp) and the
// compatible pass (solver/compatible_forces.hpp) all talk to the rest of the run through an
// Exchange. parallel::HaloExchange is the distributed one (the halo's correction exchange and
// the collectives, timed by itself); LocalExchange is the one-rank one, where every call is
// the identity. A serial step runs the same code with a LocalExchange, not another branch.
#include "granite/solver/body_state.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace granite::solver {

class Exchange {
public:
  virtual ~Exchange() = default;
  /// Before a relaxation or an APGD product applies impulses to zeroed corrections: the
  /// ghosts' bookkeeping (their corrections are increments from here on). Local, no message.
  virtual void reset_corrections(const std::vector<BodyState>& bodies) = 0;
  /// After each sweep (and each APGD product): the ghosts' correction increments are summed
  /// into their owners and the owners' totals sent back to every ghost.
  virtual void exchange_corrections(std::vector<BodyState>& bodies) = 0;
  /// exchange_corrections overlapped with a sweep's interior (solver.exchange: overlapped):
  /// mark_boundary sets boundary[i] = 1 (`boundary` zeroed, one entry per body) for every body
  /// whose corrections travel to another rank (owned bodies that have ghosts elsewhere, and
  /// ghosts) and returns true; false if none travel (one rank: the sweep then runs whole).
  /// After the contacts that touch a boundary body, send_increments; after part of the others,
  /// return_totals; after the rest, receive_totals. The three together are one
  /// exchange_corrections: between them only bodies not marked may change.
  virtual bool mark_boundary(std::vector<std::uint8_t>& boundary) const = 0;
  virtual void send_increments(std::vector<BodyState>& bodies) = 0;
  virtual void return_totals(std::vector<BodyState>& bodies) = 0;
  virtual void receive_totals(std::vector<BodyState>& bodies) = 0;
  /// The compatible pass on scratch bodies: the ghosts' dv, dw, taken as sums over zero, are
  /// added into their owners and the owners' totals sent back (no increment bookkeeping).
  virtual void exchange_sums(std::vector<BodyState>& bodies) = 0;
  /// Sums / maxima of `count` values over all ranks, in place (one reduction each).
  virtual void sum(double* values, std::size_t count) = 0;
  virtual void max(double* values, std::size_t count) = 0;
  /// Wall seconds spent in the calls above that wait for other ranks, since construction.
  virtual double seconds() const = 0;
  /// True on one rank, where a reduction is the rank's own value and costs nothing.
  virtual bool one_rank() const = 0;
};

/// One rank: nothing to exchange, a reduction over one rank is its own value.
class LocalExchange final : public Exchange {
public:
  void reset_corrections(const std::vector<BodyState>&) override {}
  void exchange_corrections(std::vector<BodyState>&) override {}
  bool mark_boundary(std::vector<std::uint8_t>&) const override { return false; }
  void send_increments(std::vector<BodyState>&) override {}
  void return_totals(std::vector<BodyState>&) override {}
  void receive_totals(std::vector<BodyState>&) override {}
  void exchange_sums(std::vector<BodyState>&) override {}
  void sum(double*, std::size_t) override {}
  void max(double*, std::size_t) override {}
  double seconds() const override { return 0.0; }
  bool one_rank() const override { return true; }
};

/// A one-rank exchange for callers without a run (tests, tools); it has no state.
inline Exchange& local_exchange() {
  static LocalExchange local;
  return local;
}

}  // namespace granite::solver
