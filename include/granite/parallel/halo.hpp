#pragma once
// Ghost bodies: copies of the neighbours' particles within the interaction range of this
// subdomain (edges and corners included, periodic images shifted), rebuilt at every step (or,
// with a neighbour-list skin, at every re-neighbouring and refreshed by the same plan between),
// and the per-sweep velocity-correction exchange of the hybrid Gauss–Seidel/Jacobi relaxation.
#include "granite/body/particles.hpp"
#include "granite/parallel/body_record.hpp"
#include "granite/parallel/decomposition.hpp"
#include "granite/comm/peer_exchange.hpp"
#include "granite/solver/body_state.hpp"

#include <vector>

namespace granite::parallel {

class Halo {
public:
  /// Appends ghosts to `particles`, whose first `owned` entries are this rank's own bodies (and
  /// nothing else: drop old ghosts first). A body is sent to every neighbour subdomain within
  /// `width` of its centre (with `by_reference`: of its neighbour_reference, which rebuilds
  /// the plan of the last neighbour-list build on a restart). `exchange` must have the
  /// neighbour ranks as peers.
  void rebuild(body::Particles& particles, std::size_t owned, const Decomposition& decomposition,
               int rank, double width, comm::PeerExchange& exchange, bool by_reference = false);

  /// The ghosts of the last rebuild() or refresh() again (the plan: the same bodies to the same
  /// peers with the same shifts), with the owners' current state, appended to `particles`
  /// (whose first `owned` entries are the owned bodies) in the same order. Only the owners'
  /// GhostState is sent (the fields a step changes); the ghosts' other fields, derived ones
  /// included, are kept from the rebuild. A ghost's neighbour_reference stays that of the
  /// rebuild's record (only a restart's rebuild by reference reads it). `owned_map`, if not
  /// empty: owned bodies were deleted since, map[i] is the present index of the owned body that
  /// had index i, or -1; their ghosts are deleted on the peers too (and the plan forgets them).
  /// `ghost_map` (out): for each ghost of the last rebuild or refresh, its offset among the
  /// new ghosts, or -1 if its owner deleted it. Returns whether any ghost was deleted.
  bool refresh(body::Particles& particles, std::size_t owned,
               const std::vector<std::int64_t>& owned_map, std::vector<std::int64_t>& ghost_map,
               comm::PeerExchange& exchange);

  std::size_t ghost_count() const { return ghost_count_; }

  /// After a sweep: every rank sends the correction increments its sweep applied to ghosts
  /// (dv, dw minus their values at the previous exchange) to the owners, which add them; then
  /// the owners send the corrected dv, dw back to every ghost holder. Only the nonzero
  /// increments and the totals that changed travel (halo.cpp), with the same result.
  /// `states` holds owned bodies at [0, owned) and ghosts at [owned, owned + ghost_count()).
  void exchange_corrections(std::vector<solver::BodyState>& states, std::size_t owned,
                            comm::PeerExchange& exchange);

  /// exchange_corrections in three calls, so that a sweep can relax the contacts that touch
  /// neither a ghost nor an owned body sent to a peer (mark_boundary) while the messages
  /// travel: send_increments once the ghosts' corrections are final for the sweep; then
  /// return_totals (the owners add the increments and send their totals back); then
  /// receive_totals (the ghosts take them). Between the calls nothing may change a boundary
  /// body's dv, dw.
  void send_increments(const std::vector<solver::BodyState>& states, std::size_t owned,
                       comm::PeerExchange& exchange);
  void return_totals(std::vector<solver::BodyState>& states, comm::PeerExchange& exchange);
  void receive_totals(std::vector<solver::BodyState>& states, std::size_t owned,
                      comm::PeerExchange& exchange);
  /// Sets boundary[i] = 1 for every body whose corrections the exchange carries: the owned
  /// bodies sent to a peer and the ghosts at [owned, owned + ghost_count()).
  void mark_boundary(std::vector<std::uint8_t>& boundary, std::size_t owned) const;

  /// Call before the first sweep: records the ghosts' starting corrections (zero).
  void reset_corrections(const std::vector<solver::BodyState>& states, std::size_t owned);

  /// exchange_corrections with the ghosts' dv, dw taken as increments from zero (the
  /// compatible pass's sums on scratch bodies, solver::Exchange::exchange_sums).
  void exchange_sums(std::vector<solver::BodyState>& states, std::size_t owned,
                     comm::PeerExchange& exchange);

private:
  using Correction = std::array<double, 6>;  // dv then dw, sent as bytes
  // Appends the kept ghosts to `particles` and resets the per-sweep exchange for them.
  void append_ghosts(body::Particles& particles, std::size_t owned);

  std::vector<std::vector<std::uint32_t>> send_index_;  // per peer: owned indices sent
  std::vector<std::vector<Vec3>> send_shift_;           // per peer: their periodic shifts
  std::vector<std::vector<BodyRecord>> send_records_, recv_records_;  // rebuild
  std::vector<std::vector<GhostState>> send_states_, recv_states_;    // refresh
  body::Particles ghosts_;                // the ghosts of the last rebuild or refresh, in order
  std::vector<std::size_t> ghost_begin_;  // per peer: first ghost received (index in particles)
  // A correction with its offset in the peer's plan (the ghost's among those from the peer, or
  // the owned body's among those sent to it): the per-sweep messages carry only these.
  struct SparseCorrection {
    std::uint32_t offset;
    Correction value;
  };
  std::vector<std::vector<SparseCorrection>> send_sparse_, recv_sparse_;
  std::vector<std::vector<Correction>> last_total_;  // per peer: the totals last sent
  std::vector<std::vector<std::uint8_t>> touched_;   // per peer: an increment came this sweep
  bool whole_totals_ = true;  // the next totals go whole (the ghosts hold their own values)
  std::vector<Correction> ghost_start_;  // ghosts' dv, dw after the last exchange
  std::size_t ghost_count_ = 0;
};

}  // namespace granite::parallel
