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

// Delivers records to arbitrary ranks (all-to-all); used only when some body jumped past the
// neighbour subdomains.
void deliver_far(const std::vector<std::pair<int, BodyRecord>>& far, body::Particles& particles,
                 const comm::Communicator& comm) {
  std::vector<std::vector<BodyRecord>> send(std::size_t(comm.size()));
  for (const auto& [target, record] : far) send[std::size_t(target)].push_back(record);
  for (const BodyRecord& r : comm::all_to_all(send, comm)) unpack(r, particles);
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
