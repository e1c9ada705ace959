// The per-sweep correction exchange's cost on this machine (issue 42: the latency and
// bandwidth terms of the cluster model). Run under mpiexec at 2 or more ranks: every rank
// exchanges with its two neighbours on a ring (one peer at 2 ranks), as a sweep does, in
// two phases (increments to the owners, totals back) of B bytes per message.
//
// For each B, three figures per two-phase exchange (mean over the ranks, µs):
//   alone       exchange_sized twice, nothing else: the cost t(B) ≈ α + β B (below);
//   after work  the same after W µs of arithmetic (the after-sweep exchange: a rank waits
//               for whatever its peers' work took longer, plus the messages);
//   overlapped  each phase posted, W/2 µs of arithmetic, then completed (the overlapped
//               sweep): only the time in the MPI calls is counted.
// α (the smallest message) and β (the slope between the two largest) are this machine's
// latency and bandwidth terms (docs/performance.md, strong scaling).
//
// usage: mpiexec -n 2 bench_exchange [W_us repetitions]   (default 50 µs, 4000)
#include "granite/comm/peer_exchange.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace granite;

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// About `us` microseconds of arithmetic the compiler cannot remove.
volatile double sink = 0.0;
void work(double us, double per_us) {
  double x = sink;
  const long n = long(us * per_us);
  for (long k = 0; k < n; ++k) x = x * 0.999999 + 1e-9;
  sink = x;
}

double mean_over_ranks(double value) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return value / ranks;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const double work_us = argc > 2 ? std::atof(argv[1]) : 50.0;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 4000;
  if (ranks < 2) {
    if (rank == 0) std::printf("bench_exchange: run it on 2 or more ranks\n");
    MPI_Finalize();
    return 0;
  }
  comm::PeerExchange exchange(MPI_COMM_WORLD);
  exchange.set_peers({(rank + 1) % ranks, (rank + ranks - 1) % ranks});
  const std::size_t peers = exchange.peers().size();

  // Calibrate the arithmetic: iterations per microsecond.
  double per_us = 100.0;
  {
    const auto t = Clock::now();
    work(20000.0, per_us);
    per_us *= 20000.0 / (1e6 * since(t));
  }

  if (rank == 0)
    std::printf("%d ranks, %zu peer(s) each, work %.0f us between exchanges, %d repetitions\n"
                "%10s %12s %14s %14s\n",
                ranks, peers, work_us, repetitions, "bytes", "alone_us", "after_work_us",
                "overlapped_us");
  std::vector<double> sizes, alone_us;
  for (const std::size_t bytes : {64u, 512u, 4096u, 32768u, 262144u}) {
    const std::size_t n = bytes / sizeof(double);
    std::vector<std::vector<double>> send(peers, std::vector<double>(n, 1.0)), recv = send;
    double alone = 0.0, after = 0.0, overlapped = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < repetitions; ++r) {
      auto t = Clock::now();
      exchange.exchange_sized(send, recv, 1);
      exchange.exchange_sized(send, recv, 2);
      alone += since(t);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < repetitions; ++r) {
      work(work_us, per_us);
      const auto t = Clock::now();
      exchange.exchange_sized(send, recv, 1);
      exchange.exchange_sized(send, recv, 2);
      after += since(t);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < repetitions; ++r) {
      for (const int tag : {1, 2}) {
        auto t = Clock::now();
        exchange.start_sized(send, recv, tag);
        overlapped += since(t);
        work(0.5 * work_us, per_us);
        t = Clock::now();
        exchange.finish();
        overlapped += since(t);
      }
    }
    const double scale = 1e6 / repetitions;
    alone = mean_over_ranks(alone * scale);
    after = mean_over_ranks(after * scale);
    overlapped = mean_over_ranks(overlapped * scale);
    sizes.push_back(double(bytes));
    alone_us.push_back(alone);
    if (rank == 0) std::printf("%10zu %12.2f %14.2f %14.2f\n", bytes, alone, after, overlapped);
  }
  // t(B) ≈ α + β B: α the smallest message's cost, β the slope between the two largest (an
  // affine fit over all sizes would mix the eager and the rendezvous protocols, whose switch
  // lies between 512 B and 4 KB with Open MPI's shared-memory defaults).
  const std::size_t k = sizes.size() - 1;
  const double beta = (alone_us[k] - alone_us[k - 1]) / (sizes[k] - sizes[k - 1]);
  if (rank == 0)
    std::printf("two-phase exchange: alpha = %.2f us (64 B), beta = %.3f ns per byte "
                "(%.2f GB/s per message)\n",
                alone_us[0], 1e3 * beta, 2e-3 / beta);
  MPI_Finalize();
  return 0;
}
