// Elongated bodies lying on a plane under gravity, on two contacts: a dimer (a rigid union of
// two equal spheres of radius r at ±a on its x axis, 0 < a < r, so they overlap) and a capsule
// (radius r around a segment from −h to +h on x; two end contacts). Rigid-body theory, with
// closed-form mass properties:
//  - the dimer's written out here, independently of body/sphere_union.hpp: the union is twice
//    the part of the sphere at +a with x ≥ 0, so per unit density
//    V = 2π ∫_{−a}^{r} (r² − u²) du = 2π (2r³/3 + r²a − a³/3) and, from disks of radius
//    ρ² = r² − u², I_xx = ∫ ½ρ² dV = π ∫_{−a}^{r} (r² − u²)² du = π (8r⁵/15 + r⁴a − 2r²a³/3 + a⁵/5);
//  - the capsule's from body::capsule_mass_properties (checked against disk slicing in
//    CapsuleMass);
// and:
//  - at rest the two contacts carry the weight, m g dt per step in all;
//  - pushed along its axis the body slides level (friction's pitching moment μ m g r is taken by
//    the normal forces as long as μ r < a, resp. h) and stops after v₀² / (2 μ g);
//  - pushed across its axis it rolls about that axis once u − r ω_x = 0: friction changes
//    m u and I_xx ω_x at rates in the ratio m r² / I_xx, so rolling starts at
//    v = v₀ / (1 + I_xx / (m r²)).
// The contacts' lever arms are off the body's centre along its axis, so their Delassus blocks
// are anisotropic: the general block and, for mdp, the general branch. Where a tilted dimer
// slides obliquely on one part, the two friction models part ways
// (TiltedDimerSlidingOnOnePart...).
#include "granite/timestep/simulation.hpp"
#include "../support/floor_scene.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <tuple>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 1e-3, kDt = 1e-4, kDensity = 2500.0;
constexpr double kA = 0.6e-3;  // the dimer's parts at ±a
constexpr double kH = 3e-3;    // the capsule's half length
constexpr double kPi = std::numbers::pi;

enum class Kind { dimer, capsule };

// Per unit density: the body's volume and its inertia about its axis.
double volume(Kind kind) {
  if (kind == Kind::capsule) return body::capsule_mass_properties(kR, kH).volume;
  return 2.0 * kPi * (2.0 * kR * kR * kR / 3.0 + kR * kR * kA - kA * kA * kA / 3.0);
}
double inertia_xx(Kind kind) {
  if (kind == Kind::capsule) return body::capsule_mass_properties(kR, kH).inertia(0, 0);
  const double r2 = kR * kR, a2 = kA * kA;
  return kPi *
         (8.0 * r2 * r2 * kR / 15.0 + r2 * r2 * kA - 2.0 * r2 * a2 * kA / 3.0 + a2 * a2 * kA / 5.0);
}

// The body lying along x on the plane z = 0, touching it.
timestep::Simulation on_plane(Kind kind, contact::Model model, double mu, const Vec3& velocity) {
  timestep::Simulation sim;
  const auto glass =
      test_support::floor_scene(sim, kDt, Vec3(0, 0, -kG), 0.1 * kR, model, 200, kDensity, mu);
  const auto shape =
      kind == Kind::capsule
          ? sim.shapes().add_capsule("rod", kR, kH)
          : sim.shapes().add_clump("dimer", {{kR, Vec3(-kA, 0, 0)}, {kR, Vec3(kA, 0, 0)}});
  sim.particles().add_shaped(sim.materials(), sim.shapes(), shape, glass, Vec3(0, 0, kR),
                             Quat::Identity(), velocity);
  return sim;
}

}  // namespace

class Lying : public testing::TestWithParam<std::tuple<Kind, contact::Model>> {
protected:
  Kind kind() const { return std::get<0>(GetParam()); }
  timestep::Simulation scene(double mu, const Vec3& velocity) const {
    return on_plane(kind(), std::get<1>(GetParam()), mu, velocity);
  }
};

TEST_P(Lying, RestsOnTwoContactsThatCarryItsWeight) {
  timestep::Simulation sim = scene(0.5, Vec3::Zero());
  const double m = sim.particles().mass[0];
  // The mass is the closed form's to the integration's tolerance (1e-6 relative, sphere_union).
  EXPECT_NEAR(m, kDensity * volume(kind()), 1e-5 * m);
  for (int s = 0; s < 100; ++s) {
    const auto& st = sim.step();
    ASSERT_EQ(st.contacts, 2u);
    EXPECT_NEAR(st.global_normal_impulse_sum, m * kG * kDt, 1e-9 * m * kG * kDt);
  }
  const auto& q = sim.particles();
  EXPECT_LT(q.velocity[0].norm(), 1e-12);
  EXPECT_LT(q.angular_velocity[0].norm(), 1e-9);
  EXPECT_NEAR(q.position[0].z(), kR, 1e-15);
}

