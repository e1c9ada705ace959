// The compatible pass after a real plain step: a sphere touching a floor and the two faces of a
// 45° V-groove (three half-spaces, Simulation's detection and contact setup), relaxed by
// frictionless Gauss–Seidel in two contact orders. The plain impulses depend on the order
// (floor first: the floor carries everything); the compatible impulses do not and equal the
// hand-derived Hooke split (compatible_forces_test.cpp, V-groove: with equal stiffnesses
// f_F = W/2, f_S = W/(2√2), W = m g Δt the step's weight impulse).
#include "granite/solver/compatible_forces.hpp"
#include "granite/solver/relaxation.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace granite;

namespace {

struct Step {
  std::vector<solver::SolverContact> contacts;
  std::vector<solver::BodyState> states;
  double weight_impulse = 0.0;
};

Step groove_step() {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = 1e-3;
  p.gravity = Vec3(0.0, 0.0, -9.81);
  p.contact_threshold = 1e-6;
  const auto mat = sim.materials().add({2500.0, 0.0});
  const double r = 0.01, s = std::sqrt(0.5);
  const Vec3 centre(0.0, 0.0, r);
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  for (double side : {1.0, -1.0}) {  // plane n·x = n·centre − r touches the sphere
    const Vec3 n(side * s, 0.0, s);
    sim.globals().add(body::HalfSpace{(n.dot(centre) - r) * n, n}, mat);
  }
  sim.particles().add_sphere(sim.materials(), mat, centre, r);
  Step step;
  step.weight_impulse = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r * 9.81 * p.dt;
  sim.set_contact_problem_observer([&](const auto& contacts, const auto& states) {
    step.contacts = contacts;
    step.states = states;
  });
  sim.step();
  return step;
}

// Relaxes the step with the floor contact (normal e_z) first or last; returns the normal
// impulses in the order floor, side +x, side −x, and leaves the corrections in `states`.
Eigen::VectorXd relax_in_order(const Step& step, bool floor_first,
                               std::vector<solver::SolverContact>& ordered,
                               std::vector<solver::BodyState>& states) {
  ordered = step.contacts;
  std::sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) {
    const auto key = [&](const solver::SolverContact& c) {
      const double z = c.normal.z(), x = c.normal.x();
      return z > 0.99 ? (floor_first ? 0 : 3) : (x > 0 ? 1 : 2);
    };
    return key(a) < key(b);
  });
  states = step.states;
  std::vector<Vec3> impulses(ordered.size(), Vec3::Zero());
  solver::RelaxationSettings settings;
  settings.model.model = contact::Model::frictionless;
  settings.max_sweeps = 10000;
  settings.tolerance = 1e-14;
  solver::relax(settings, ordered, impulses, states);
  Eigen::VectorXd f(3);
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    const Vec3 n = ordered[i].normal;
    f[n.z() > 0.99 ? 0 : (n.x() > 0 ? 1 : 2)] = impulses[i].x();
  }
  return f;
}

TEST(CompatibleAfterGaussSeidel, RemovesTheContactOrderDependence) {
  const Step step = groove_step();
  ASSERT_EQ(step.contacts.size(), 3u);
  const double W = step.weight_impulse;
  const Eigen::Vector3d expected(W / 2, W / (2 * std::sqrt(2.0)), W / (2 * std::sqrt(2.0)));
  Eigen::VectorXd plain[2], compatible[2];
  for (bool floor_first : {true, false}) {
    std::vector<solver::SolverContact> ordered;
    std::vector<solver::BodyState> states;
    plain[floor_first] = relax_in_order(step, floor_first, ordered, states);
    Eigen::VectorXd f;  // in the ordered list's order
    solver::CompatibleSettings settings;
    settings.tolerance = 1e-11;
    const auto result = solver::compatible_impulses(ordered, states, solver::ContactLaw::hooke,
                                                    Eigen::VectorXd::Ones(3), settings, f);
    ASSERT_TRUE(result.converged()) << to_string(result.status);
    compatible[floor_first].resize(3);
    for (std::size_t i = 0; i < ordered.size(); ++i) {
      const Vec3 n = ordered[i].normal;
      compatible[floor_first][n.z() > 0.99 ? 0 : (n.x() > 0 ? 1 : 2)] = f[Eigen::Index(i)];
    }
    // Velocities come out of the plain step at rest (the sphere is supported); the compatible
    // impulses have the same net effect, to the solver's tolerance: Bᵀf = F̃.
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(compatible[floor_first][k], expected[k], 1e-8 * W) << "contact " << k;
  }
  // Floor first: the floor takes the whole weight; floor last: the sides take most of it.
  EXPECT_NEAR(plain[1][0], W, 1e-9 * W);
  EXPECT_GT(std::fabs(plain[1][0] - plain[0][0]), 0.1 * W);
}

// Per-contact stiffness from the materials: two unit-radius spheres of E₀ = 1 and E₁ = 5 side
// by side on a floor of E₁ (contacts: sphere 0–floor, sphere 1–floor, sphere 1–sphere 0).
// Hooke (1/E_a + 1/E_b)⁻¹: floor–E₀ 5/6, floor–E₁ 5/2, E₀–E₁ 5/6. Hertz ×(4/3)√R*: R* = 1 on
// the floor, 1/2 between the spheres.
TEST(CompatibleStiffness, PerContactFromTheMaterials) {
  timestep::Simulation sim;
  sim.parameters().dt = 1e-3;
  sim.parameters().contact_threshold = 1e-6;
  const auto soft = sim.materials().add({1000.0, 0.0});
  const auto stiff = sim.materials().add({1000.0, 0.0});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, stiff);
  sim.particles().add_sphere(sim.materials(), soft, Vec3(0.0, 0.0, 1.0), 1.0);
  sim.particles().add_sphere(sim.materials(), stiff, Vec3(2.0, 0.0, 1.0), 1.0);
  sim.step();
  const auto& contacts = sim.contacts();
  ASSERT_EQ(contacts.size(), 3u);
  const std::vector<double> youngs{1.0, 5.0};
  const Eigen::VectorXd hooke = solver::relative_stiffness(
      solver::ContactLaw::hooke, contacts, sim.particles(), sim.shapes(), sim.globals(), youngs);
  const Eigen::VectorXd hertz = solver::relative_stiffness(
      solver::ContactLaw::hertz, contacts, sim.particles(), sim.shapes(), sim.globals(), youngs);
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const bool wall = contacts.involves_global(j);
    const bool has_soft = contacts.body1[j] == 0 || (!wall && contacts.body2[j] == 0);
    const double expected_hooke = has_soft ? 5.0 / 6.0 : 5.0 / 2.0;
    const double radius = wall ? 1.0 : 0.5;
    EXPECT_DOUBLE_EQ(hooke[Eigen::Index(j)], expected_hooke) << "contact " << j;
    EXPECT_DOUBLE_EQ(hertz[Eigen::Index(j)], 4.0 / 3.0 * expected_hooke * std::sqrt(radius))
        << "contact " << j;
  }
}

}  // namespace
