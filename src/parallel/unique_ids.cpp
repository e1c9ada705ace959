// The distributed check of unique ids (see include/granite/parallel/unique_ids.hpp).
#include "granite/parallel/unique_ids.hpp"

#include "granite/comm/collectives.hpp"

#include <algorithm>
#include <limits>

namespace granite::parallel {

std::optional<BodyId> first_duplicate_id(const std::vector<BodyId>& ids,
                                         const comm::Communicator& comm) {
  const auto ranks = BodyId(comm.size());
  std::vector<std::vector<BodyId>> send(std::size_t(comm.size()));
  for (const BodyId id : ids) send[std::size_t(((id % ranks) + ranks) % ranks)].push_back(id);
  std::vector<BodyId> mine = comm::all_to_all(send, comm);
  std::sort(mine.begin(), mine.end());
  const auto twice = std::adjacent_find(mine.begin(), mine.end());
  constexpr BodyId kNone = std::numeric_limits<BodyId>::max();
  const BodyId found = comm::min(twice == mine.end() ? kNone : *twice, comm);
  if (found == kNone) return std::nullopt;
  return found;
}

}  // namespace granite::parallel
