#include "granite/comm/collectives.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace granite::comm {

namespace {
template <class T>
T reduce(T value, MPI_Datatype type, MPI_Op op, const Communicator& comm) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, type, op, comm.native());
  return value;
}
template <class T>
void reduce_in_place(std::vector<T>& values, MPI_Datatype type, MPI_Op op,
                     const Communicator& comm) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), type, op, comm.native());
}
}  // namespace

bool all_ok(bool ok, const Communicator& comm) {
  return reduce(ok ? 1 : 0, MPI_INT, MPI_MIN, comm) == 1;
}

std::uint64_t sum(std::uint64_t value, const Communicator& comm) {
  return reduce(value, MPI_UINT64_T, MPI_SUM, comm);
}
std::int64_t sum(std::int64_t value, const Communicator& comm) {
  return reduce(value, MPI_INT64_T, MPI_SUM, comm);
}
double sum(double value, const Communicator& comm) {
  return reduce(value, MPI_DOUBLE, MPI_SUM, comm);
}
std::int64_t max(std::int64_t value, const Communicator& comm) {
  return reduce(value, MPI_INT64_T, MPI_MAX, comm);
}
std::int64_t min(std::int64_t value, const Communicator& comm) {
  return reduce(value, MPI_INT64_T, MPI_MIN, comm);
}
double max(double value, const Communicator& comm) {
  return reduce(value, MPI_DOUBLE, MPI_MAX, comm);
}
double min(double value, const Communicator& comm) {
  return reduce(value, MPI_DOUBLE, MPI_MIN, comm);
}
int min(int value, const Communicator& comm) { return reduce(value, MPI_INT, MPI_MIN, comm); }

void sum_in_place(std::vector<double>& values, const Communicator& comm) {
  reduce_in_place(values, MPI_DOUBLE, MPI_SUM, comm);
}
void sum_in_place(std::vector<std::uint64_t>& values, const Communicator& comm) {
  reduce_in_place(values, MPI_UINT64_T, MPI_SUM, comm);
}
void max_in_place(std::vector<double>& values, const Communicator& comm) {
  reduce_in_place(values, MPI_DOUBLE, MPI_MAX, comm);
}
void min_in_place(std::vector<double>& values, const Communicator& comm) {
  reduce_in_place(values, MPI_DOUBLE, MPI_MIN, comm);
}

std::int64_t exclusive_prefix_sum(std::int64_t value, const Communicator& comm) {
  std::int64_t below = 0;
  MPI_Exscan(&value, &below, 1, MPI_INT64_T, MPI_SUM, comm.native());
  return comm.is_root() ? 0 : below;  // MPI_Exscan leaves rank 0's result undefined
}

std::vector<std::int64_t> gather(std::int64_t value, const Communicator& comm, int root) {
  std::vector<std::int64_t> all(comm.rank() == root ? std::size_t(comm.size()) : 0);
  MPI_Gather(&value, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, root, comm.native());
  return all;
}

