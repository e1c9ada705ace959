#pragma once
// Collective operations over a Communicator: agreement, reductions, scans, gathers and
// broadcasts, and the "one rank decides, every rank throws the same InputError" pattern that
// keeps every rank's exit code and message identical. All functions here are collective: every
// rank of `comm` must call them in the same order.
#include "granite/comm/communicator.hpp"
#include "granite/core/error.hpp"

#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace granite::comm {

/// True on every rank iff `ok` is true on every rank.
bool all_ok(bool ok, const Communicator& comm);

/// Sum / maximum / minimum of a value over ranks (the same result on every rank).
std::uint64_t sum(std::uint64_t value, const Communicator& comm);
std::int64_t sum(std::int64_t value, const Communicator& comm);
double sum(double value, const Communicator& comm);
double max(double value, const Communicator& comm);
std::int64_t max(std::int64_t value, const Communicator& comm);
double min(double value, const Communicator& comm);
int min(int value, const Communicator& comm);
std::int64_t min(std::int64_t value, const Communicator& comm);
/// Element-wise, in place.
void sum_in_place(std::vector<double>& values, const Communicator& comm);
void sum_in_place(std::vector<std::uint64_t>& values, const Communicator& comm);
void max_in_place(std::vector<double>& values, const Communicator& comm);
void min_in_place(std::vector<double>& values, const Communicator& comm);

/// Sum of `value` over the ranks below this one (0 on rank 0).
std::int64_t exclusive_prefix_sum(std::int64_t value, const Communicator& comm);

/// Every rank's value, in rank order, on `root` (empty elsewhere).
std::vector<std::int64_t> gather(std::int64_t value, const Communicator& comm, int root = 0);

/// Every rank's text, in rank order, on every rank.
std::vector<std::string> all_gather_text(const std::string& text, const Communicator& comm);

/// `root`'s bytes on every rank.
void broadcast_bytes(void* data, std::size_t bytes, const Communicator& comm, int root = 0);

/// `root`'s value on every rank (T trivially copyable).
template <class T>
void broadcast(T& value, const Communicator& comm, int root = 0) {
  static_assert(std::is_trivially_copyable_v<T>);
  broadcast_bytes(&value, sizeof(T), comm, root);
}

/// `root`'s contents on every rank, resized to match (elements trivially copyable).
template <class Container>
void broadcast_container(Container& values, const Communicator& comm, int root = 0) {
  static_assert(std::is_trivially_copyable_v<typename Container::value_type>);
  std::uint64_t size = values.size();
  broadcast(size, comm, root);
  values.resize(std::size_t(size));
  broadcast_bytes(values.data(), values.size() * sizeof(typename Container::value_type), comm,
                  root);
}

/// The bytes an all-to-all stages per rank and round (sent and received each). A larger
/// exchange goes in rounds, so no MPI count or displacement passes the int limit.
inline constexpr std::size_t kAllToAllRoundBytes = std::size_t(1) << 30;

/// The byte counts of an all-to-all: `send_bytes[r]` go to rank r; returns, for every rank s,
/// the bytes s sends to this one.
std::vector<std::size_t> all_to_all_counts(const std::vector<std::size_t>& send_bytes,
                                           const Communicator& comm);

/// All-to-all of bytes: `send[r]` goes to rank r; what every rank sends to this one
/// (`receive_bytes`, from all_to_all_counts) is written, in rank order, to `receive`. When any
/// rank moves more than `round_bytes`, the pairs move in rounds of round_bytes / P bytes each.
void all_to_all_bytes(const std::vector<std::span<const unsigned char>>& send,
                      const std::vector<std::size_t>& receive_bytes, unsigned char* receive,
                      const Communicator& comm, std::size_t round_bytes = kAllToAllRoundBytes);

/// All-to-all: `send[r]` goes to rank r (send.size() == comm.size()); returns what every rank
/// sent to this one, in rank order (MPI_Alltoallv, in rounds beyond `round_bytes`).
template <class T>
std::vector<T> all_to_all(const std::vector<std::vector<T>>& send, const Communicator& comm,
                          std::size_t round_bytes = kAllToAllRoundBytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<std::span<const unsigned char>> parts;
  std::vector<std::size_t> bytes;
  for (const std::vector<T>& part : send) {
    bytes.push_back(part.size() * sizeof(T));
    parts.emplace_back(reinterpret_cast<const unsigned char*>(part.data()), bytes.back());
  }
  const std::vector<std::size_t> receive_bytes = all_to_all_counts(bytes, comm);
  std::size_t total = 0;
  for (const std::size_t b : receive_bytes) total += b;
  std::vector<T> out(total / sizeof(T));
  all_to_all_bytes(parts, receive_bytes, reinterpret_cast<unsigned char*>(out.data()), comm,
                   round_bytes);
  return out;
}

/// Every rank passes its own error message ("" = success); returns on every rank the message
/// of the lowest failing rank ("" if none failed).
std::string first_failure(const std::string& message, const Communicator& comm);

/// The number of ranks of `comm` on this rank's node (shared memory). Collective.
int ranks_on_node(const Communicator& comm);
/// Collective: whether every rank of `comm` shares this node (the same answer on every rank).
bool all_on_one_node(const Communicator& comm);

/// Every rank passes its own error message ("" = success); if any rank failed, throws
/// InputError on every rank with the message of the lowest failing rank.
void throw_if_any_failed(const std::string& message, const Communicator& comm);

/// Runs `action` on rank 0; an exception there is rethrown as an InputError with the same
/// message on every rank.
template <class Action>
void on_root(const Communicator& comm, Action&& action) {
  std::string message;
  if (comm.is_root()) {
    try {
      action();
    } catch (const std::exception& error) {
      message = error.what();
      if (message.empty()) message = "unknown error";
    }
  }
  broadcast_container(message, comm);
  if (!message.empty()) throw InputError(message);
}

}  // namespace granite::comm
