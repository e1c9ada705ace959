// Migration of bodies to the rank owning their new position (see
// include/granite/parallel/migration.hpp).
#include "granite/parallel/migration.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/parallel/body_record.hpp"

#include <algorithm>
#include <cstdint>

namespace granite::parallel {

namespace {
constexpr int kMigrationTag = 200;

// Delivers records to arbitrary ranks with MPI_Alltoall(v); used only when some body jumped
// past the neighbour subdomains.
void deliver_far(const std::vector<std::pair<int, BodyRecord>>& far, body::Particles& particles,
                 MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<int> send_counts(size, 0), recv_counts(size, 0), send_displs(size, 0),
      recv_displs(size, 0);
  std::vector<std::pair<int, BodyRecord>> sorted = far;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<BodyRecord> send;
  for (const auto& [target, record] : sorted) {
    send_counts[target] += int(sizeof(BodyRecord));
    send.push_back(record);
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < size; ++r) {
    send_displs[r] = send_displs[r - 1] + send_counts[r - 1];
    recv_displs[r] = recv_displs[r - 1] + recv_counts[r - 1];
  }
  std::vector<BodyRecord> recv(std::size_t(recv_displs[size - 1] + recv_counts[size - 1]) /
                               sizeof(BodyRecord));
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_BYTE, recv.data(),
                recv_counts.data(), recv_displs.data(), MPI_BYTE, comm);
  for (const BodyRecord& r : recv) unpack(r, particles);
}

}  // namespace

MigrationCounts migrate(body::Particles& particles, const Decomposition& decomposition, int rank,
                        comm::PeerExchange& exchange) {
  const std::vector<int>& peers = exchange.peers();
  std::vector<std::vector<BodyRecord>> send(peers.size()), recv;
  std::vector<std::pair<int, BodyRecord>> far;
  std::vector<char> leaves(particles.size(), 0);
  MigrationCounts counts;
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const int owner = decomposition.owner_of(particles.position[i]);
    if (owner == rank) {
      particles.position[i] = decomposition.wrap(particles.position[i]);
      continue;
    }
    const Vec3& x = particles.position[i];
    const BodyRecord record = pack(particles, i, decomposition.wrap(x) - x);
    leaves[i] = 1;
    ++counts.sent;
    const auto it = std::lower_bound(peers.begin(), peers.end(), owner);
    if (it != peers.end() && *it == owner)
      send[std::size_t(it - peers.begin())].push_back(record);
    else
      far.emplace_back(owner, record);
  }
  particles.remove_if([&](std::size_t i) { return leaves[i] != 0; });
  exchange.exchange(send, recv, kMigrationTag);
  for (const auto& from_peer : recv)
    for (const BodyRecord& r : from_peer) unpack(r, particles);

  counts.far = far.size();
  if (comm::sum(std::uint64_t(far.size()), exchange.comm()) > 0)
    deliver_far(far, particles, exchange.comm());
  return counts;
}

}  // namespace granite::parallel
