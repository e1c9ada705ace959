// Ids unique over all ranks (parallel::first_duplicate_id) and the all-to-all it uses, at 1-4
// ranks: every rank holds its own ids; a duplicate split over two ranks, one within a rank,
// none, and the smallest of several are found, the same answer on every rank.
#include "granite/comm/collectives.hpp"
#include "granite/parallel/unique_ids.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

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

}  // namespace
