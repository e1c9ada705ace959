// The id directory (see include/granite/parallel/id_directory.hpp).
#include "granite/parallel/id_directory.hpp"

#include "granite/comm/collectives.hpp"

namespace granite::parallel {

namespace {

struct IdRank {
  BodyId id;
  std::int32_t rank;
};

std::size_t directory_of(BodyId id, int ranks) {
  return std::size_t(((id % ranks) + ranks) % ranks);
}

}  // namespace

std::unordered_map<BodyId, int> owners_of(const std::vector<BodyId>& wanted,
                                          const std::vector<BodyId>& owned,
                                          const comm::Communicator& comm) {
  const int ranks = comm.size();
  const auto me = std::int32_t(comm.rank());
  std::vector<std::vector<IdRank>> send(static_cast<std::size_t>(ranks));
  for (const BodyId id : owned) send[directory_of(id, ranks)].push_back({id, me});
  std::unordered_map<BodyId, int> directory;
  for (const IdRank& r : comm::all_to_all(send, comm)) directory[r.id] = r.rank;

  for (auto& part : send) part.clear();
  for (const BodyId id : wanted) send[directory_of(id, ranks)].push_back({id, me});
  const std::vector<IdRank> asked = comm::all_to_all(send, comm);
  for (auto& part : send) part.clear();
  for (const IdRank& q : asked) {
    const auto it = directory.find(q.id);
    if (it != directory.end()) send[std::size_t(q.rank)].push_back({q.id, it->second});
  }
  std::unordered_map<BodyId, int> owners;
  for (const IdRank& a : comm::all_to_all(send, comm)) owners[a.id] = a.rank;
  return owners;
}

}  // namespace granite::parallel