std::vector<std::string> all_gather_text(const std::string& text, const Communicator& comm) {
  if (text.size() > std::size_t(INT_MAX)) throw std::runtime_error("gather larger than 2 GiB");
  const int n = comm.size();
  const int mine = int(text.size());
  std::vector<int> sizes(static_cast<std::size_t>(n), 0), offsets(static_cast<std::size_t>(n), 0);
  MPI_Allgather(&mine, 1, MPI_INT, sizes.data(), 1, MPI_INT, comm.native());
  std::size_t total = 0;
  for (int r = 0; r < n; ++r) {
    if (total > std::size_t(INT_MAX)) throw std::runtime_error("gather larger than 2 GiB");
    offsets[std::size_t(r)] = int(total);
    total += std::size_t(sizes[std::size_t(r)]);
  }
  std::string all(total, '\0');
  MPI_Allgatherv(text.data(), mine, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR,
                 comm.native());
  std::vector<std::string> out(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    out[std::size_t(r)] =
        all.substr(std::size_t(offsets[std::size_t(r)]), std::size_t(sizes[std::size_t(r)]));
  return out;
}

void broadcast_bytes(void* data, std::size_t bytes, const Communicator& comm, int root) {
  if (bytes > std::size_t(INT_MAX)) throw std::runtime_error("broadcast larger than 2 GiB");
  MPI_Bcast(data, int(bytes), MPI_BYTE, root, comm.native());
}

std::string first_failure(const std::string& message, const Communicator& comm) {
  const int first_failed = min(message.empty() ? comm.size() : comm.rank(), comm);
  if (first_failed == comm.size()) return "";
  std::string text = message;
  broadcast_container(text, comm, first_failed);
  return text;
}

int ranks_on_node(const Communicator& comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm.native(), MPI_COMM_TYPE_SHARED, comm.rank(), MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

bool all_on_one_node(const Communicator& comm) {
  return ranks_on_node(comm) == comm.size();  // on every rank alike: its node holds them all
}

void throw_if_any_failed(const std::string& message, const Communicator& comm) {
  const std::string text = first_failure(message, comm);
  if (!text.empty()) throw InputError(text);
}

std::vector<std::size_t> all_to_all_counts(const std::vector<std::size_t>& send_bytes,
                                           const Communicator& comm) {
  if (int(send_bytes.size()) != comm.size())
    throw std::logic_error("all_to_all: one part per rank expected");
  const std::vector<std::uint64_t> send(send_bytes.begin(), send_bytes.end());
  std::vector<std::uint64_t> receive(send.size());
  MPI_Alltoall(send.data(), 1, MPI_UINT64_T, receive.data(), 1, MPI_UINT64_T, comm.native());
  return {receive.begin(), receive.end()};
}

void all_to_all_bytes(const std::vector<std::span<const unsigned char>>& send,
                      const std::vector<std::size_t>& receive_bytes, unsigned char* receive,
                      const Communicator& comm, std::size_t round_bytes) {
  const std::size_t size = std::size_t(comm.size());
  if (send.size() != size || receive_bytes.size() != size || round_bytes == 0)
    throw std::logic_error("all_to_all: one part per rank expected");
  // Round k moves bytes [k·pair, (k+1)·pair) of every pair's part: at most round_bytes, and
  // never more than INT_MAX, staged on each side; sender and receiver agree on every piece.
  const std::size_t pair =
      std::max<std::size_t>(1, std::min<std::size_t>(round_bytes, INT_MAX) / size);
  std::size_t most = 0;
  std::vector<std::size_t> receive_at(size, 0);
  for (std::size_t r = 0; r < size; ++r) {
    most = std::max({most, send[r].size(), receive_bytes[r]});
    if (r > 0) receive_at[r] = receive_at[r - 1] + receive_bytes[r - 1];
  }
  const std::int64_t rounds = max(std::int64_t((most + pair - 1) / pair), comm);
  std::vector<int> send_counts(size), receive_counts(size), send_displs(size), receive_displs(size);
  std::vector<unsigned char> send_stage, receive_stage;
  for (std::int64_t k = 0; k < rounds; ++k) {
    const std::size_t from = std::size_t(k) * pair;
    const auto piece = [&](std::size_t bytes) {
      return bytes > from ? std::min(pair, bytes - from) : 0;
    };
    int sent = 0, received = 0;
    for (std::size_t r = 0; r < size; ++r) {
      send_displs[r] = sent;
      receive_displs[r] = received;
      sent += send_counts[r] = int(piece(send[r].size()));
      received += receive_counts[r] = int(piece(receive_bytes[r]));
    }
    send_stage.resize(std::size_t(sent));
    for (std::size_t r = 0; r < size; ++r)
      if (send_counts[r] > 0)
        std::memcpy(send_stage.data() + send_displs[r], send[r].data() + from,
                    std::size_t(send_counts[r]));
    // One round: the pieces land where they belong, in rank order, without a staging copy.
    unsigned char* landing =
        rounds == 1 ? receive : (receive_stage.resize(std::size_t(received)), receive_stage.data());
    MPI_Alltoallv(send_stage.data(), send_counts.data(), send_displs.data(), MPI_BYTE, landing,
                  receive_counts.data(), receive_displs.data(), MPI_BYTE, comm.native());
    if (rounds == 1) continue;
    for (std::size_t r = 0; r < size; ++r)
      if (receive_counts[r] > 0)
        std::memcpy(receive + receive_at[r] + from, receive_stage.data() + receive_displs[r],
                    std::size_t(receive_counts[r]));
  }
}

}  // namespace granite::comm