// Stepping: each step takes μ g dt off the speed exactly (both contacts slide), so the speeds
// are v_k = v₀ − k μ g dt and the distance dt Σ v_k differs from v₀²/(2μg) by less than one
// step's travel v₀ dt.
TEST_P(Lying, PushedAlongItsAxisSlidesLevelAndStops) {
  const double mu = 0.3, v0 = 0.05;
  ASSERT_LT(mu * kR, std::min(kA, kH));
  timestep::Simulation sim = scene(mu, Vec3(v0, 0, 0));
  const double stop = v0 * v0 / (2.0 * mu * kG);
  const int steps = int(1.2 * v0 / (mu * kG * kDt));
  for (int s = 0; s < steps; ++s) ASSERT_EQ(sim.step().contacts, 2u) << "step " << s;
  const auto& q = sim.particles();
  EXPECT_NEAR(q.position[0].x(), stop, v0 * kDt);
  EXPECT_LT(q.velocity[0].norm(), 1e-9 * v0);
  EXPECT_LT(q.angular_velocity[0].norm(), 1e-6 * v0 / kR);
  EXPECT_NEAR(q.position[0].z(), kR, 1e-12 * kR);
  EXPECT_NEAR(q.orientation[0].angularDistance(Quat::Identity()), 0.0, 1e-9);  // level
}

// Rolling starts within one step of the predicted time, so the rolling speed is the
// prediction to within one step's change of the speed, μ g dt.
TEST_P(Lying, PushedAcrossItsAxisGoesFromSlidingToRolling) {
  const double mu = 0.3, v0 = 0.05;
  timestep::Simulation sim = scene(mu, Vec3(0, v0, 0));
  const double v_roll = v0 / (1.0 + inertia_xx(kind()) / (volume(kind()) * kR * kR));
  const int steps = int(2.0 * (v0 - v_roll) / (mu * kG * kDt));  // twice the sliding time
  for (int s = 0; s < steps; ++s) ASSERT_EQ(sim.step().contacts, 2u) << "step " << s;
  const auto& q = sim.particles();
  EXPECT_NEAR(q.velocity[0].y(), v_roll, mu * kG * kDt);
  // Rolling about x: u_y = v_y + (ω × (−r ẑ))_y = v_y + r ω_x = 0 at the contacts.
  EXPECT_NEAR(q.velocity[0].y() + kR * q.angular_velocity[0].x(), 0.0, 1e-9 * v0);
  EXPECT_NEAR(q.position[0].z(), kR, 1e-12 * kR);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, Lying,
    testing::Combine(testing::Values(Kind::dimer, Kind::capsule),
                     testing::Values(contact::Model::mdp, contact::Model::coulomb)),
    [](const auto& info) {
      return std::string(std::get<0>(info.param) == Kind::dimer ? "dimer_" : "capsule_") +
             (std::get<1>(info.param) == contact::Model::mdp ? "mdp" : "coulomb");
    });

namespace {

// One step's single contact as the solver sees it: the block A, the relative velocity u0
// before any impulse (contact frame) and, after the step, the impulse λ.
struct SingleContactStep {
  Mat3 A = Mat3::Zero();
  Vec3 u0 = Vec3::Zero(), lambda = Vec3::Zero();
  double mu = 0.0, g = 0.0;  // friction coefficient, gap term (§3.1)
  /// The impulse with tangential part (t, o) on the plane of maximum compression (§3.2), where
  /// the contact leaves with (u0 + Aλ)_n = −g.
  Vec3 on_plane(double t, double o) const {
    return {(-g - u0[0] - A(0, 1) * t - A(0, 2) * o) / A(0, 0), t, o};
  }
};

// A dimer tilted by 30° about y, its lower part on the plane, sliding obliquely to its axis:
// one contact whose lever arm points along the plane. Its first step.
SingleContactStep tilted_dimer_first_step(contact::Model model) {
  timestep::Simulation sim = on_plane(Kind::dimer, model, 0.3, Vec3::Zero());
  sim.parameters().warm_start = 0.0;  // u0 below is the velocity before any impulse
  const double tilt = 30.0 * kPi / 180.0;
  auto& p = sim.particles();
  p.orientation[0] = Quat(Eigen::AngleAxisd(tilt, Vec3::UnitY()));
  p.position[0] = Vec3(0, 0, kR + kA * std::sin(tilt));  // the part at -a rests on the plane
  p.velocity[0] = Vec3(0.3, 0.4, 0.0);
  SingleContactStep out;
  sim.set_contact_problem_observer([&](const auto& contacts, const auto& states) {
    if (contacts.size() != 1) return;
    const solver::SolverContact& c = contacts[0];
    const solver::BodyState& b = states[c.body1];
    out.A = c.A;
    out.u0 = c.frame().transpose() * (b.v + b.w.cross(c.r1));
    out.mu = c.mu;
    out.g = c.gap_term;
  });
  EXPECT_EQ(sim.step().contacts, 1u);
  out.lambda = sim.impulses()[0];
  return out;
}

// The kinetic energy the impulse λ adds (Eq. 2: the velocity changes by A λ): u0ᵀλ + ½ λᵀAλ.
double energy_change(const SingleContactStep& s, const Vec3& lambda) {
  return s.u0.dot(lambda) + 0.5 * lambda.dot(s.A * lambda);
}

}  // namespace

