// A dense random gas of spheres in a closed box of six walls: with inelastic contacts the
// kinetic energy never increases from one step to the next. Gravity is off (no potential
// energy to account for) and the error reduction ε is 0: the penetration correction
// ε min(0, ξ/dt) is the scheme's one deliberate energy source, so with ε > 0 small increases
// after deep overlaps are expected and not a defect. Open contacts within the threshold are
// included, so closing contacts are resolved before they penetrate.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

using namespace granite;

namespace {

// A gas of n spheres of radius r in a closed box of side L (six walls), random non-overlapping
// positions, random velocities and spins; ε = 0 and open contacts within 0.2 r included.
void fill_gas(timestep::Simulation& sim, std::size_t n, double r, double L) {
  auto& p = sim.parameters();
  p.dt = 1e-4;
  p.contact_threshold = 0.2 * r;
  p.error_reduction = 0.0;
  const auto mat = sim.materials().add({2650.0, 0.4});
  const Vec3 centre = Vec3::Constant(L / 2);
  for (int k = 0; k < 3; ++k)
    for (double side : {-1.0, 1.0}) {
      Vec3 normal = Vec3::Zero();
      normal[k] = -side;  // pointing into the box
      sim.globals().add(body::HalfSpace{centre - normal * (L / 2), normal}, mat);
    }
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> ux(r, L - r), uv(-1.0, 1.0);
  auto& q = sim.particles();
  while (q.size() < n) {
    const Vec3 x(ux(rng), ux(rng), ux(rng));
    bool free = true;
    for (std::size_t i = 0; i < q.size() && free; ++i)
      free = (q.position[i] - x).squaredNorm() > 4.0 * r * r * 1.0001;
    if (free) {
      q.add_sphere(sim.materials(), mat, x, r, Vec3(uv(rng), uv(rng), uv(rng)));
      q.angular_velocity.back() = Vec3(uv(rng), uv(rng), uv(rng)) / r;
    }
  }
}

// Kinetic plus potential energy −Σ m g·x of the particles.
double energy(const timestep::Simulation& sim) {
  const auto& q = sim.particles();
  double e = q.total_kinetic_energy();
  for (std::size_t i = 0; i < q.size(); ++i)
    e -= q.mass[i] * sim.parameters().gravity.dot(q.position[i]);
  return e;
}

}  // namespace

class GranularGas : public testing::TestWithParam<contact::Model> {};

TEST_P(GranularGas, KineticEnergyNeverIncreases) {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  const double r = 0.01, L = 0.2;  // 20 diameters per side
  fill_gas(sim, 500, r, L);        // volume fraction 500 (4/3)π r³ / L³ ≈ 0.26
  p.gravity = Vec3::Zero();
  p.model.model = GetParam();
  p.max_sweeps = 20;  // also unconverged relaxations must not create energy
  p.tolerance = 1e-6;
  const auto& q = sim.particles();
  double energy = q.total_kinetic_energy();
  const double e0 = energy;
  std::size_t max_contacts = 0;
  for (int s = 0; s < 300; ++s) {
    const auto& st = sim.step();
    max_contacts = std::max(max_contacts, st.contacts);
    // Round-off in summing ~10³ energies: relative 1e-12.
    ASSERT_LE(st.kinetic_energy, energy * (1.0 + 1e-12)) << "step " << s;
    energy = st.kinetic_energy;
  }
  EXPECT_GT(max_contacts, 300u);  // really a dense, colliding gas
  EXPECT_LT(energy, 0.9 * e0);    // and it dissipates
}

INSTANTIATE_TEST_SUITE_P(Models, GranularGas,
                         testing::Values(contact::Model::frictionless, contact::Model::mdp,
                                         contact::Model::mdp_golden, contact::Model::coulomb,
                                         contact::Model::coulomb_approx,
                                         contact::Model::polyhedral),
                         [](const auto& info) {
                           return std::string(contact::model_name(info.param));
                         });

// Stewart–Trinkle Eq. (24): with the step's LCP (29) solved exactly (solver.method lemke), the
// kinetic plus potential energy never increases from one step to the next (their proof holds
// for constant data; here the contact geometry changes, and the claim is checked step by step
// on a smaller gas under gravity, small enough for the dense LCP).
TEST(GranularGasLemke, KineticPlusPotentialEnergyNeverIncreases) {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  fill_gas(sim, 30, 0.01, 0.1);  // volume fraction ≈ 0.13
  p.gravity = Vec3(0.0, 0.0, -9.81);
  p.model.model = contact::Model::polyhedral;
  p.method = solver::Method::lemke;
  double e = energy(sim);
  const double e0 = e;
  std::size_t max_contacts = 0, lemke_pivots = 0;
  for (int s = 0; s < 300; ++s) {
    const auto& st = sim.step();
    max_contacts = std::max(max_contacts, st.contacts);
    const double next = energy(sim);
    // Round-off in summing ~10² energies and in Lemke's checked solution: relative 1e-12.
    ASSERT_LE(next, e + 1e-12 * std::abs(e0)) << "step " << s;
    e = next;
    lemke_pivots += std::size_t(st.sweeps);
  }
  std::printf("%zu contacts at most, %zu pivots in all\n", max_contacts, lemke_pivots);
  EXPECT_GT(max_contacts, 20u);            // a colliding gas
  EXPECT_LT(e, e0 - 0.05 * std::abs(e0));  // that dissipates
}
