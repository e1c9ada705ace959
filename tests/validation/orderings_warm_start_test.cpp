// Sweep orderings and warm starting (issue 14).
// - Every ordering converges to the same impulses: the three-sphere row (head-on inelastic
//   impact) and the penetrated resting column have unique solutions, and at fc3d error 1e-13
//   the impulses are within ~1e-13 × the largest impulse × the conditioning of the column's
//   Delassus matrix (~N² = 100) of it; 1e-9 relative leaves a wide margin.
// - Warm starting: on a resting column of 10 spheres and a resting layer of 400, once a step has
//   converged, the next step's problem is the same up to round-off, so starting from the last
//   impulses the first sweep already meets fc3d 1e-10.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace granite;

namespace {

// kR = 2⁻⁸ m: the touching positions (odd multiples of kR) are exact in binary, so the gaps
// are exactly 0 rather than ±1e-18 m, whose gap terms (~1e-14 m/s) would change between steps.
constexpr double kG = 9.81, kR = 1.0 / 256.0, kDt = 1e-4;

void set_parameters(timestep::Parameters& p, double tolerance) {
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.error_reduction = 0.2;
  p.contact_threshold = 0.1 * kR;
  p.convergence = solver::Convergence::fc3d;
  p.tolerance = tolerance;
  p.max_sweeps = 20000;
}

// Ten spheres stacked on a floor, each contact penetrated by `penetration`.
void build_column(timestep::Simulation& sim, double penetration) {
  const auto mat = sim.materials().add({2650.0, 0.5});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  for (int i = 0; i < 10; ++i)
    sim.particles().add_sphere(sim.materials(), mat,
                               Vec3(0.01, 0.02, kR - penetration + i * (2 * kR - penetration)), kR);
}

// 20 × 20 touching spheres on a floor.
void build_layer(timestep::Simulation& sim) {
  const auto mat = sim.materials().add({2650.0, 0.5});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  for (int j = 0; j < 20; ++j)
    for (int i = 0; i < 20; ++i)
      sim.particles().add_sphere(sim.materials(), mat, Vec3(i * 2 * kR, j * 2 * kR, kR), kR);
}

double largest(const std::vector<Vec3>& impulses) {
  double m = 0.0;
  for (const Vec3& x : impulses) m = std::max(m, x.norm());
  return m;
}

void expect_same_impulses(const std::vector<Vec3>& a, const std::vector<Vec3>& b,
                          const char* what) {
  ASSERT_EQ(a.size(), b.size());
  const double scale = largest(a);
  ASSERT_GT(scale, 0.0);
  for (std::size_t j = 0; j < a.size(); ++j)
    EXPECT_LE((a[j] - b[j]).norm(), 1e-9 * scale) << what << ", contact " << j;
}

constexpr solver::Ordering kOrderings[] = {solver::Ordering::detection, solver::Ordering::symmetric,
                                           solver::Ordering::gravity, solver::Ordering::random};

}  // namespace

TEST(Orderings, ThreeSphereRowGivesTheSameImpulses) {
  std::vector<Vec3> reference;
  for (const auto ordering : kOrderings) {
    timestep::Simulation sim;
    auto& p = sim.parameters();
    set_parameters(p, 1e-13);
    p.gravity = Vec3(1.0, -2.0, -3.0);  // a direction for the gravity ordering (tiny here)
    p.ordering = ordering;
    p.ordering_seed = 42;
    const auto mat = sim.materials().add({1000.0, 0.4});
    const double r = 0.5;
    // Listed right to left so that the detection order is not the impact order.
    sim.particles().add_sphere(sim.materials(), mat, Vec3(4 * r, 0, 0), r);
    sim.particles().add_sphere(sim.materials(), mat, Vec3(2 * r, 0, 0), r);
    sim.particles().add_sphere(sim.materials(), mat, Vec3(0, 0, 0), r, Vec3(2.0, 0, 0));
    const auto& st = sim.step();
    ASSERT_EQ(st.contacts, 2u);
    ASSERT_TRUE(st.converged) << st.fc3d_error;
    if (reference.empty())
      reference = sim.impulses();
    else
      expect_same_impulses(reference, sim.impulses(), "three spheres");
  }
}

TEST(Orderings, RestingColumnGivesTheSameImpulses) {
  std::vector<Vec3> reference;
  for (const auto ordering : kOrderings) {
    timestep::Simulation sim;
    set_parameters(sim.parameters(), 1e-13);
    sim.parameters().ordering = ordering;
    sim.parameters().ordering_seed = 7;
    build_column(sim, 1e-3 * kR);
    const auto& st = sim.step();  // (then the error reduction lifts them apart)
    ASSERT_TRUE(st.converged) << st.fc3d_error;
    if (reference.empty())
      reference = sim.impulses();
    else
      expect_same_impulses(reference, sim.impulses(), "column");
  }
}

