// Deliberately fails on rank 1 only; run by tests/support/expect_failure.sh, which passes
// only if the run exits non-zero and the failure is reported with its rank.
#include <gtest/gtest.h>
#include <mpi.h>

TEST(HarnessSelfTest, FailsOnRankOneOnly) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  EXPECT_NE(rank, 1) << "deliberate failure on rank 1";
}