// The same first step with contact.model mdp and coulomb. Maximum dissipation (§3.2): the
// impulse minimises the energy over the conic section, the friction cone |λ_t| <= μ λ_n cut by
// the plane of maximum compression — checked against a dense polar grid of tangential parts
// (mdp's value may not exceed the grid's least by more than rounding, 1e-9 of the energy
// scale). Coulomb's sliding impulse lies on the same plane and on the cone, opposite to the
// slip it leaves, u_t = (u0 + Aλ)_t. The block couples the rows (the lever arm lies along the
// plane), so the two differ: Coulomb's dissipates measurably less, and points elsewhere.
TEST(DimerModels, TiltedDimerSlidingOnOnePartDissipatesMostWithMdp) {
  const SingleContactStep mdp = tilted_dimer_first_step(contact::Model::mdp);
  const SingleContactStep coulomb = tilted_dimer_first_step(contact::Model::coulomb);
  ASSERT_LT((mdp.A - coulomb.A).norm(), 1e-15 * mdp.A.norm());  // the same problem
  ASSERT_GT(std::abs(mdp.A(1, 2)) + std::abs(mdp.A(0, 1)), 1e-2 * mdp.A(1, 1))
      << "the block is isotropic: the models would coincide";
  const double scale = std::abs(energy_change(mdp, mdp.lambda));
  ASSERT_GT(mdp.lambda[0], 0.0);
  for (const SingleContactStep* s : {&mdp, &coulomb}) {  // both leave on the plane, in the cone
    EXPECT_LT((s->on_plane(s->lambda[1], s->lambda[2]) - s->lambda).norm(),
              1e-9 * s->lambda.norm());
    EXPECT_LE(s->lambda.tail<2>().norm(), s->mu * s->lambda[0] * (1.0 + 1e-9));
  }
  // The section lies within |λ_t| <= μ c0 / (1 − μ |a|), c0 = −(g + u0_n)/A_nn, a = A_nt/A_nn.
  const double c0 = -(mdp.g + mdp.u0[0]) / mdp.A(0, 0);
  const double slope = mdp.mu * Eigen::Vector2d(mdp.A(0, 1), mdp.A(0, 2)).norm() / mdp.A(0, 0);
  ASSERT_LT(slope, 1.0);
  const double reach = mdp.mu * c0 / (1.0 - slope);
  double least = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= 600; ++i)
    for (int k = 0; k < 1440; ++k) {
      const double rho = reach * std::sqrt(i / 600.0), phi = 2.0 * kPi * k / 1440.0;
      const Vec3 lambda = mdp.on_plane(rho * std::cos(phi), rho * std::sin(phi));
      if (rho <= mdp.mu * lambda[0]) least = std::min(least, energy_change(mdp, lambda));
    }
  EXPECT_LE(energy_change(mdp, mdp.lambda), least + 1e-9 * scale);
  // Coulomb: on the rim, opposite to the slip it leaves.
  const Vec3 u1 = coulomb.u0 + coulomb.A * coulomb.lambda;
  const Eigen::Vector2d slip = u1.tail<2>(), friction = coulomb.lambda.tail<2>();
  ASSERT_GT(slip.norm(), 1e-3 * coulomb.u0.tail<2>().norm()) << "it sticks: not a sliding test";
  EXPECT_NEAR(friction.norm(), coulomb.mu * coulomb.lambda[0], 1e-9 * friction.norm());
  EXPECT_LT((friction.normalized() + slip.normalized()).norm(), 1e-6);
  // They part ways: Coulomb's impulse dissipates less, and points elsewhere.
  const double gain = energy_change(coulomb, coulomb.lambda) - energy_change(mdp, mdp.lambda);
  EXPECT_GT(gain, 1e-4 * scale);
  const Eigen::Vector2d mdp_friction = mdp.lambda.tail<2>();
  const double angle =
      std::acos(std::clamp(mdp_friction.normalized().dot(friction.normalized()), -1.0, 1.0));
  EXPECT_GT(angle, 1.0 * kPi / 180.0);
  std::printf("  tilted dimer: mdp and coulomb friction directions differ by %.2f deg; coulomb "
              "dissipates %.3g J less (%.2g of the step's %.3g J)\n",
              angle * 180.0 / kPi, gain, gain / scale, scale);
}
