// The compatible pass inside Simulation::step() (parameters().compatible): the 45° V-groove
// with a floor matches the hand-derived Hooke and Hertz forces whatever order the plain
// Gauss–Seidel visits the contacts in; on a small pile every pass keeps Bᵀf equal to the plain
// net contact force, f ≥ 0, and leaves velocities and positions bit for bit those of the run
// without the pass; an isostatic column keeps its (unique) plain forces.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace granite;

namespace {

constexpr double kDensity = 2500.0, kRadius = 0.01, kDt = 1e-3, kG = 9.81;

void frictionless_parameters(timestep::Parameters& p, solver::ContactLaw law) {
  p.dt = kDt;
  p.gravity = Vec3(0.0, 0.0, -kG);
  p.contact_threshold = 1e-6;
  p.model.model = contact::Model::frictionless;
  p.max_sweeps = 100000;
  p.tolerance = 1e-15;
  p.convergence = solver::Convergence::impulse_change;
  p.compatible = law;
  p.compatible_settings.tolerance = 1e-11;
}

struct Groove {
  double plain[3]{}, compatible[3]{};  // floor, side +x, side −x
  double weight = 0.0;                 // m g Δt
};

// A sphere (E = 1) touching a floor (E = E_floor) and the faces of a 45° V-groove (E = 1):
// one step. `ordering` gravity visits the floor contact (the lowest) first.
Groove groove(solver::ContactLaw law, solver::Ordering ordering, double floor_modulus) {
  timestep::Simulation sim;
  frictionless_parameters(sim.parameters(), law);
  sim.parameters().ordering = ordering;
  const auto sphere = sim.materials().add({kDensity, 0.0, 1.0});
  const auto sides = sim.materials().add({kDensity, 0.0, 1.0});
  const auto floor = sim.materials().add({kDensity, 0.0, floor_modulus});
  const double s = std::sqrt(0.5);
  const Vec3 centre(0.0, 0.0, kRadius);
  for (double side : {1.0, -1.0}) {  // n·x = n·centre − r touches the sphere
    const Vec3 n(side * s, 0.0, s);
    sim.globals().add(body::HalfSpace{(n.dot(centre) - kRadius) * n, n}, sides);
  }
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, floor);  // global 2
  sim.particles().add_sphere(sim.materials(), sphere, centre, kRadius);
  sim.step();
  Groove g;
  g.weight = sim.particles().mass[0] * kG * kDt;
  const auto& c = sim.contacts();
  EXPECT_EQ(c.size(), 3u);
  EXPECT_TRUE(sim.statistics().compatible);
  EXPECT_TRUE(sim.statistics().compatible_converged);
  for (std::size_t j = 0; j < c.size(); ++j) {
    const std::size_t k = c.global_index(j) == 2 ? 0 : c.global_index(j) + 1;
    g.plain[k] = sim.impulses()[j][0];
    g.compatible[k] = sim.compatible_impulses()[j];
  }
  return g;
}

// Hand derivation (small displacements, docs/compatible_forces.md): the sphere sinks by δ;
// the floor overlaps by δ, each face by δ cos 45° = δ/√2; balance f_F + 2 f_S/√2 = W.
// Stiffness (1/E_a + 1/E_b)⁻¹: k_F = E_F/(1 + E_F), k_S = 1/2 (Hertz: both × (4/3)√r, a common
// factor, since both walls are flat).
//   Hooke: f = k c → f_F = W k_F/(k_F + k_S), f_S = W k_S/(√2 (k_F + k_S)).
//   Hertz: f = k c^{3/2} → f_F = W k_F/D, f_S = W 2^{−3/4} k_S/D, D = k_F + 2^{−1/4} k_S.
void expect_hand_derived(const Groove& g, solver::ContactLaw law, double floor_modulus) {
  const double kF = floor_modulus / (1.0 + floor_modulus), kS = 0.5, W = g.weight;
  double fF = 0.0, fS = 0.0;
  if (law == solver::ContactLaw::hooke) {
    fF = W * kF / (kF + kS);
    fS = W * kS / (std::sqrt(2.0) * (kF + kS));
  } else {
    const double D = kF + std::pow(2.0, -0.25) * kS;
    fF = W * kF / D;
    fS = W * std::pow(2.0, -0.75) * kS / D;
  }
  EXPECT_NEAR(g.compatible[0], fF, 1e-8 * W);
  EXPECT_NEAR(g.compatible[1], fS, 1e-8 * W);
  EXPECT_NEAR(g.compatible[2], fS, 1e-8 * W);
}

