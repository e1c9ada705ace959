// Ids unique over all ranks (parallel::first_duplicate_id) and the all-to-all it uses, at 1-4
// ranks: every rank holds its own ids; a duplicate split over two ranks, one within a rank,
// none, and the smallest of several are found, the same answer on every rank.
#include "granite/comm/collectives.hpp"
#include "granite/parallel/unique_ids.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace {

using namespace granite;

// Rank r holds 10 ids r·1000 + k, k = 0..9 (distinct over the ranks), plus `extra`.
std::vector<BodyId> ids_of(int rank, std::vector<BodyId> extra) {
  for (BodyId k = 0; k < 10; ++k) extra.push_back(BodyId(rank) * 1000 + k);
  return extra;
}

TEST(UniqueIds, AllToAllDeliversEachPartToItsRank) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  std::vector<std::vector<std::int64_t>> send(std::size_t(comm.size()));
  for (int r = 0; r < comm.size(); ++r)  // rank s sends r + 1 values 100 s + r to rank r
    send[std::size_t(r)].assign(std::size_t(r + 1), 100 * comm.rank() + r);
  const std::vector<std::int64_t> got = comm::all_to_all(send, comm);
  std::vector<std::int64_t> expected;
  for (int s = 0; s < comm.size(); ++s)
    expected.insert(expected.end(), std::size_t(comm.rank() + 1), 100 * s + comm.rank());
  EXPECT_EQ(got, expected);
}

TEST(UniqueIds, NoneAmongDistinctIds) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  EXPECT_FALSE(parallel::first_duplicate_id(ids_of(comm.rank(), {}), comm));
  EXPECT_FALSE(parallel::first_duplicate_id({}, comm));
}

TEST(UniqueIds, ADuplicateSplitOverTwoRanksIsFoundEverywhere) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  const int last = comm.size() - 1;
  // The last rank also holds rank 0's id 7 (on one rank: a duplicate within the rank).
  const auto twice = parallel::first_duplicate_id(
      ids_of(comm.rank(), comm.rank() == last ? std::vector<BodyId>{7} : std::vector<BodyId>{}),
      comm);
  ASSERT_TRUE(twice);
  EXPECT_EQ(*twice, 7);
}

TEST(UniqueIds, TheSmallestOfSeveralDuplicates) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  // Every rank repeats its own id r·1000 + 5, and the last rank also id 3 of rank 0.
  std::vector<BodyId> extra{BodyId(comm.rank()) * 1000 + 5};
  if (comm.rank() == comm.size() - 1) extra.push_back(3);
  const auto twice = parallel::first_duplicate_id(ids_of(comm.rank(), extra), comm);
  ASSERT_TRUE(twice);
  EXPECT_EQ(*twice, 3);
}

// id_order numbers the ids as one sort of all of them: rank r holds ids far apart (both ends
// of the int64 range, so that the value ranges need the 128-bit arithmetic) and interleaved
// with the other ranks'; every place is checked against the gathered, sorted ids.
TEST(UniqueIds, IdOrderNumbersTheIdsAsASortOfAllOfThem) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  const BodyId r = comm.rank(), p = comm.size();
  std::vector<BodyId> mine;
  for (BodyId k = 0; k < 40; ++k) mine.push_back((40 - k) * 7 * p + r * 3);  // descending
  mine.push_back(std::numeric_limits<BodyId>::min() + r);
  mine.push_back(std::numeric_limits<BodyId>::max() - r);
  if (r == 0) mine.push_back(-5);
  const parallel::IdOrder order = parallel::id_order(mine, comm);
  ASSERT_FALSE(order.duplicate);
  ASSERT_EQ(order.place.size(), mine.size());
  std::vector<std::vector<BodyId>> to_all(std::size_t(comm.size()), mine);
  std::vector<BodyId> all = comm::all_to_all(to_all, comm);
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < mine.size(); ++i)
    EXPECT_EQ(order.place[i], std::lower_bound(all.begin(), all.end(), mine[i]) - all.begin())
        << "id " << mine[i];
  // A rank without ids takes part.
  const parallel::IdOrder none = parallel::id_order(r == 0 ? mine : std::vector<BodyId>{}, comm);
  for (std::size_t i = 0; r == 0 && i < mine.size(); ++i)
    EXPECT_EQ(none.place[i], std::int64_t(std::count_if(mine.begin(), mine.end(),
                                                        [&](BodyId id) { return id < mine[i]; })));
}

TEST(UniqueIds, IdOrderReportsTheSmallestRepeatedId) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  std::vector<BodyId> extra;
  if (comm.rank() == comm.size() - 1) extra = {1005, 6};  // rank 1's 1005 (if any), rank 0's 6
  const parallel::IdOrder order = parallel::id_order(ids_of(comm.rank(), extra), comm);
  ASSERT_TRUE(order.duplicate);
  EXPECT_EQ(*order.duplicate, 6);
  EXPECT_TRUE(order.place.empty());
}

}  // namespace
