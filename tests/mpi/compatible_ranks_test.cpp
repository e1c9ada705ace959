// The compatible pass of a distributed step (the exchange's exchange_sums and max) at 1-4 ranks:
// a 14-sphere close-packed square pyramid (3 × 3, 2 × 2, 1) resting on a floor inside four
// walls, cut by the subdomains, one step from rest. The plain (frictionless) step leaves every
// sphere at rest, so F̃ is each sphere's weight impulse whatever the ranks did, and the
// compatible forces, unique for Hooke, must equal those of the serial Simulation.
#include "granite/parallel/distributed_domain.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace {

using namespace granite;

constexpr double kR = 0.01, kDt = 1e-3;

void build(timestep::Simulation& sim, const std::function<bool(const Vec3&)>& owns) {
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -9.81);
  p.contact_threshold = 1e-9;
  p.model.model = contact::Model::frictionless;
  p.max_sweeps = 20000;
  p.tolerance = 1e-13;
  p.convergence = solver::Convergence::impulse_change;
  p.compatible = solver::ContactLaw::hooke;
  p.compatible_settings.tolerance = 1e-10;
  const auto wall = sim.materials().add({2000.0, 0.0, 3.0});
  const auto grain = sim.materials().add({2000.0, 0.0, 1.0});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, wall);
  for (int axis = 0; axis < 2; ++axis)
    for (double side : {-1.0, 1.0}) {
      Vec3 n = Vec3::Zero();
      n[axis] = -side;
      sim.globals().add(body::HalfSpace{side * 3.0 * kR * Vec3::Unit(axis), n}, wall);
    }
  BodyId id = 0;
  for (int layer = 0; layer < 3; ++layer) {
    const int n = 3 - layer;  // layers √2 r apart, each centred on the hollows of the one below
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const Vec3 x((2 * i - (n - 1)) * kR, (2 * j - (n - 1)) * kR,
                     kR + layer * std::sqrt(2.0) * kR);
        const BodyId body = id++;
        if (owns(x)) sim.particles().add_sphere(sim.materials(), grain, x, kR, Vec3::Zero(), body);
      }
  }
  sim.set_record_contacts(true);
}

// (larger id, smaller id) → compatible normal impulse, over all ranks.
std::map<std::pair<BodyId, BodyId>, double> gathered(const timestep::ContactRecord& record,
                                                     MPI_Comm comm) {
  std::vector<double> mine;
  for (std::size_t j = 0; j < record.size(); ++j)
    mine.insert(mine.end(),
                {double(std::max(record.body1[j], record.body2[j])),
                 double(std::min(record.body1[j], record.body2[j])), record.compatible_impulse[j]});
  int size = 1;
  MPI_Comm_size(comm, &size);
  int n = int(mine.size());
  std::vector<int> counts(size), displs(size, 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<double> all(std::size_t(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), n, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
                 comm);
  std::map<std::pair<BodyId, BodyId>, double> out;
  for (std::size_t k = 0; k < all.size(); k += 3)
    out[{BodyId(all[k]), BodyId(all[k + 1])}] = all[k + 2];
  return out;
}

TEST(CompatibleRanks, PyramidForcesAgreeWithTheSerialPass) {
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const parallel::Box domain{Vec3(-3 * kR, -3 * kR, 0.0), Vec3(3 * kR, 3 * kR, 8 * kR)};
  const parallel::Int3 dims = parallel::choose_dims(size, domain.max - domain.min, {0, 0, 0},
                                                    {kR, 1e-9}, {false, false, false});
  const parallel::Decomposition decomposition(domain, dims, {false, false, false});
  timestep::Simulation serial, distributed;
  build(serial, [](const Vec3&) { return true; });
  build(distributed, [&](const Vec3& x) { return decomposition.owner_of(x) == rank; });
  parallel::DistributedDomain ranks(MPI_COMM_WORLD, decomposition, 1e-9, {});
  distributed.set_domain(&ranks);
  serial.step();
  distributed.step();
  ASSERT_TRUE(serial.statistics().compatible_converged);
  ASSERT_TRUE(distributed.statistics().compatible_converged);
  const auto expected = gathered(serial.contact_record(), MPI_COMM_SELF);
  const auto got = gathered(distributed.contact_record(), MPI_COMM_WORLD);
  // Floor 9, walls 12, base layer 12, base–middle 16, middle layer 4, middle–top 4: 57.
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_EQ(expected.size(), 57u);
  const double W = serial.particles().mass[0] * 9.81 * kDt;
  // Both passes stop at relative violation and stationarity 1e-10 from F̃ that agree to the
  // plain relaxations' 1e-13; the minimiser moves by at most about (contacts) × 1e-10 × W.
  for (const auto& [key, f] : expected) {
    ASSERT_EQ(got.count(key), 1u) << key.first << "-" << key.second;
    EXPECT_NEAR(got.at(key), f, 1e-8 * W) << key.first << "-" << key.second;
  }
}

}  // namespace
