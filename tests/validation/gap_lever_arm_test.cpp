// A contact detected with an open gap acts on the bodies' surfaces (issue 23 item 2): each body's
// lever arm is measured from its own witness point, not from the middle of the gap.
//
// A sphere (r = 0.1 m, ρ = 1000, μ = 10) thrown at v = (1, 0, −2) m/s onto a floor from
// z = 0.12 m, dt = 0.02 s, contact.threshold = 0.05 m (so the contact is found 2 cm early).
// With μ this large it sticks at impact. The friction and normal impulses act at the floor
// contact point and gravity passes through the centre, so the angular momentum about the
// contact point, m v_x r + I ω_y, is conserved; rolling (v_x = ω_y r) with I = (2/5) m r² gives
// v_x = 5/7 v_x0 = 5/7 m/s and E_kin = ½ m v² + ½ I ω² = (7/10) m (5/7)² = 1.49600 J.
// With the lever arm r + ξ/2 of the old mid-gap point it ended at 0.7320 m/s.
// Tolerance 1e-6: a single contact converges to 1e-12 in a few sweeps, so the result is exact
// to round-off per step; the vertical velocity at rest is below 1e-9 m/s.
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <numbers>

using namespace granite;

TEST(GapLeverArm, SphereThrownOntoTheFloorEndsRollingAtFiveSevenths) {
  constexpr double r = 0.1, rho = 1000.0, dt = 0.02;
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = dt;
  p.gravity = Vec3(0, 0, -9.81);
  p.contact_threshold = 0.05;
  p.tolerance = 1e-12;
  p.max_sweeps = 100;
  const auto mat = sim.materials().add({rho, 10.0});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  sim.particles().add_sphere(sim.materials(), mat, Vec3(0, 0, 0.12), r);
  sim.particles().velocity[0] = Vec3(1.0, 0.0, -2.0);
  for (int s = 0; s < 50; ++s) sim.step();  // 1 s: long at rest on the floor
  const auto& q = sim.particles();
  const double m = rho * 4.0 / 3.0 * std::numbers::pi * r * r * r;
  const double v_roll = 5.0 / 7.0;
  EXPECT_NEAR(q.velocity[0].x(), v_roll, 1e-6);
  EXPECT_NEAR(q.angular_velocity[0].y() * r, v_roll, 1e-6);  // rolling: ω_y r = v_x
  EXPECT_NEAR(q.velocity[0].z(), 0.0, 1e-6);
  const double kinetic = 0.5 * m * q.velocity[0].squaredNorm() +
                         0.5 * (0.4 * m * r * r) * q.angular_velocity[0].squaredNorm();
  EXPECT_NEAR(kinetic, 0.7 * m * v_roll * v_roll, 1e-6);
  EXPECT_NEAR(0.7 * m * v_roll * v_roll, 1.4960, 5e-5);  // the figure quoted in the issue
  EXPECT_NEAR(q.position[0].z(), r, 1e-3);               // resting on the floor
}
