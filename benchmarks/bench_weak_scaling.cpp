// Weak scaling of the distributed time step (run under mpiexec at 1, 2, ... ranks; see
// benchmarks/weak_scaling.sh, which runs 1 and 2 ranks and prints the efficiency).
//
// Every rank owns the same block of touching spheres (a simple cubic lattice of nx × ny × nz,
// d = 1 mm, μ = 0.5, gravity, random velocities of up to 1 cm/s, neighbour lists with the
// configuration's default skin), the blocks side by side
// along x, so the domain grows with the rank count and each rank has one or two neighbours.
// After a few settling steps, `steps` steps are timed at a fixed 10 sweeps per step
// (tolerance 0). Printed: time per step (max over ranks), the phase shares, the
// communication share of a step, bytes sent per ghost per sweep (payload of the two
// correction messages), particles and contacts.
//
// usage: bench_weak_scaling [nx ny nz steps [exchange]]   (default 40 40 12 20 auto:
//        19 200 spheres per rank; exchange: solver.exchange's modes, auto, overlapped or
//        after_sweep; the first line names the one taken)
#include "granite/config/settings.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/timestep/simulation.hpp"
#include "granite/comm/collectives.hpp"
#include "granite/scenario/run_report.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

using namespace granite;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int nx = argc > 4 ? std::atoi(argv[1]) : 40, ny = argc > 4 ? std::atoi(argv[2]) : 40,
            nz = argc > 4 ? std::atoi(argv[3]) : 12, steps = argc > 4 ? std::atoi(argv[4]) : 20;
  constexpr double d = 1e-3;
  const Vec3 max(nx * d * ranks, ny * d, nz * d * 2);
  const parallel::Decomposition decomposition({Vec3::Zero(), max}, {ranks, 1, 1},
                                              {false, false, false});

  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = 1e-5;
  p.gravity = Vec3(0, 0, -9.81);
  p.contact_threshold = 1e-2 * d;
  p.skin = 0.8 * 0.5 * d;  // contact.skin's default: 0.8 x the largest radius
  p.max_sweeps = 10;
  const std::optional<config::ExchangeMode> mode =
      value_named(config::kExchangeNames, argc > 5 ? argv[5] : "auto");
  if (!mode) {
    if (rank == 0)
      std::fprintf(stderr,
                   "bench_weak_scaling: exchange must be auto, overlapped or after_sweep\n");
    MPI_Finalize();
    return 2;
  }
  p.overlap_exchange = config::overlaps_exchange(*mode, comm::all_on_one_node(MPI_COMM_WORLD));
  const std::string exchange = p.overlap_exchange ? "overlapped" : "after_sweep";
  p.tolerance = 0.0;
  const auto mat = sim.materials().add({2650.0, 0.5});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  for (int a = 0; a < 2; ++a) {
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::Unit(a)}, mat);
    sim.globals().add(body::HalfSpace{max, -Vec3::Unit(a)}, mat);
  }
  std::mt19937_64 rng(1000 + rank);
  std::uniform_real_distribution<double> u(-0.01, 0.01);
  BodyId id = BodyId(rank) * nx * ny * nz;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        sim.particles().add_sphere(sim.materials(), mat,
                                   Vec3((rank * nx + i + 0.5) * d, (j + 0.5) * d, (k + 0.5) * d),
                                   0.5 * d, Vec3(u(rng), u(rng), u(rng)), id++);
  parallel::DistributedDomain domain(MPI_COMM_WORLD, decomposition, p.contact_threshold, {});
  sim.set_domain(&domain);

  for (int s = 0; s < 3; ++s) sim.step();  // settle the lattice into contact
  sim.timers() = PhaseTimers{};
  std::uint64_t bytes = 0, ghost_sweeps = 0, contacts = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    const auto& stats = sim.step();
    bytes += domain.relaxation_bytes();
    ghost_sweeps += std::uint64_t(domain.ghost_count()) * std::uint64_t(stats.sweeps);
    contacts = stats.contacts;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const std::uint64_t all_bytes = comm::sum(bytes, MPI_COMM_WORLD);
  const std::uint64_t all_ghost_sweeps = comm::sum(ghost_sweeps, MPI_COMM_WORLD);
  const std::string table = scenario::timing_table(sim.timers(), MPI_COMM_WORLD);
  double comm = sim.timers().seconds(Phase::communication), total = sim.timers().total();
  MPI_Allreduce(MPI_IN_PLACE, &comm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("weak scaling: ranks %d, particles/rank %d, contacts %llu, steps %d at 10 sweeps, "
                "exchange %s\n",
                ranks, nx * ny * nz, static_cast<unsigned long long>(contacts), steps,
                exchange.c_str());
    std::printf("time per step: %.4f s (max over ranks)\n", seconds / steps);
    std::printf("communication share of a step: %.1f %%\n", total > 0 ? 100.0 * comm / total : 0.0);
    std::printf("bytes per ghost per sweep: %.1f (both correction messages)\n",
                all_ghost_sweeps ? double(all_bytes) / double(all_ghost_sweeps) : 0.0);
    std::printf("%s\n", table.c_str());
    std::printf("RESULT ranks=%d seconds_per_step=%.6f\n", ranks, seconds / steps);
  }
  MPI_Finalize();
  return 0;
}