TEST(CompatibleRun, VGrooveMatchesTheHandDerivedForcesInAnyContactOrder) {
  for (const auto law : {solver::ContactLaw::hooke, solver::ContactLaw::hertz})
    for (const double floor_modulus : {1.0, 3.0}) {
      SCOPED_TRACE(std::string(law == solver::ContactLaw::hooke ? "hooke" : "hertz") +
                   ", E_floor " + std::to_string(floor_modulus));
      const Groove floor_first = groove(law, solver::Ordering::gravity, floor_modulus);
      const Groove floor_last = groove(law, solver::Ordering::detection, floor_modulus);
      // The plain answer depends on the order: floor first, the floor takes the whole weight.
      EXPECT_NEAR(floor_first.plain[0], floor_first.weight, 1e-9 * floor_first.weight);
      EXPECT_LT(floor_last.plain[0], 0.9 * floor_last.weight);
      expect_hand_derived(floor_first, law, floor_modulus);
      expect_hand_derived(floor_last, law, floor_modulus);
    }
}

// A 2 × 2 layer resting on the floor and touching the four walls of a box and each other, and
// a fifth sphere dropped slightly off-centre onto its hollow (it lands on two of the four and
// rolls towards the others), hyperstatic throughout the 40 steps.
void pile(timestep::Simulation& sim, bool compatible) {
  frictionless_parameters(sim.parameters(), solver::ContactLaw::hooke);
  sim.parameters().max_sweeps = 2000;
  sim.parameters().tolerance = 1e-12;
  sim.parameters().compatible_settings.tolerance = 1e-10;
  if (!compatible) sim.parameters().compatible.reset();
  const auto wall = sim.materials().add({kDensity, 0.0, 2.0});
  const auto grain = sim.materials().add({kDensity, 0.0, 1.0});
  const double r = kRadius;
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, wall);
  for (int axis = 0; axis < 2; ++axis)
    for (double side : {-1.0, 1.0}) {
      Vec3 n = Vec3::Zero();
      n[axis] = -side;
      sim.globals().add(body::HalfSpace{side * 2.0 * r * Vec3::Unit(axis), n}, wall);
    }
  BodyId id = 0;
  for (double x : {-1.0, 1.0})
    for (double y : {-1.0, 1.0})
      sim.particles().add_sphere(sim.materials(), grain, Vec3(x * r, y * r, r), r, Vec3::Zero(),
                                 id++);
  sim.particles().add_sphere(sim.materials(), grain,
                             Vec3(0.1 * r, 0.0, (1.0 + std::sqrt(2.0) + 0.05) * r), r, Vec3::Zero(),
                             id++);
}

// Bᵀf per particle: force and moment about the centre (contact points on the surfaces).
std::map<std::size_t, Eigen::Matrix<double, 6, 1>>
net(const timestep::Simulation& sim, const std::function<double(std::size_t)>& f) {
  std::map<std::size_t, Eigen::Matrix<double, 6, 1>> out;
  const auto& c = sim.contacts();
  const auto& p = sim.particles();
  const auto add = [&](std::size_t b, const Vec3& point, const Vec3& force) {
    auto& row = out.try_emplace(b, Eigen::Matrix<double, 6, 1>::Zero()).first->second;
    row.head<3>() += force;
    row.tail<3>() += (point - p.position[b]).cross(force) / p.radius[b];  // as the operator's rows
  };
  for (std::size_t j = 0; j < c.size(); ++j) {
    add(c.body1[j], c.witness1(j), f(j) * c.normal[j]);
    if (!c.involves_global(j)) add(c.body2[j], c.witness2(j), -f(j) * c.normal[j]);
  }
  return out;
}

