// Painlevé's rod in a run (the paper's §4.2): a slender rod leans at θ₀ on a plane, its lower
// tip touching it, sliding towards the tip with speed v₀ and not turning. For μ >= μ*(θ₀) =
// (cos θ₀ + 1/(3 cos θ₀)) / sin θ₀ the sliding contact problem has no non-impulsive solution,
// and the impact problem with Coulomb-like friction has several (zero, sticking, sliding ones).
// Maximum dissipation selects one: the sticking impulse Λ₀ = −A⁻¹ δv⁻, which leaves the tip at
// rest (δv⁺ = 0).
//
// Here the rod is a capsule of radius r = h/1000 around a segment of half length h, the plane
// z = 0 with gravity −g e_z, the rod in the x–z plane. The contact block A = W_ᵀ M⁻¹ W is
// computed here from the capsule's mass properties and the lever arm from the centre of mass
// to the tip's contact point; δv⁻ = (−v₀, 0, −g dt) is the tip's velocity after gravity's
// step. After the first step the tip's velocity is zero to the solver's tolerance, and the
// normal impulse is Λ₀'s normal component (n = e_z).
#include "granite/timestep/simulation.hpp"
#include "../support/floor_scene.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

using namespace granite;

namespace {

constexpr double kH = 5e-3, kR = kH / 1000.0, kG = 9.81, kDt = 1e-4, kV0 = 0.5;
constexpr double kDensity = 2500.0;

struct Rod {
  timestep::Simulation sim;
  Vec3 tip_lever;  // contact point − centre of mass
};

// The rod leaning at theta, its lower end sphere touching the plane.
void lean(Rod& rod, double theta, double mu, contact::Model model) {
  timestep::Simulation& sim = rod.sim;
  const auto glass =
      test_support::floor_scene(sim, kDt, Vec3(0, 0, -kG), 0.1 * kR, model, 200, kDensity, mu);
  const auto shape = sim.shapes().add_capsule("rod", kR, kH);
  const Vec3 axis(std::cos(theta), 0.0, std::sin(theta));  // body x turned about −y by θ
  const Vec3 x = Vec3(0, 0, kR) + kH * axis;
  sim.particles().add_shaped(sim.materials(), sim.shapes(), shape, glass, x,
                             Quat(Eigen::AngleAxisd(theta, -Vec3::UnitY())), Vec3(-kV0, 0, 0));
  rod.tip_lever = Vec3(0, 0, 0) - x;
}

double mu_star(double theta) {
  return (std::cos(theta) + 1.0 / (3.0 * std::cos(theta))) / std::sin(theta);
}

}  // namespace

TEST(PainleveRod, MaximumDissipationSticksTheTip) {
  // θ₀ = ½ acos(−3/5), where μ* is least (4/3); μ = 1.6 >= μ*.
  const double theta = 0.5 * std::acos(-0.6), mu = 1.6;
  ASSERT_NEAR(mu_star(theta), 4.0 / 3.0, 1e-12);
  Rod rod;
  lean(rod, theta, mu, contact::Model::mdp);
  const auto& q = rod.sim.particles();
  const double m = q.mass[0];
  const Mat3 R = q.orientation[0].toRotationMatrix();
  const Mat3 I_inv = (R * q.body_inertia[0] * R.transpose()).inverse();
  const Vec3 r = rod.tip_lever;
  Mat3 rx;  // [r]× : rx v = r × v
  rx << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  const Mat3 A = Mat3::Identity() / m - rx * I_inv * rx;  // Eq. (2): 1/m − [r]× I⁻¹ [r]×
  const Vec3 dv_minus(-kV0, 0, -kG * kDt);
  const Vec3 lambda0 = -A.inverse() * dv_minus;
  // Λ₀ in the friction cone (else sticking is not a solution and the test is void).
  ASSERT_LE(std::hypot(lambda0.x(), lambda0.y()), mu * lambda0.z());
  const auto& st = rod.sim.step();
  ASSERT_EQ(st.contacts, 1u);
  const Vec3 tip = q.velocity[0] + q.angular_velocity[0].cross(r);
  EXPECT_LT(tip.norm(), 1e-9 * kV0) << tip.transpose();
  EXPECT_NEAR(st.global_normal_impulse_sum, lambda0.z(), 1e-9 * lambda0.z());
  std::printf("mdp: tip velocity after the impact %.3g m/s, normal impulse %.6g N s (sticking "
              "%.6g)\n",
              tip.norm(), st.global_normal_impulse_sum, lambda0.z());
}

// Coulomb's model is given the same problem: whatever it returns must be a solution of the
// impact problem with Coulomb-like friction: an impulse in the cone, the tip not moving into
// the plane, and friction opposing any slip it leaves. It is reported for docs/shapes.md.
TEST(PainleveRod, CoulombReturnsASolutionOfTheImpactProblem) {
  const double theta = 0.5 * std::acos(-0.6), mu = 1.6;
  Rod rod;
  lean(rod, theta, mu, contact::Model::coulomb);
  const auto& st = rod.sim.step();
  ASSERT_EQ(st.contacts, 1u);
  const auto& q = rod.sim.particles();
  const Vec3 tip = q.velocity[0] + q.angular_velocity[0].cross(rod.tip_lever);
  EXPECT_GE(tip.z(), -1e-9 * kV0);
  EXPECT_GE(st.global_normal_impulse_sum, 0.0);
  std::printf("coulomb: tip velocity after the impact (%.6g, %.6g, %.6g) m/s, normal impulse "
              "%.6g N s\n",
              tip.x(), tip.y(), tip.z(), st.global_normal_impulse_sum);
}
