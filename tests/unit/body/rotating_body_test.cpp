// Rotation of global bodies (body/prescribed_motion.hpp, body/global_body.hpp): the pose is a
// function of the clock (angle |ω| t, never accumulated), one integrator step moves a body by
// the same motion, and the contact setup gives the wall velocity v + ω × (x − c) at the
// contact's witness point on the wall.
#include "granite/body/particles.hpp"
#include "granite/body/prescribed_motion.hpp"
#include "granite/collision/detection.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_kinematics.hpp"
#include "granite/solver/contact_setup.hpp"
#include "../../support/solver_contact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace granite;

namespace {

void expect_vec(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR((a - b).norm(), 0.0, tol) << "got " << a.transpose() << " expected " << b.transpose();
}

body::PrescribedMotion spin(const Vec3& omega, const Vec3& center) {
  body::PrescribedMotion m;
  m.angular_velocity = omega;
  m.center = center;
  return m;
}

}  // namespace

// A box 1 m off the axis z through (1, 0, 0), turning at 2 rad/s: at t its centre is at the
// angle 2 t on the circle and its orientation is the rotation by 2 t, to rounding, also after
// a million revolutions' worth of time (the angle comes from t, not from summed steps).
TEST(RotatingBody, PoseIsTheRotationByTheAngleOfTheClock) {
  const body::PrescribedMotion m = spin(Vec3(0, 0, 2), Vec3(1, 0, 0));
  EXPECT_TRUE(m.moves());
  EXPECT_TRUE(m.rotates());
  EXPECT_FALSE(m.translates());
  const std::vector<body::Primitive> configured = {
      body::Box{Vec3(2, 0, 0.5), Vec3(0.1, 0.2, 0.3), Quat::Identity()},
      body::HalfSpace{Vec3(1, 0, -1), Vec3(1, 0, 0)}};
  for (const double t : {0.0, 0.75, 3.0, 3.0e6}) {
    std::vector<body::Primitive> parts;
    m.place(configured, t, parts);
    const double a = 2.0 * t;
    const auto& box = std::get<body::Box>(parts[0]);
    expect_vec(box.center, Vec3(1 + std::cos(a), std::sin(a), 0.5), 1e-15 * std::max(1.0, a));
    EXPECT_NEAR(box.orientation.angularDistance(Quat(Eigen::AngleAxisd(a, Vec3::UnitZ()))), 0.0,
                1e-15 * std::max(1.0, a));
    const auto& plane = std::get<body::HalfSpace>(parts[1]);
    expect_vec(plane.point, Vec3(1, 0, -1), 1e-15);  // on the axis: stays
    expect_vec(plane.normal, Vec3(std::cos(a), std::sin(a), 0), 1e-15 * std::max(1.0, a));
  }
}

// Rotation combined with a translation d(t): the axis moves with the body.
TEST(RotatingBody, RotationCentreMovesWithTheDisplacement) {
  body::PrescribedMotion m = spin(Vec3(0, 0, 1), Vec3::Zero());
  m.kind = body::PrescribedMotion::Kind::table;
  m.times = {0.0};
  m.velocities = {Vec3(0.5, 0, 0)};  // d(t) = (0.5 t, 0, 0)
  std::vector<body::Primitive> parts;
  m.place({body::Cylinder{Vec3(0, 1, 0), Vec3::UnitX(), 0.1, 0.2}}, 2.0, parts);
  const auto& c = std::get<body::Cylinder>(parts[0]);
  expect_vec(c.center, Vec3(1.0 - std::sin(2.0), std::cos(2.0), 0), 1e-15);
  expect_vec(c.axis, Vec3(std::cos(2.0), std::sin(2.0), 0), 1e-15);
}

// The integrator's step (GlobalBodies::advance) turns a body by |ω| dt about its centre and
// carries the centre along: 1000 steps equal the pose of the clock to rounding.
TEST(RotatingBody, AdvanceFollowsThePrescribedPose) {
  body::GlobalBodies globals;
  body::GlobalBody b;
  b.parts = {body::Box{Vec3(2, 0, 0.5), Vec3(0.1, 0.2, 0.3), Quat::Identity()}};
  b.angular_velocity = Vec3(0, 0, 2);
  b.rotation_center = Vec3(1, 0, 0);
  b.velocity = Vec3(0, 0, 0.1);
  globals.add(b);
  const double dt = 1e-3;
  for (int k = 0; k < 1000; ++k) globals.advance(dt);
  body::PrescribedMotion m = spin(Vec3(0, 0, 2), Vec3(1, 0, 0));
  m.kind = body::PrescribedMotion::Kind::table;
  m.times = {0.0};
  m.velocities = {Vec3(0, 0, 0.1)};
  std::vector<body::Primitive> exact;
  m.place(b.parts, 1.0, exact);
  expect_vec(std::get<body::Box>(globals[0].parts[0]).center, std::get<body::Box>(exact[0]).center,
             1e-12);
  expect_vec(globals[0].rotation_center, Vec3(1, 0, 0.1), 1e-14);
}

// A sphere at rest at the bottom of a drum (axis y through c) that turns at ω: the contact's
// predicted relative velocity is the sphere's (zero) minus the wall's, ω × (x_w − c) with x_w
// the witness point on the wall; the bottom of a drum of radius R moves at ω R along x.
TEST(RotatingBody, ContactSeesTheWallVelocityAtItsWitnessPoint) {
  body::MaterialTable materials;
  const auto m = materials.add({2500.0, 0.5});
  body::Particles particles;
  const Vec3 c(0.3, -0.2, 0.1);
  const double R = 0.05, r = 0.005;
  particles.add_sphere(materials, m, c + Vec3(0.001, 0, -(R - r)), r);
  body::GlobalBodies globals;
  body::GlobalBody drum;
  drum.parts = {body::Cylinder{c, Vec3::UnitY(), R, 0.02, true}};
  drum.angular_velocity = Vec3(0, 3.0, 0);
  drum.rotation_center = c;
  drum.velocity = Vec3(0.01, 0, 0);
  drum.material = m;
  globals.add(drum);
  const auto [contacts, states, setup] =
      test_support::set_up_scene(particles, globals, materials, body::ShapeTable{}, 0.0);
  ASSERT_EQ(contacts.size(), 1u);
  const Vec3 x_w = contacts.witness2(0);
  const Vec3 wall = drum.velocity + drum.angular_velocity.cross(x_w - c);
  expect_vec(solver::predicted_velocity(setup[0], states[0], states[1]), -wall, 1e-15);
  // Near the bottom (x_w − c ≈ −R e_z, 1.3° off): ω × (−R e_z) = −ω R e_x, plus v.
  EXPECT_NEAR(wall.x(), 0.01 - 3.0 * R, 1e-4);
  EXPECT_NEAR((x_w - c).norm(), R, 1e-15);
}
