// comm::all_to_all in rounds, at 1-4 ranks: parts of uneven sizes (empty ones among them) sent
// in rounds of a few bytes arrive whole, in rank order, equal to the one-round exchange; an
// exchange with nothing to move moves nothing.
#include "granite/comm/collectives.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace {

using namespace granite;

// The part rank s sends to rank r: (7 s + 3 r) mod 11 values, each naming s, r and its place.
std::vector<std::uint32_t> part(int s, int r) {
  std::vector<std::uint32_t> values(std::size_t((7 * s + 3 * r) % 11));
  for (std::size_t k = 0; k < values.size(); ++k)
    values[k] = std::uint32_t(s) << 24 | std::uint32_t(r) << 16 | std::uint32_t(k);
  return values;
}

std::vector<std::vector<std::uint32_t>> parts_from(int s, int ranks) {
  std::vector<std::vector<std::uint32_t>> send;
  for (int r = 0; r < ranks; ++r) send.push_back(part(s, r));
  return send;
}

std::vector<std::uint32_t> expected_at(int r, int ranks) {
  std::vector<std::uint32_t> all;
  for (int s = 0; s < ranks; ++s) {
    const std::vector<std::uint32_t> p = part(s, r);
    all.insert(all.end(), p.begin(), p.end());
  }
  return all;
}

TEST(AllToAll, RoundsOfAFewBytesDeliverEveryPartWholeAndInRankOrder) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  const auto send = parts_from(comm.rank(), comm.size());
  const auto expected = expected_at(comm.rank(), comm.size());
  // 5 bytes per round: pieces of 1 or 2 bytes per pair, so every 4-byte value is split.
  for (const std::size_t round : {std::size_t(5), std::size_t(13), comm::kAllToAllRoundBytes})
    EXPECT_EQ(comm::all_to_all(send, comm, round), expected) << round << " bytes per round";
}

TEST(AllToAll, NothingToMoveMovesNothing) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  const std::vector<std::vector<double>> none(std::size_t(comm.size()));
  EXPECT_TRUE(comm::all_to_all(none, comm, 3).empty());
}

}  // namespace