TEST(Orderings, RandomIsDeterministicGivenSeedAndStep) {
  solver::SweepOrder a, b, c;
  const std::vector<Vec3> points(50, Vec3::Zero());
  solver::build_sweep_order(solver::Ordering::random, points, Vec3::Zero(), 3, 17, a);
  solver::build_sweep_order(solver::Ordering::random, points, Vec3::Zero(), 3, 17, b);
  solver::build_sweep_order(solver::Ordering::random, points, Vec3::Zero(), 3, 18, c);
  EXPECT_EQ(a.indices, b.indices);
  EXPECT_NE(a.indices, c.indices);
  std::vector<std::uint32_t> sorted = a.indices;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint32_t k = 0; k < 50; ++k) EXPECT_EQ(sorted[k], k);  // a permutation
}

TEST(Orderings, GravityVisitsTheLowestContactFirst) {
  solver::SweepOrder order;
  const std::vector<Vec3> points = {Vec3(0, 0, 3), Vec3(0, 0, 1), Vec3(5, 0, 2)};
  solver::build_sweep_order(solver::Ordering::gravity, points, Vec3(0, 0, -9.81), 0, 0, order);
  EXPECT_EQ(order.indices, (std::vector<std::uint32_t>{1, 2, 0}));
}

namespace {

// Steps until a converged step, then one more; returns that step's sweeps and fc3d error.
std::pair<int, double> second_step(timestep::Simulation& sim, double warm_start) {
  auto& p = sim.parameters();
  p.warm_start = warm_start;
  const auto first = sim.step();
  EXPECT_TRUE(first.converged) << first.fc3d_error;
  p.tolerance = 1e-10;
  const auto& second = sim.step();
  return {second.sweeps, second.fc3d_error};
}

}  // namespace

TEST(WarmStart, RestingColumnConvergesInOneSweep) {
  timestep::Simulation sim;
  set_parameters(sim.parameters(), 1e-14);
  build_column(sim, 0.0);
  const auto [sweeps, error] = second_step(sim, 1.0);
  EXPECT_EQ(sweeps, 1);
  EXPECT_LE(error, 1e-10);

  timestep::Simulation cold;  // the test can fail: without warm start it takes many sweeps
  set_parameters(cold.parameters(), 1e-14);
  build_column(cold, 0.0);
  EXPECT_GT(second_step(cold, 0.0).first, 10);
}

TEST(WarmStart, RestingLayerConvergesInOneSweep) {
  timestep::Simulation sim;
  set_parameters(sim.parameters(), 1e-14);
  build_layer(sim);
  const auto [sweeps, error] = second_step(sim, 1.0);
  EXPECT_EQ(sim.statistics().contacts > 400u, true);
  EXPECT_EQ(sweeps, 1);
  EXPECT_LE(error, 1e-10);
}

TEST(WarmStart, ImpulseFollowsThePairAndTheFrame) {
  // Two spheres side by side on a floor, the pair detected once as (a, b): the history keeps
  // the world impulse on the lower id; a warm start with the bodies' order swapped and the
  // frame rotated gives the same world impulse, projected onto the cone and scaled.
  body::MaterialTable materials;
  const auto mat = materials.add({1000.0, 0.5});
  body::Particles particles;
  particles.add_sphere(materials, mat, Vec3(0, 0, 0), 1.0);
  particles.add_sphere(materials, mat, Vec3(2, 0, 0), 1.0);
  collision::ContactList contacts;
  contacts.num_particles = 2;
  contacts.push_back(1, 0, Vec3(1, 0, 0), Vec3(1, 0, 0), 0.0);  // n from body 0 to 1
  std::vector<solver::SolverContact> sc(1);
  sc[0].set_frame(contacts.normal[0]);
  sc[0].mu = 0.5;
  const Vec3 world(2.0, 0.4, 0.3);  // on body 1 (id 1), inside the cone ‖(0.4, 0.3)‖ ≤ 1
  solver::ContactHistory history;
  history.record(contacts, particles, sc, {sc[0].frame().transpose() * world});
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history.entries()[0].key.first, 0);                     // lower id first
  EXPECT_LE((history.entries()[0].impulse + world).norm(), 1e-15);  // on body 0: −world

  collision::ContactList swapped;
  swapped.num_particles = 2;
  swapped.push_back(0, 1, Vec3(1, 0, 0), Vec3(-1, 0, 0), 0.0);
  std::vector<solver::SolverContact> sc2(1);
  sc2[0].set_frame(swapped.normal[0]);
  sc2[0].mu = 0.5;
  std::vector<Vec3> impulses;
  EXPECT_EQ(history.warm_start(swapped, particles, sc2, 0.5, impulses), 1u);
  EXPECT_LE((sc2[0].frame() * impulses[0] - 0.5 * (-world)).norm(), 1e-15);

  // Outside the new cone (μ = 0.1): projected onto it.
  sc2[0].mu = 0.1;
  history.warm_start(swapped, particles, sc2, 1.0, impulses);
  EXPECT_NEAR(impulses[0].tail<2>().norm(), 0.1 * impulses[0][0], 1e-15);
}
