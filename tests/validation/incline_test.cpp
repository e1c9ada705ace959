// A sphere on an inclined plane (gravity tilted by θ instead of the plane). Rigid-body theory:
//  - it rolls without slipping iff tanθ ≤ (7/2)μ, with a = (5/7) g sinθ and ω̇ = a / r;
//  - otherwise it slides with a = g (sinθ − μ cosθ) and ω̇ = 5 μ g cosθ / (2 r).
// (contact.model ccp differs when sliding: see SlidesAboveTheCriticalAngle.)
// The time stepping reproduces these exactly per step (a single contact converges in one or two
// sweeps and the sphere–plane block is diagonal), so after 1000 steps velocity and spin match
// n dt a to round-off; 1e-6 relative leaves room for the solvers' own tolerances.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

using namespace granite;

namespace {

struct InclineCase {
  contact::Model model;
  double mu;
  double theta;  // rad
};

struct Outcome {
  Vec3 v, w, x;
  double z_drift;
};

constexpr double kG = 9.81, kR = 0.01, kDt = 1e-4;
constexpr int kSteps = 1000;

Outcome run(const InclineCase& c) {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = kG * Vec3(std::sin(c.theta), 0.0, -std::cos(c.theta));
  p.contact_threshold = 0.1 * kR;
  p.error_reduction = 0.2;
  p.model.model = c.model;
  p.tolerance = 1e-12;
  p.max_sweeps = 50;
  const auto mat = sim.materials().add({2650.0, c.mu});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  sim.particles().add_sphere(sim.materials(), mat, Vec3(0, 0, kR), kR);
  for (int s = 0; s < kSteps; ++s) {
    const auto& st = sim.step();
    EXPECT_EQ(st.contacts, 1u);
    EXPECT_TRUE(st.converged);
  }
  const auto& q = sim.particles();
  return {q.velocity[0], q.angular_velocity[0], q.position[0], q.position[0].z() - kR};
}

void expect_rel(double value, double expected, double rel, const char* what) {
  EXPECT_NEAR(value, expected, rel * std::abs(expected)) << what;
}

}  // namespace

class Incline : public testing::TestWithParam<contact::Model> {};

TEST_P(Incline, RollsWithoutSlippingBelowTheCriticalAngle) {
  const double mu = 0.3, theta = 25.0 * std::numbers::pi / 180.0;
  ASSERT_LE(std::tan(theta), 3.5 * mu);
  const Outcome o = run({GetParam(), mu, theta});
  const double a = 5.0 / 7.0 * kG * std::sin(theta);
  const double T = kSteps * kDt;
  expect_rel(o.v.x(), a * T, 1e-6, "v_x");
  expect_rel(o.w.y(), a * T / kR, 1e-6, "omega_y");  // rolling: ω_y = v_x / r
  // x_n = dt Σ_k v_k = a dt² n (n + 1) / 2 for the semi-implicit Euler positions.
  expect_rel(o.x.x(), a * kDt * kDt * kSteps * (kSteps + 1) / 2.0, 1e-6, "x");
  EXPECT_NEAR(o.v.z(), 0.0, 1e-9 * a * T);
  EXPECT_NEAR(o.z_drift, 0.0, 1e-9 * kR);
  EXPECT_NEAR(o.v.y(), 0.0, 1e-12);
  EXPECT_NEAR(o.w.x(), 0.0, 1e-9);
  EXPECT_NEAR(o.w.z(), 0.0, 1e-9);
}

// The cone complementarity model (contact.model ccp) relaxes the sliding contact's normal
// condition to Φ/h + u_n = μ‖u_t‖ (Tasora–Anitescu): the sphere rides on a gap. A positive gap
// enters as Φ/h and the position moves by h u_n, so after each step Φ = μ h u_t exactly (u_t
// the slip speed v_x − r ω_y): the gap grows with the slip, the sphere rises at u_n ≈ Φ / T.
// Its upward momentum m u_n is taken from the normal impulse, so the friction impulse μ λ_n —
// and with it v_x and ω_y — differ from Coulomb's by at most u_n / (g cosθ T) relative.
TEST_P(Incline, SlidesAboveTheCriticalAngle) {
  const double mu = 0.1, theta = 30.0 * std::numbers::pi / 180.0;
  ASSERT_GT(std::tan(theta), 3.5 * mu);
  const Outcome o = run({GetParam(), mu, theta});
  const double a = kG * (std::sin(theta) - mu * std::cos(theta));
  const double alpha = 5.0 * mu * kG * std::cos(theta) / (2.0 * kR);
  const double T = kSteps * kDt;
  const bool ccp = GetParam() == contact::Model::ccp;
  const double lift = o.v.z() / (kG * std::cos(theta) * T);
  const double rel = ccp ? 2.0 * lift : 1e-6;
  expect_rel(o.v.x(), a * T, rel, "v_x");
  expect_rel(o.w.y(), alpha * T, rel, "omega_y");
  const double slip = o.v.x() - kR * o.w.y();
  EXPECT_GT(slip, 0.1 * a * T);  // really slipping
  if (ccp) {
    EXPECT_GT(o.v.z(), 0.0);
    expect_rel(o.z_drift, mu * kDt * slip, 1e-6, "gap = mu h u_t (ccp)");
    // The slip grows linearly but for the first steps: u_n = Φ/T to 1e-3.
    expect_rel(o.v.z(), o.z_drift / T, 1e-3, "u_n (ccp)");
    return;
  }
  EXPECT_NEAR(o.v.z(), 0.0, 1e-9 * a * T);
  EXPECT_NEAR(o.z_drift, 0.0, 1e-9 * kR);
}

INSTANTIATE_TEST_SUITE_P(Models, Incline,
                         testing::Values(contact::Model::mdp, contact::Model::coulomb,
                                         contact::Model::ccp),
                         [](const auto& info) {
                           return std::string(contact::model_name(info.param));
                         });
