#pragma once
// Point-to-point exchange with a fixed set of peer ranks: one aggregated message per peer and
// phase, non-blocking (Irecv/Isend/Waitall), buffers kept across calls. The peer set is
// symmetric (if q is my peer, I am q's), as for subdomain neighbours. A rank may be its own
// peer (periodic axis with one subdomain).
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace granite::comm {

class PeerExchange {
public:
  explicit PeerExchange(MPI_Comm comm) : comm_(comm) {}

  /// Sets the distinct peer ranks (sorted, may include this rank).
  void set_peers(std::vector<int> peers);
  const std::vector<int>& peers() const { return peers_; }

  /// Sends send[k] to peers()[k] and receives recv[k] from it; sizes need not be known in
  /// advance (a count message goes first). T must be trivially copyable.
  template <class T>
  void exchange(const std::vector<std::vector<T>>& send, std::vector<std::vector<T>>& recv,
                int tag);

  /// As exchange(), but every recv[k] already has the size the peer sends (fixed plans such
  /// as the per-sweep velocity exchange): no count message.
  template <class T>
  void exchange_sized(const std::vector<std::vector<T>>& send, std::vector<std::vector<T>>& recv,
                      int tag);

  /// exchange_sized in two halves around work that does not touch the buffers: start() posts
  /// the messages, finish() waits for them. One exchange at a time is under way.
  template <class T>
  void start_sized(const std::vector<std::vector<T>>& send, std::vector<std::vector<T>>& recv,
                   int tag);
  void finish() { wait(); }
  /// finish() for messages of varying length: start_sized() was given every recv[k] sized to
  /// the most peer k may send, and this cuts it to what arrived (no count message). Used by
  /// the per-sweep correction exchange, which sends only the bodies whose values changed.
  template <class T>
  void finish_bounded(std::vector<std::vector<T>>& recv);

  /// Bytes this rank has sent since the last reset (payload, count messages included).
  std::uint64_t bytes_sent() const { return bytes_sent_; }
  void reset_bytes() { bytes_sent_ = 0; }

  MPI_Comm comm() const { return comm_; }

private:
  void post(std::size_t k, const void* send, std::size_t send_bytes, void* recv,
            std::size_t recv_bytes, int tag);
  void wait();
  // The bytes received by the exchange's message from peer k (after a wait with statuses).
  std::size_t received_bytes(std::size_t k) const;

  MPI_Comm comm_;
  std::vector<int> peers_;
  std::vector<MPI_Request> requests_;
  std::vector<MPI_Status> statuses_;  // of the last wait: Irecv then Isend per peer
  std::vector<std::uint64_t> send_counts_, recv_counts_;
  std::uint64_t bytes_sent_ = 0;
};

template <class T>
void PeerExchange::start_sized(const std::vector<std::vector<T>>& send,
                               std::vector<std::vector<T>>& recv, int tag) {
  static_assert(std::is_trivially_copyable_v<T>);
  requests_.clear();
  for (std::size_t k = 0; k < peers_.size(); ++k)
    post(k, send[k].data(), send[k].size() * sizeof(T), recv[k].data(), recv[k].size() * sizeof(T),
         tag);
}

template <class T>
void PeerExchange::finish_bounded(std::vector<std::vector<T>>& recv) {
  wait();
  for (std::size_t k = 0; k < peers_.size(); ++k) recv[k].resize(received_bytes(k) / sizeof(T));
}
template <class T>
void PeerExchange::exchange_sized(const std::vector<std::vector<T>>& send,
                                  std::vector<std::vector<T>>& recv, int tag) {
  start_sized(send, recv, tag);
  wait();
}

template <class T>
void PeerExchange::exchange(const std::vector<std::vector<T>>& send,
                            std::vector<std::vector<T>>& recv, int tag) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t n = peers_.size();
  send_counts_.resize(n);
  recv_counts_.assign(n, 0);
  requests_.clear();
  for (std::size_t k = 0; k < n; ++k) {
    send_counts_[k] = send[k].size();
    post(k, &send_counts_[k], sizeof(std::uint64_t), &recv_counts_[k], sizeof(std::uint64_t), tag);
  }
  wait();
  recv.resize(n);
  for (std::size_t k = 0; k < n; ++k) recv[k].resize(recv_counts_[k]);
  exchange_sized(send, recv, tag + 1);
}

}  // namespace granite::comm
