#include "granite/parallel/halo.hpp"

#include <algorithm>
#include <stdexcept>

namespace granite::parallel {

namespace {
std::array<double, 6> join(const Vec3& dv, const Vec3& dw) {
  return {dv[0], dv[1], dv[2], dw[0], dw[1], dw[2]};
}
Vec3 first(const std::array<double, 6>& c) { return {c[0], c[1], c[2]}; }
Vec3 second(const std::array<double, 6>& c) { return {c[3], c[4], c[5]}; }

constexpr int kGhostTag = 100, kIncrementTag = 110, kCorrectionTag = 120;

std::size_t peer_slot(const std::vector<int>& peers, int rank) {
  return std::size_t(std::lower_bound(peers.begin(), peers.end(), rank) - peers.begin());
}
}  // namespace

void Halo::rebuild(body::Particles& particles, std::size_t owned,
                   const Decomposition& decomposition, int rank, double width,
                   comm::PeerExchange& exchange, bool by_reference) {
  const std::vector<Vec3>& x = by_reference ? particles.neighbour_reference : particles.position;
  const std::vector<Neighbour> neighbours = decomposition.neighbours(rank);
  const std::size_t peers = exchange.peers().size();

  send_index_.assign(peers, {});
  send_shift_.assign(peers, {});
  send_records_.assign(peers, {});
  // Neighbours are visited in a fixed order, so each peer receives a body's images in the
  // same order as this rank lists them in send_index_.
  for (const auto& n : neighbours) {
    const std::size_t k = peer_slot(exchange.peers(), n.rank);
    for (std::size_t i = 0; i < owned; ++i) {
      if (n.box.distance(x[i]) > width) continue;
      send_index_[k].push_back(std::uint32_t(i));
      send_shift_[k].push_back(n.shift);
      send_records_[k].push_back(pack(particles, i, n.shift));
    }
  }
  exchange.exchange(send_records_, recv_records_, kGhostTag);
  ghosts_.clear();
  send_states_.assign(peers, {});
  recv_states_.assign(peers, {});
  for (std::size_t k = 0; k < peers; ++k) {
    for (const BodyRecord& r : recv_records_[k]) unpack(r, ghosts_);
    send_states_[k].resize(send_index_[k].size());
    recv_states_[k].resize(recv_records_[k].size());
  }
  append_ghosts(particles, owned);
}

bool Halo::refresh(body::Particles& particles, std::size_t owned,
                   const std::vector<std::int64_t>& owned_map, std::vector<std::int64_t>& ghost_map,
                   comm::PeerExchange& exchange) {
  const std::size_t peers = send_index_.size();
  for (std::size_t k = 0; k < peers; ++k)
    for (std::size_t s = 0; s < send_index_[k].size(); ++s) {
      std::uint32_t& i = send_index_[k][s];
      if (!owned_map.empty()) {
        if (owned_map[i] < 0) {
          send_states_[k][s] = deleted_state();
          continue;
        }
        i = std::uint32_t(owned_map[i]);
      }
      send_states_[k][s] = pack_state(particles, i, send_shift_[k][s]);
    }
  // Every peer follows the same plan: recv_states_ keeps its sizes, so no count messages.
  exchange.exchange_sized(send_states_, recv_states_, kGhostTag);

  // The received states go into the kept ghosts (in the order of the plan, peer by peer); the
  // plan forgets the deleted bodies on both sides, so that the sizes keep matching.
  bool deleted = false;
  ghost_map.assign(ghost_count_, -1);
  std::vector<char> gone(ghost_count_, 0);
  std::size_t old_offset = 0, new_offset = 0;
  for (std::size_t k = 0; k < peers; ++k) {
    std::vector<GhostState>& recv = recv_states_[k];
    std::size_t w = 0;
    for (const GhostState& r : recv) {
      if (is_deleted(r)) {
        deleted = true;
        gone[old_offset] = 1;
      } else {
        if (r.get<&body::Particles::id>() != ghosts_.id[old_offset])
          throw std::logic_error("halo refresh: a ghost's state names another body");
        write_state(r, ghosts_, old_offset);
        ghost_map[old_offset] = std::int64_t(new_offset++);
        ++w;
      }
      ++old_offset;
    }
    recv.resize(w);
    std::size_t v = 0;
    for (std::size_t s = 0; s < send_index_[k].size(); ++s) {
      if (is_deleted(send_states_[k][s])) continue;
      send_index_[k][v] = send_index_[k][s];
      send_shift_[k][v] = send_shift_[k][s];
      send_states_[k][v++] = send_states_[k][s];
    }
    send_index_[k].resize(v);
    send_shift_[k].resize(v);
    send_states_[k].resize(v);
  }
  if (deleted) ghosts_.remove_if([&](std::size_t g) { return gone[g] != 0; });
  append_ghosts(particles, owned);
  return deleted;
}

void Halo::append_ghosts(body::Particles& particles, std::size_t owned) {
  const std::size_t peers = send_index_.size();
  ghost_begin_.assign(peers, 0);
  ghost_count_ = 0;
  for (std::size_t k = 0; k < peers; ++k) {
    ghost_begin_[k] = owned + ghost_count_;
    ghost_count_ += recv_states_[k].size();
  }
  particles.append(ghosts_);
  send_sparse_.resize(peers);
  recv_sparse_.resize(peers);
  last_total_.resize(peers);
  touched_.resize(peers);
  for (std::size_t k = 0; k < peers; ++k) {
    last_total_[k].assign(send_index_[k].size(), Correction{});
    touched_[k].assign(send_index_[k].size(), 0);
  }
  whole_totals_ = true;
  ghost_start_.assign(ghost_count_, Correction{});  // ghosts start without corrections
}

void Halo::reset_corrections(const std::vector<solver::BodyState>& states, std::size_t owned) {
  ghost_start_.resize(ghost_count_);
  for (std::size_t g = 0; g < ghost_count_; ++g)
    ghost_start_[g] = join(states[owned + g].dv, states[owned + g].dw);
  whole_totals_ = true;
}

void Halo::exchange_sums(std::vector<solver::BodyState>& states, std::size_t owned,
                         comm::PeerExchange& exchange) {
  ghost_start_.assign(ghost_count_, Correction{});
  whole_totals_ = true;
  exchange_corrections(states, owned, exchange);
}

void Halo::exchange_corrections(std::vector<solver::BodyState>& states, std::size_t owned,
                                comm::PeerExchange& exchange) {
  send_increments(states, owned, exchange);
  return_totals(states, exchange);
  receive_totals(states, owned, exchange);
}

// Only what changed travels: a ghost's increment if it is not zero (most ghosts touch no contact
// of this rank: in channel_small 91-96 % of the increments are zero), and an owner's total if
// it differs from the one last sent for that image or took an increment from it (the ghost
// holds the last total sent to it plus its own increment, which is zero for every ghost not
// sent). After reset_corrections or exchange_sums the first totals go whole: the ghosts' values
// then are their holder's, not the last total. Each body's bits are those of the whole
// exchange: adding a zero increment leaves a correction as it is (a correction built by sums
// from +0 is never −0), and a total not sent equals the ghost's value.
void Halo::send_increments(const std::vector<solver::BodyState>& states, std::size_t owned,
                           comm::PeerExchange& exchange) {
  const std::size_t peers = send_index_.size();
  // Message k: the nonzero increments of the ghosts received from peer k, with their offsets.
  for (std::size_t k = 0; k < peers; ++k) {
    send_sparse_[k].clear();
    for (std::size_t g = 0; g < recv_states_[k].size(); ++g) {
      const std::size_t local = ghost_begin_[k] + g;
      const Correction& start = ghost_start_[local - owned];
      const Correction increment =
          join(states[local].dv - first(start), states[local].dw - second(start));
      if (increment != Correction{}) send_sparse_[k].push_back({std::uint32_t(g), increment});
    }
    recv_sparse_[k].resize(send_index_[k].size());
  }
  exchange.start_sized(send_sparse_, recv_sparse_, kIncrementTag);
}

void Halo::return_totals(std::vector<solver::BodyState>& states, comm::PeerExchange& exchange) {
  exchange.finish_bounded(recv_sparse_);
  const std::size_t peers = send_index_.size();
  for (std::size_t k = 0; k < peers; ++k)
    for (const SparseCorrection& c : recv_sparse_[k]) {
      solver::BodyState& b = states[send_index_[k][c.offset]];
      b.dv += first(c.value);
      b.dw += second(c.value);
      touched_[k][c.offset] = 1;
    }
  for (std::size_t k = 0; k < peers; ++k) {
    send_sparse_[k].clear();
    for (std::size_t s = 0; s < send_index_[k].size(); ++s) {
      const solver::BodyState& b = states[send_index_[k][s]];
      const Correction total = join(b.dv, b.dw);
      if (whole_totals_ || touched_[k][s] != 0 || total != last_total_[k][s])
        send_sparse_[k].push_back({std::uint32_t(s), total});
      last_total_[k][s] = total;
      touched_[k][s] = 0;
    }
    recv_sparse_[k].resize(recv_states_[k].size());
  }
  whole_totals_ = false;
  exchange.start_sized(send_sparse_, recv_sparse_, kCorrectionTag);
}

void Halo::receive_totals(std::vector<solver::BodyState>& states, std::size_t owned,
                          comm::PeerExchange& exchange) {
  exchange.finish_bounded(recv_sparse_);
  for (std::size_t k = 0; k < recv_sparse_.size(); ++k)
    for (const SparseCorrection& c : recv_sparse_[k]) {
      const std::size_t local = ghost_begin_[k] + c.offset;
      states[local].dv = first(c.value);
      states[local].dw = second(c.value);
      ghost_start_[local - owned] = c.value;
    }
}

void Halo::mark_boundary(std::vector<std::uint8_t>& boundary, std::size_t owned) const {
  for (const std::vector<std::uint32_t>& sent : send_index_)
    for (const std::uint32_t i : sent) boundary[i] = 1;
  std::fill(boundary.begin() + std::ptrdiff_t(owned),
            boundary.begin() + std::ptrdiff_t(owned + ghost_count_), std::uint8_t(1));
}

}  // namespace granite::parallel