TEST(CompatibleRun, PileInvariantsAndUnchangedMotion) {
  timestep::Simulation with, without;
  pile(with, true);
  pile(without, false);
  int hyperstatic_steps = 0;
  for (int step = 0; step < 40; ++step) {
    with.step();
    without.step();
    // The pass changes neither velocities nor positions: bit for bit the plain run.
    ASSERT_EQ(with.particles().position, without.particles().position) << "step " << step;
    ASSERT_EQ(with.particles().velocity, without.particles().velocity) << "step " << step;
    ASSERT_EQ(with.particles().angular_velocity, without.particles().angular_velocity);
    ASSERT_TRUE(with.statistics().compatible);
    ASSERT_TRUE(with.statistics().compatible_converged) << "step " << step;
    const auto& f = with.compatible_impulses();
    ASSERT_EQ(f.size(), with.contacts().size());
    for (double fi : f) EXPECT_GE(fi, 0.0);
    // Bᵀf = F̃ = Bᵀ f_plain: the pass stops at ‖Bᵀf − F̃‖∞ ≤ 1e-10 ‖F̃‖∞ (F̃ = M dv, which is
    // Bᵀ f_plain up to rounding); 1e-9 leaves room for that rounding.
    const auto compatible = net(with, [&](std::size_t j) { return f[j]; });
    const auto plain = net(with, [&](std::size_t j) { return with.impulses()[j][0]; });
    double scale = 0.0;
    for (const auto& [b, row] : plain) scale = std::max(scale, row.cwiseAbs().maxCoeff());
    for (const auto& [b, row] : plain)
      EXPECT_LE((compatible.at(b) - row).cwiseAbs().maxCoeff(), 1e-9 * scale)
          << "step " << step << " body " << b;
    // The layer alone has 16 contacts on 4 spheres (12 force rows): hyperstatic throughout.
    hyperstatic_steps += with.contacts().size() >= 18 ? 1 : 0;
  }
  EXPECT_EQ(hyperstatic_steps, 40);
}

// Three spheres stacked on a floor: one contact per support, so the forces are unique, (3, 2,
// 1) weights from the bottom, and the pass returns them unchanged.
TEST(CompatibleRun, IsostaticColumnIsUnchanged) {
  for (const auto law : {solver::ContactLaw::hooke, solver::ContactLaw::hertz}) {
    timestep::Simulation sim;
    frictionless_parameters(sim.parameters(), law);
    const auto m = sim.materials().add({kDensity, 0.0, 1.0});
    const auto stiff = sim.materials().add({kDensity, 0.0, 7.0});
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, stiff);
    for (int k = 0; k < 3; ++k)
      sim.particles().add_sphere(sim.materials(), k == 1 ? stiff : m,
                                 Vec3(0.0, 0.0, (2 * k + 1) * kRadius), kRadius, Vec3::Zero(),
                                 BodyId(k));
    sim.step();
    const double W = sim.particles().mass[0] * kG * kDt;
    ASSERT_EQ(sim.contacts().size(), 3u);
    for (std::size_t j = 0; j < 3; ++j) {
      const double plain = sim.impulses()[j][0];
      EXPECT_NEAR(sim.compatible_impulses()[j], plain, 1e-9 * W);
      const double height = sim.contacts().point[j].z();  // contact k at 2 k r carries 3 − k
      EXPECT_NEAR(plain, (3.0 - std::round(height / (2 * kRadius))) * W, 1e-9 * W);
    }
  }
}

// Refused: a frictional model with a material of friction > 0 (the method is frictionless).
TEST(CompatibleRun, RefusesFriction) {
  timestep::Simulation sim;
  frictionless_parameters(sim.parameters(), solver::ContactLaw::hooke);
  sim.parameters().model.model = contact::Model::mdp;
  const auto m = sim.materials().add({kDensity, 0.3, 1.0});
  sim.particles().add_sphere(sim.materials(), m, Vec3(0, 0, 1), kRadius);
  EXPECT_THROW(sim.validate(), InputError);
  sim.parameters().model.model = contact::Model::frictionless;
  EXPECT_NO_THROW(sim.validate());
}

// Only the steps the selector names have a pass; the others report none.
TEST(CompatibleRun, OnlyOnSelectedSteps) {
  timestep::Simulation sim;
  pile(sim, true);
  sim.set_compatible_steps([](std::int64_t step) { return step % 3 == 0; });
  for (int step = 1; step <= 6; ++step) {
    sim.step();
    EXPECT_EQ(sim.statistics().compatible, step % 3 == 0) << step;
    ASSERT_GT(sim.contacts().size(), 0u);
    EXPECT_EQ(sim.compatible_impulses().size(), step % 3 == 0 ? sim.contacts().size() : 0u) << step;
  }
}

}  // namespace
