#pragma once
// Migration: particles whose centre left this rank's subdomain move to the rank that owns
// their new position. Neighbours exchange directly; a body that jumped past the neighbours
// (several subdomains in one step) is delivered by a global all-to-all in that step, which
// costs nothing in steps where no rank has such a body.
#include "granite/body/particles.hpp"
#include "granite/parallel/decomposition.hpp"
#include "granite/comm/peer_exchange.hpp"

namespace granite::parallel {

struct MigrationCounts {
  std::size_t sent = 0;  // bodies this rank gave away
  std::size_t far = 0;   // of which went beyond the neighbours
};

/// `particles` holds only this rank's bodies (no ghosts), all inside the domain (outflow
/// already applied). Positions are wrapped across periodic boundaries. `exchange` has the
/// neighbour ranks as peers.
MigrationCounts migrate(body::Particles& particles, const Decomposition& decomposition, int rank,
                        comm::PeerExchange& exchange);

}  // namespace granite::parallel
