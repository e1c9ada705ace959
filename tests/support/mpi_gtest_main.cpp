// GoogleTest main for tests that run under mpiexec.
//
// Every rank runs every test. Rank 0 keeps gtest's normal output; the other ranks print only
// their failures, each line prefixed with "[rank R]". The process exit code is the maximum
// over all ranks, so a failure on any single rank fails the ctest entry.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

namespace {

class RankFailurePrinter : public testing::EmptyTestEventListener {
public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}

  // The test is remembered here: UnitTest::current_test_info() takes a lock that gtest
  // already holds while it reports a part result.
  void OnTestStart(const testing::TestInfo& info) override { current_ = &info; }
  void OnTestEnd(const testing::TestInfo&) override { current_ = nullptr; }

  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] FAILED %s.%s at %s:%d\n%s\n", rank_,
                 current_ ? current_->test_suite_name() : "?", current_ ? current_->name() : "?",
                 result.file_name() ? result.file_name() : "?", result.line_number(),
                 result.message());
    std::fflush(stderr);
  }

private:
  int rank_;
  const testing::TestInfo* current_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  testing::InitGoogleTest(&argc, argv);
  testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new RankFailurePrinter(rank));

  int local = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && global != 0 && local == 0)
    std::fprintf(stderr, "FAILED on another rank (see the [rank R] lines above)\n");
  MPI_Finalize();
  return global;
}
