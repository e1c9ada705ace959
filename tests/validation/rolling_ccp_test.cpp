// Rolling and spinning resistance in the cone complementarity model (solver/rolling_ccp.hpp),
// with Gauss–Seidel and with APGD, against closed forms. A sphere (r, m, I = 2/5 m r²) on a
// floor; in the joint cone the dual of a torque on its bound lifts the contact (Υ*: y_n = μ_r
// R* ‖w_r‖ + μ_s R* |w_s| when the sliding part sticks), as the CCP lifts a sliding contact.
// - Rolling without slip at v0, step 1: no slip gives the friction impulse F = 5/7 T/r for the
//   torque impulse T = −μ_r r N on its bound, and the lift u_n = μ_r v (R* = r on a wall), so
//   N = m (g dt + μ_r v) and v = v0 + F/m: v = (v0 − 5/7 μ_r g dt)/(1 + 5/7 μ_r²), u_n = μ_r v.
// - Its stop: every impulse acts at the contact point, so I ω_y + m r v_x changes only by the
//   torque impulses, each at most μ_r r N while it rolls. It stops when Σ N = 7/5 m v0/μ_r, and
//   Σ N = m (g t + v_z): so at t_stop = 7 v0/(5 μ_r g) as without the lift, later by at most
//   the last landing's N/(m g) <= dt + μ_r v0/g (the lift is at most μ_r v0).
// - Spinning at ω0, step 1: T = −μ_s r N, N = m (g dt + μ_s r ω), I (ω − ω0) = T, so
//   ω = (I ω0 − μ_s r m g dt)/(I + μ_s² r² m); it stops at 2 r ω0/(5 μ_s g) + [0, dt + μ_s r
//   ω0/g] by the same argument on I ω_z.
// - On an incline with tan θ <= μ_r, rest (y = 0) is feasible in Υ, hence the CCP's solution.
#include "granite/solver/method.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 0.01, kDt = 1e-4, kDensity = 2650.0, kMu = 0.5;

struct Sphere {
  timestep::Simulation sim;
  double m = kDensity * 4.0 / 3.0 * M_PI * kR * kR * kR;
  double I = 0.4 * m * kR * kR;
  Sphere(solver::Method method, double mu_r, double mu_s, const Vec3& gravity) {
    auto& p = sim.parameters();
    p.dt = kDt;
    p.gravity = gravity;
    p.contact_threshold = 1e-3 * kR;
    p.model.model = contact::Model::ccp;
    p.method = method;
    p.tolerance = 1e-13;
    p.max_sweeps = 1000;
    const auto mat = sim.materials().add({kDensity, kMu, 1.0, mu_r, mu_s});
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
    sim.particles().add_sphere(sim.materials(), mat, Vec3(0, 0, kR), kR);
  }
  const Vec3& v() { return sim.particles().velocity[0]; }
  const Vec3& w() { return sim.particles().angular_velocity[0]; }
};

class RollingCcp : public ::testing::TestWithParam<solver::Method> {};

}  // namespace

TEST_P(RollingCcp, ARollingSphereLiftsByMuRVAndStopsAtTheImpulseBalance) {
  const double v0 = 0.5, mu_r = 0.05;
  Sphere s(GetParam(), mu_r, 0.0, Vec3(0, 0, -kG));
  s.sim.particles().velocity[0] = Vec3(v0, 0, 0);
  s.sim.particles().angular_velocity[0] = Vec3(0, v0 / kR, 0);
  s.sim.step();
  const double v1 = (v0 - 5.0 / 7.0 * mu_r * kG * kDt) / (1.0 + 5.0 / 7.0 * mu_r * mu_r);
  EXPECT_NEAR(s.v().x(), v1, 1e-9 * v0);
  EXPECT_NEAR(s.v().z(), mu_r * v1, 1e-9 * v0);
  EXPECT_NEAR(s.w().y() * kR, v1, 1e-9 * v0);
  EXPECT_TRUE(s.sim.statistics().converged);
  const double t_stop = 7.0 * v0 / (5.0 * mu_r * kG), late = kDt + mu_r * v0 / kG;
  int stopped_at = -1;
  for (int k = 2; k <= int((t_stop + late) / kDt) + 100 && stopped_at < 0; ++k) {
    s.sim.step();
    ASSERT_NEAR(s.w().y() * kR, s.v().x(), 1e-9 * v0) << "step " << k;  // never slips
    ASSERT_LE(s.v().z(), mu_r * v0 * (1.0 + 1e-9)) << "step " << k;
    if (s.v().x() <= 1e-12 * v0) stopped_at = k;
  }
  ASSERT_GT(stopped_at, 0);
  EXPECT_GE(stopped_at * kDt, t_stop - kDt);
  EXPECT_LE(stopped_at * kDt, t_stop + late + kDt);
  EXPECT_LT(s.w().norm() * kR, 1e-9 * v0);
}

TEST_P(RollingCcp, ASpinningSphereLiftsByMuSROmegaAndStops) {
  const double w0 = 20.0, mu_s = 0.1;
  Sphere s(GetParam(), 0.0, mu_s, Vec3(0, 0, -kG));
  s.sim.particles().angular_velocity[0] = Vec3(0, 0, w0);
  s.sim.step();
  const double w1 = (s.I * w0 - mu_s * kR * s.m * kG * kDt) / (s.I + mu_s * mu_s * kR * kR * s.m);
  EXPECT_NEAR(s.w().z(), w1, 1e-9 * w0);
  EXPECT_NEAR(s.v().z(), mu_s * kR * w1, 1e-9 * kR * w0);
  const double t_stop = 2.0 * kR * w0 / (5.0 * mu_s * kG), late = kDt + mu_s * kR * w0 / kG;
  int stopped_at = -1;
  for (int k = 2; k <= int((t_stop + late) / kDt) + 100 && stopped_at < 0; ++k) {
    s.sim.step();
    ASSERT_LT(s.v().head<2>().norm(), 1e-9 * kR * w0) << "step " << k;
    if (s.w().z() <= 1e-12 * w0) stopped_at = k;
  }
  ASSERT_GT(stopped_at, 0);
  EXPECT_GE(stopped_at * kDt, t_stop - kDt);
  EXPECT_LE(stopped_at * kDt, t_stop + late + kDt);
}

TEST_P(RollingCcp, OnAnInclineBelowTanThetaMuRItRests) {
  const double mu_r = 0.05, theta = std::atan(0.8 * mu_r);
  Sphere s(GetParam(), mu_r, 0.0, kG * Vec3(std::sin(theta), 0, -std::cos(theta)));
  for (int k = 0; k < 1000; ++k) s.sim.step();
  EXPECT_LT(s.v().norm(), 1e-9);
  EXPECT_LT(s.w().norm() * kR, 1e-9);
  // Above it, it rolls down, slower than without resistance (5/7 g sin θ t).
  const double steep = std::atan(2.0 * mu_r);
  Sphere r(GetParam(), mu_r, 0.0, kG * Vec3(std::sin(steep), 0, -std::cos(steep)));
  for (int k = 0; k < 1000; ++k) r.sim.step();
  EXPECT_GT(r.v().x(), 0.0);
  EXPECT_LT(r.v().x(), 5.0 / 7.0 * kG * std::sin(steep) * 1000 * kDt);
}

INSTANTIATE_TEST_SUITE_P(Methods, RollingCcp,
                         ::testing::Values(solver::Method::gauss_seidel, solver::Method::apgd),
                         [](const auto& info) {
                           return std::string(solver::method_name(info.param));
                         });
