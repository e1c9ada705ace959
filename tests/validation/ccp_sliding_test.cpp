// The cone complementarity model in a run: a sphere launched sliding (v0, no spin) on a floor.
// Step 1 (derived in tests/unit/contact/ccp_test.cpp, A = diag(1/m, 7/(2m), 7/(2m)),
// b = (g dt, −v0, 0)): x_n = m (g dt + μ v0)/(1 + 7μ²/2), u_t = v0 − 7μ x_n/(2m), and the CCP
// lifts the sphere with u_n = μ u_t > 0, so it makes a ballistic hop of apex u_n²/(2g); the
// Coulomb-type models keep u_n = 0. Every contact impulse acts at the contact point on the
// floor, so the angular momentum about that point, I ω_y + m r v_x, is conserved and both models
// end rolling at v = 5/7 v0, ω_y = v/r.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 0.01, kDt = 1e-4, kV0 = 1.0, kMu = 0.2, kDensity = 2650.0;

struct Trajectory {
  double first_vz;  // v_z after step 1
  double max_lift;  // max z − r over the run
  Vec3 v, w;        // at the end
};

Trajectory slide(contact::Model model) {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.contact_threshold = 1e-3 * kR;
  p.model.model = model;
  p.tolerance = 1e-12;
  p.max_sweeps = 50;
  const auto mat = sim.materials().add({kDensity, kMu});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  sim.particles().add_sphere(sim.materials(), mat, Vec3(0, 0, kR), kR);
  sim.particles().velocity[0] = Vec3(kV0, 0, 0);
  Trajectory t{};
  for (int s = 0; s < 10000; ++s) {  // 1 s: the slip ends after 2 v0/(7 μ g) = 0.15 s
    sim.step();
    if (s == 0) t.first_vz = sim.particles().velocity[0].z();
    t.max_lift = std::max(t.max_lift, sim.particles().position[0].z() - kR);
  }
  t.v = sim.particles().velocity[0];
  t.w = sim.particles().angular_velocity[0];
  return t;
}

}  // namespace

TEST(CcpSliding, HopsOnceThenRollsAtFiveSevenths) {
  const double m = kDensity * 4.0 / 3.0 * M_PI * kR * kR * kR;
  const double xn = m * (kG * kDt + kMu * kV0) / (1.0 + 3.5 * kMu * kMu);
  const double un = kMu * (kV0 - 3.5 * kMu * xn / m);
  const Trajectory ccp = slide(contact::Model::ccp);
  EXPECT_NEAR(ccp.first_vz, un, 1e-9 * un);
  // The discrete apex of semi-implicit Euler differs from u_n²/(2g) by at most u_n dt + g dt².
  const double apex = un * un / (2.0 * kG);
  EXPECT_NEAR(ccp.max_lift, apex, un * kDt + kG * kDt * kDt);
  const Trajectory mdp = slide(contact::Model::mdp);
  EXPECT_LT(mdp.max_lift, 1e-9 * kR);
  for (const Trajectory& t : {ccp, mdp}) {
    EXPECT_NEAR(t.v.x(), 5.0 / 7.0 * kV0, 1e-9 * kV0);
    EXPECT_NEAR(t.w.y() * kR, t.v.x(), 1e-9 * kV0);
  }
}
