// Rolling and spinning resistance in runs (solver/rolling.hpp), against the rigid-body closed
// forms, under mdp and coulomb. A sphere (r, m, I = 2/5 m r²) on a floor carries λ_n = m g dt
// per step; its rolling torque impulse is bounded by μ_r r λ_n, its spinning one by μ_s r λ_n.
// - Rolling without slip at v0: the couple μ_r r m g and the friction force F that keeps the
//   contact from slipping give m a = −F, I α = F r − μ_r r m g with a = α r: a = −5/7 μ_r g.
//   Each step's equations are linear, so the discrete velocity falls by exactly 5/7 μ_r g dt per
//   step (to the solver's tolerance, 1e-12) until the step where holding it costs less than
//   the bound: it stops within one step of t = 7 v0/(5 μ_r g), after s = 7 v0²/(10 μ_r g)
//   (within the distance of one step, v0 dt).
// - On an incline of angle θ (gravity tilted): at rest while tan θ <= μ_r (the couple needed,
//   r m g sin θ, is within the bound r μ_r m g cos θ), else rolling at a = 5/7 g (sin θ −
//   μ_r cos θ).
// - Spinning at ω0 about the normal: I dω/dt = −μ_s r m g, it stops at t = 2 r ω0/(5 μ_s g).
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 0.01, kDt = 1e-4, kDensity = 2650.0, kMu = 0.5;

struct Sphere {
  timestep::Simulation sim;
  Sphere(contact::Model model, double mu_r, double mu_s, const Vec3& gravity) {
    auto& p = sim.parameters();
    p.dt = kDt;
    p.gravity = gravity;
    p.contact_threshold = 1e-3 * kR;
    p.model.model = model;
    p.tolerance = 1e-13;
    p.max_sweeps = 200;
    const auto mat = sim.materials().add({kDensity, kMu, 1.0, mu_r, mu_s});
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
    sim.particles().add_sphere(sim.materials(), mat, Vec3(0, 0, kR), kR);
  }
  const Vec3& v() { return sim.particles().velocity[0]; }
  const Vec3& w() { return sim.particles().angular_velocity[0]; }
};

class RollingResistance : public ::testing::TestWithParam<contact::Model> {};

}  // namespace

TEST_P(RollingResistance, ARollingSphereDeceleratesAtFiveSeventhsMuRGAndStops) {
  const double v0 = 0.5, mu_r = 0.05;
  Sphere s(GetParam(), mu_r, 0.0, Vec3(0, 0, -kG));
  s.sim.particles().velocity[0] = Vec3(v0, 0, 0);
  s.sim.particles().angular_velocity[0] = Vec3(0, v0 / kR, 0);
  const double a = 5.0 / 7.0 * mu_r * kG, t_stop = v0 / a;
  int stopped_at = -1;
  for (int k = 1; k <= int(t_stop / kDt) + 200; ++k) {
    s.sim.step();
    const double want = std::max(v0 - a * k * kDt, 0.0);
    ASSERT_NEAR(s.v().x(), want, 1e-9 * v0) << "step " << k;
    ASSERT_NEAR(s.w().y() * kR, s.v().x(), 1e-9 * v0) << "step " << k;  // no slip
    ASSERT_LT(std::abs(s.v().z()), 1e-9 * v0);
    if (stopped_at < 0 && s.v().x() <= 1e-12 * v0) stopped_at = k;
  }
  ASSERT_GT(stopped_at, 0);
  EXPECT_NEAR(stopped_at * kDt, t_stop, kDt);
  EXPECT_NEAR(s.sim.particles().position[0].x(), 0.5 * v0 * t_stop, v0 * kDt);  // 7 v0²/(10 μ_r g)
  EXPECT_LT(s.w().norm() * kR, 1e-12 * v0);
}

TEST_P(RollingResistance, OnAnInclineItRestsUpToTanThetaMuRAndRollsAbove) {
  const double mu_r = 0.05;
  for (const double tan_theta : {0.8 * mu_r, 2.0 * mu_r}) {
    const double theta = std::atan(tan_theta);
    Sphere s(GetParam(), mu_r, 0.0, kG * Vec3(std::sin(theta), 0, -std::cos(theta)));
    const int steps = 2000;
    for (int k = 0; k < steps; ++k) s.sim.step();
    const double a =
        tan_theta <= mu_r ? 0.0 : 5.0 / 7.0 * kG * (std::sin(theta) - mu_r * std::cos(theta));
    EXPECT_NEAR(s.v().x(), a * steps * kDt, 1e-9) << "tan θ " << tan_theta;
    EXPECT_NEAR(s.w().y() * kR, s.v().x(), 1e-9);
  }
}

TEST_P(RollingResistance, ASpinningSphereStopsAtTwoROmegaOverFiveMuSG) {
  const double w0 = 20.0, mu_s = 0.1;
  Sphere s(GetParam(), 0.0, mu_s, Vec3(0, 0, -kG));
  s.sim.particles().angular_velocity[0] = Vec3(0, 0, w0);
  const double alpha = 5.0 * mu_s * kG / (2.0 * kR), t_stop = w0 / alpha;
  int stopped_at = -1;
  for (int k = 1; k <= int(t_stop / kDt) + 100; ++k) {
    s.sim.step();
    ASSERT_NEAR(s.w().z(), std::max(w0 - alpha * k * kDt, 0.0), 1e-9 * w0) << "step " << k;
    if (stopped_at < 0 && s.w().z() <= 1e-12 * w0) stopped_at = k;
  }
  EXPECT_NEAR(stopped_at * kDt, t_stop, kDt);
  EXPECT_LT(s.v().norm(), 1e-12);
  EXPECT_LT((s.sim.particles().position[0] - Vec3(0, 0, kR)).head<2>().norm(), 1e-12);
}

TEST_P(RollingResistance, WithoutItASphereRollsOnForever) {
  // The same rolling start without resistance: no torque block, the velocity kept.
  const double v0 = 0.5;
  Sphere s(GetParam(), 0.0, 0.0, Vec3(0, 0, -kG));
  s.sim.particles().velocity[0] = Vec3(v0, 0, 0);
  s.sim.particles().angular_velocity[0] = Vec3(0, v0 / kR, 0);
  for (int k = 0; k < 1000; ++k) s.sim.step();
  EXPECT_NEAR(s.v().x(), v0, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Models, RollingResistance,
                         ::testing::Values(contact::Model::mdp, contact::Model::coulomb),
                         [](const auto& info) {
                           return std::string(contact::model_name(info.param));
                         });
