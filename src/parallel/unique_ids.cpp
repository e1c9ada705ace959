// The distributed check of unique ids (see include/granite/parallel/unique_ids.hpp).
#include "granite/parallel/unique_ids.hpp"

#include "granite/comm/collectives.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

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

namespace {

// An id on its way to be numbered: where it came from, to send its place back.
struct Numbering {
  BodyId id;
  std::int32_t rank;
  std::uint32_t index;  // in the sending rank's ids
};
struct Place {
  std::uint32_t index;
  std::int64_t place;
};

}  // namespace

IdOrder id_order(const std::vector<BodyId>& ids, const comm::Communicator& comm) {
  if (ids.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("id_order: more than 2^32 ids on one rank");
  IdOrder out;
  const std::size_t ranks = std::size_t(comm.size());
  BodyId low = std::numeric_limits<BodyId>::max(), high = std::numeric_limits<BodyId>::min();
  for (const BodyId id : ids) {
    low = std::min(low, id);
    high = std::max(high, id);
  }
  low = comm::min(low, comm);
  high = comm::max(high, comm);
  // Rank r holds [low + r w, low + (r + 1) w), w = (high − low + 1)/P, in 128-bit arithmetic.
  using Wide = unsigned __int128;
  const Wide span = Wide(std::uint64_t(high) - std::uint64_t(low)) + 1;
  std::vector<std::vector<Numbering>> send(ranks);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Wide offset = Wide(std::uint64_t(ids[i]) - std::uint64_t(low));
    send[std::size_t(offset * ranks / span)].push_back({ids[i], comm.rank(), std::uint32_t(i)});
  }
  std::vector<Numbering> mine = comm::all_to_all(send, comm);
  std::sort(mine.begin(), mine.end(),
            [](const Numbering& a, const Numbering& b) { return a.id < b.id; });
  const auto twice =
      std::adjacent_find(mine.begin(), mine.end(),
                         [](const Numbering& a, const Numbering& b) { return a.id == b.id; });
  constexpr BodyId kNone = std::numeric_limits<BodyId>::max();
  const BodyId found = comm::min(twice == mine.end() ? kNone : twice->id, comm);
  if (found != kNone) {
    out.duplicate = found;
    return out;
  }
  const std::int64_t first = comm::exclusive_prefix_sum(std::int64_t(mine.size()), comm);
  std::vector<std::vector<Place>> reply(ranks);
  for (std::size_t k = 0; k < mine.size(); ++k)
    reply[std::size_t(mine[k].rank)].push_back({mine[k].index, first + std::int64_t(k)});
  out.place.assign(ids.size(), -1);
  for (const Place& p : comm::all_to_all(reply, comm)) out.place[p.index] = p.place;
  return out;
}

}  // namespace granite::parallel
