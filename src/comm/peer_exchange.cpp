#include "granite/comm/peer_exchange.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace granite::comm {

void PeerExchange::set_peers(std::vector<int> peers) {
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  peers_ = std::move(peers);
}

void PeerExchange::post(std::size_t k, const void* send, std::size_t send_bytes, void* recv,
                        std::size_t recv_bytes, int tag) {
  if (send_bytes > std::size_t(INT_MAX) || recv_bytes > std::size_t(INT_MAX))
    throw std::runtime_error("PeerExchange: message larger than 2 GiB");
  requests_.emplace_back();
  MPI_Irecv(recv, int(recv_bytes), MPI_BYTE, peers_[k], tag, comm_, &requests_.back());
  requests_.emplace_back();
  MPI_Isend(send, int(send_bytes), MPI_BYTE, peers_[k], tag, comm_, &requests_.back());
  bytes_sent_ += send_bytes;
}

void PeerExchange::wait() {
  statuses_.resize(requests_.size());
  MPI_Waitall(int(requests_.size()), requests_.data(), statuses_.data());
}

std::size_t PeerExchange::received_bytes(std::size_t k) const {
  int count = 0;
  MPI_Get_count(&statuses_[2 * k], MPI_BYTE, &count);
  return std::size_t(count);
}

}  // namespace granite::comm
