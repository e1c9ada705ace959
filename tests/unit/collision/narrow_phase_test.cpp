// Narrow phase: gap, normal (body 2 -> body 1) and point for every shape pair, against
// hand-computed geometry and against the primitives' signed distance functions.
#include "granite/collision/contact.hpp"
#include "granite/collision/narrow_phase.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace granite;
using namespace granite::collision;

namespace {

constexpr double kTol = 1e-12;

void expect_vec(const Vec3& a, const Vec3& b, double tol = kTol) {
  EXPECT_NEAR((a - b).norm(), 0.0, tol) << "got " << a.transpose() << " expected " << b.transpose();
}

// Gradient of the signed distance by central differences (unit normal away from the solid).
Vec3 sdf_gradient(const body::Primitive& p, const Vec3& x) {
  const double h = 1e-6;
  Vec3 g;
  for (int k = 0; k < 3; ++k) {
    Vec3 e = Vec3::Zero();
    e[k] = h;
    g[k] = (body::signed_distance(p, x + e) - body::signed_distance(p, x - e)) / (2 * h);
  }
  return g;
}

}  // namespace

TEST(NarrowPhase, SphereSphere) {
  ContactGeometry g;
  ASSERT_TRUE(sphere_sphere(Vec3(0, 0, 1.9), 1.0, Vec3(0, 0, 0), 1.0, 0.0, g));
  EXPECT_NEAR(g.gap, -0.1, kTol);
  expect_vec(g.normal, Vec3(0, 0, 1));
  expect_vec(g.point, Vec3(0, 0, 1.0));     // witness on body 2's surface
  expect_vec(g.point1(), Vec3(0, 0, 0.9));  // witness on body 1's surface
  // Unequal radii, open gap: each witness point on its own body's surface.
  ASSERT_TRUE(sphere_sphere(Vec3(3, 0, 0), 0.5, Vec3(0, 0, 0), 2.0, 1.0, g));
  EXPECT_NEAR(g.gap, 0.5, kTol);
  expect_vec(g.normal, Vec3(1, 0, 0));
  expect_vec(g.point, Vec3(2.0, 0, 0));
  expect_vec(g.point1(), Vec3(2.5, 0, 0));
  // Threshold: an open gap of 0.5 is only reported with threshold >= 0.5.
  EXPECT_FALSE(sphere_sphere(Vec3(3, 0, 0), 0.5, Vec3(0, 0, 0), 2.0, 0.4, g));
  // Exactly touching is a contact at threshold 0.
  EXPECT_TRUE(sphere_sphere(Vec3(0, 2, 0), 1.0, Vec3(0, 0, 0), 1.0, 0.0, g));
  EXPECT_NEAR(g.gap, 0.0, kTol);
}

TEST(NarrowPhase, SphereHalfSpace) {
  const body::HalfSpace plane{Vec3(0, 0, 1), Vec3(0, 0, 1)};
  ContactGeometry g;
  ASSERT_TRUE(sphere_half_space(Vec3(5, -2, 1.8), 1.0, plane, 0.0, g));
  EXPECT_NEAR(g.gap, -0.2, kTol);
  expect_vec(g.normal, Vec3(0, 0, 1));
  expect_vec(g.point, Vec3(5, -2, 1.0));
  expect_vec(g.point1(), Vec3(5, -2, 0.8));
  EXPECT_FALSE(sphere_half_space(Vec3(0, 0, 2.5), 1.0, plane, 0.4, g));
  EXPECT_TRUE(sphere_half_space(Vec3(0, 0, 2.3), 1.0, plane, 0.4, g));
  EXPECT_NEAR(g.gap, 0.3, kTol);
  expect_vec(g.point, Vec3(0, 0, 1.0));     // on the plane
  expect_vec(g.point1(), Vec3(0, 0, 1.3));  // on the sphere, not in the middle of the gap
  // Tilted plane.
  const Vec3 n = Vec3(1, 1, 0).normalized();
  const body::HalfSpace tilted{Vec3(0, 0, 0), n};
  ASSERT_TRUE(sphere_half_space(Vec3(0.5, 0.5, 7), 1.0, tilted, 0.0, g));
  EXPECT_NEAR(g.gap, std::sqrt(0.5) - 1.0, kTol);
  expect_vec(g.normal, n);
}

TEST(NarrowPhase, SphereAxisAlignedBox) {
  const body::Box box{Vec3(0, 0, 0), Vec3(1, 2, 3), Quat::Identity()};
  ContactGeometry g;
  // Face.
  ASSERT_TRUE(sphere_box(Vec3(1.4, 0.5, 0.5), 0.5, box, 0.0, g));
  EXPECT_NEAR(g.gap, -0.1, kTol);
  expect_vec(g.normal, Vec3(1, 0, 0));
  expect_vec(g.point, Vec3(1.0, 0.5, 0.5));
  expect_vec(g.point1(), Vec3(0.9, 0.5, 0.5));
  // Edge (x and y outside).
  ASSERT_TRUE(sphere_box(Vec3(1.3, 2.4, 0.0), 0.6, box, 0.0, g));
  EXPECT_NEAR(g.gap, 0.5 - 0.6, kTol);
  expect_vec(g.normal, Vec3(0.6, 0.8, 0.0));
  // Corner.
  ASSERT_TRUE(sphere_box(Vec3(2, 3, 4), 2.0, box, 0.0, g));
  EXPECT_NEAR(g.gap, std::sqrt(3.0) - 2.0, kTol);
  expect_vec(g.normal, Vec3(1, 1, 1).normalized());
  // Centre inside: exits through the nearest face (z = -3 is 0.2 away).
  ASSERT_TRUE(sphere_box(Vec3(0.1, 0.0, -2.8), 0.5, box, 0.0, g));
  EXPECT_NEAR(g.gap, -0.2 - 0.5, kTol);
  expect_vec(g.normal, Vec3(0, 0, -1));
  expect_vec(g.point, Vec3(0.1, 0.0, -3.0));
  expect_vec(g.point1(), Vec3(0.1, 0.0, -2.8) - 0.5 * Vec3(0, 0, -1));
  // Far away: no contact.
  EXPECT_FALSE(sphere_box(Vec3(5, 0, 0), 0.5, box, 1.0, g));
}

TEST(NarrowPhase, SphereRotatedBox) {
  // Box rotated 45° about z: its +x face normal is (1,1,0)/√2.
  const Quat q(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitZ()));
  const body::Box box{Vec3(1, 1, 0), Vec3(1, 1, 1), q};
  const Vec3 n = Vec3(1, 1, 0).normalized();
  ContactGeometry g;
  ASSERT_TRUE(sphere_box(Vec3(1, 1, 0.3) + 1.4 * n, 0.5, box, 0.0, g));
  EXPECT_NEAR(g.gap, -0.1, kTol);
  expect_vec(g.normal, n);
  expect_vec(g.point, Vec3(1, 1, 0.3) + 1.0 * n);
  expect_vec(g.point1(), Vec3(1, 1, 0.3) + 0.9 * n);
  // Rotated corner (local (1,1,1) direction): world corner at centre + q*(1,1,1).
  const Vec3 corner = Vec3(1, 1, 0) + q * Vec3(1, 1, 1);
  const Vec3 dir = (q * Vec3(1, 1, 1)).normalized();
  ASSERT_TRUE(sphere_box(corner + 0.3 * dir, 0.5, box, 0.0, g));
  EXPECT_NEAR(g.gap, -0.2, kTol);
  expect_vec(g.normal, dir);
}

TEST(NarrowPhase, SphereCylinder) {
  const body::Cylinder cyl{Vec3(0, 0, 0), Vec3(0, 0, 1), 1.0, 2.0};
  ContactGeometry g;
  // Side.
  ASSERT_TRUE(sphere_cylinder(Vec3(0, 1.4, 0.5), 0.5, cyl, 0.0, g));
  EXPECT_NEAR(g.gap, -0.1, kTol);
  expect_vec(g.normal, Vec3(0, 1, 0));
  expect_vec(g.point, Vec3(0, 1.0, 0.5));
  expect_vec(g.point1(), Vec3(0, 0.9, 0.5));
  // Flat cap.
  ASSERT_TRUE(sphere_cylinder(Vec3(0.3, 0.2, 2.4), 0.5, cyl, 0.0, g));
  EXPECT_NEAR(g.gap, -0.1, kTol);
  expect_vec(g.normal, Vec3(0, 0, 1));
  // Rim (edge between side and cap): outside radially by 0.3 and axially by 0.4.
  ASSERT_TRUE(sphere_cylinder(Vec3(1.3, 0, -2.4), 0.6, cyl, 0.0, g));
  EXPECT_NEAR(g.gap, 0.5 - 0.6, kTol);
  expect_vec(g.normal, Vec3(0.6, 0, -0.8));
  // Inside, nearer the side than the caps.
  ASSERT_TRUE(sphere_cylinder(Vec3(0.9, 0, 0), 0.5, cyl, 0.0, g));
  EXPECT_NEAR(g.gap, -0.1 - 0.5, kTol);
  expect_vec(g.normal, Vec3(1, 0, 0));
  // Inside, nearer the bottom cap.
  ASSERT_TRUE(sphere_cylinder(Vec3(0.1, 0, -1.95), 0.5, cyl, 0.0, g));
  EXPECT_NEAR(g.gap, -0.05 - 0.5, kTol);
  expect_vec(g.normal, Vec3(0, 0, -1));
  // Tilted axis.
  const Vec3 axis = Vec3(1, 0, 1).normalized();
  const body::Cylinder tilted{Vec3(0, 0, 0), axis, 1.0, 2.0};
  ASSERT_TRUE(sphere_cylinder(Vec3(0, 1.2, 0) + 0.5 * axis, 0.5, tilted, 0.0, g));
  EXPECT_NEAR(g.gap, -0.3, kTol);
  expect_vec(g.normal, Vec3(0, 1, 0));
  EXPECT_FALSE(sphere_cylinder(Vec3(0, 3, 0), 0.5, cyl, 1.0, g));
}

// Property check: outside every primitive, gap = sdf(x) − r, n = ∇sdf, body 2's witness point
// x − n (r + ξ) lies on the primitive's surface and body 1's, x − r n, on the sphere's.
TEST(NarrowPhase, AgreesWithSignedDistanceOutside) {
  const std::vector<body::Primitive> shapes = {
      body::HalfSpace{Vec3(0.1, 0.2, 0.3), Vec3(1, -2, 0.5).normalized()},
      body::Box{Vec3(0.2, -0.1, 0.3), Vec3(0.5, 0.8, 0.3),
                Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()))},
      body::Cylinder{Vec3(-0.2, 0.1, 0), Vec3(1, 1, -1).normalized(), 0.6, 0.4}};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  const double r = 0.3;
  int checked = 0;
  for (const auto& shape : shapes)
    for (int k = 0; k < 400; ++k) {
      const Vec3 x(u(rng), u(rng), u(rng));
      const double d = body::signed_distance(shape, x);
      if (d < 0.05) continue;  // outside only; away from the surface for finite differences
      ContactGeometry g;
      ASSERT_TRUE(sphere_primitive(x, r, shape, 10.0, g));
      EXPECT_NEAR(g.gap, d - r, 1e-12);
      expect_vec(g.normal, sdf_gradient(shape, x).normalized(), 1e-6);
      expect_vec(g.point, x - (r + g.gap) * g.normal, 1e-12);
      EXPECT_NEAR(body::signed_distance(shape, g.point), 0.0, 1e-12);
      expect_vec(g.point1(), x - r * g.normal, 1e-12);
      ++checked;
    }
  EXPECT_GT(checked, 600);
}

// The paper's obstacle: a cylinder whose right half is replaced by a box.
TEST(NarrowPhase, SphereUnionSkipsInternalFaces) {
  body::GlobalBody obstacle;
  obstacle.parts.push_back(body::Cylinder{Vec3(0, 0, 0), Vec3(0, 0, 1), 1.0, 1.0});
  obstacle.parts.push_back(body::Box{Vec3(0.5, 0, 0), Vec3(0.5, 1.0, 1.0), Quat::Identity()});
  ContactGeometry out[4];
  // Left of the cylinder: only the cylinder's side.
  std::size_t n = sphere_global(Vec3(-1.15, 0, 0), 0.2, obstacle, 0.0, out, 4);
  ASSERT_EQ(n, 1u);
  EXPECT_NEAR(out[0].gap, -0.05, kTol);
  expect_vec(out[0].normal, Vec3(-1, 0, 0));
  // Right of the box: only the box face (the cylinder is out of reach there).
  n = sphere_global(Vec3(1.15, 0.5, 0), 0.2, obstacle, 0.0, out, 4);
  ASSERT_EQ(n, 1u);
  expect_vec(out[0].normal, Vec3(1, 0, 0));
  EXPECT_NEAR(out[0].gap, -0.05, kTol);
  // A sphere buried next to the box's left face x = 0, which lies inside the cylinder: that
  // face is internal, so no contact may push the sphere towards -x.
  n = sphere_global(Vec3(0.05, 0, 0), 0.1, obstacle, 0.0, out, 4);
  ASSERT_EQ(n, 1u);
  expect_vec(out[0].normal, Vec3(1, 0, 0));
  // Above the flat top both members report the same surface point: reported once.
  n = sphere_global(Vec3(0.2, 0.0, 1.1), 0.2, obstacle, 0.0, out, 4);
  ASSERT_EQ(n, 1u);
  expect_vec(out[0].normal, Vec3(0, 0, 1));
  EXPECT_NEAR(out[0].gap, -0.1, kTol);
  // Far away: nothing.
  EXPECT_EQ(sphere_global(Vec3(5, 5, 5), 0.2, obstacle, 0.1, out, 4), 0u);
}

// A drum (Cylinder::inside): the solid is the cylinder's outside. Hand-computed gaps, normals
// and witness points for R = 1, L = 2, axis z: mantle gap R − ρ − r, caps L ∓ h − r.
TEST(NarrowPhase, SphereInsideCylinder) {
  const body::Cylinder drum{Vec3(0, 0, 0), Vec3(0, 0, 1), 1.0, 2.0, true};
  ContactGeometry g[3];
  // Near the mantle only (an open gap 0.1 within threshold 0.2).
  ASSERT_EQ(sphere_inside_cylinder(Vec3(0.5, 0, 0), 0.4, drum, 0.2, g), 1u);
  EXPECT_NEAR(g[0].gap, 0.1, kTol);
  expect_vec(g[0].normal, Vec3(-1, 0, 0));
  expect_vec(g[0].point, Vec3(1, 0, 0));
  expect_vec(g[0].point1(), Vec3(0.9, 0, 0));
  // Pressed against the top cap; the mantle's gap 0.05 is open and not reported.
  ASSERT_EQ(sphere_inside_cylinder(Vec3(0, 0.7, 1.8), 0.25, drum, 0.0, g), 1u);
  EXPECT_NEAR(g[0].gap, -0.05, kTol);
  expect_vec(g[0].normal, Vec3(0, 0, -1));
  expect_vec(g[0].point, Vec3(0, 0.7, 2));
  expect_vec(g[0].point1(), Vec3(0, 0.7, 2.05));
  // In the bottom corner: the mantle and the bottom cap, both 0.1 deep.
  ASSERT_EQ(sphere_inside_cylinder(Vec3(0.8, 0, -1.8), 0.3, drum, 0.0, g), 2u);
  EXPECT_NEAR(g[0].gap, -0.1, kTol);
  expect_vec(g[0].normal, Vec3(-1, 0, 0));
  expect_vec(g[0].point, Vec3(1, 0, -1.8));
  EXPECT_NEAR(g[1].gap, -0.1, kTol);
  expect_vec(g[1].normal, Vec3(0, 0, 1));
  expect_vec(g[1].point, Vec3(0.8, 0, -2));
  // A centre that left through the mantle is pushed back in.
  ASSERT_EQ(sphere_inside_cylinder(Vec3(1.2, 0, 0), 0.1, drum, 0.0, g), 1u);
  EXPECT_NEAR(g[0].gap, -0.3, kTol);
  expect_vec(g[0].normal, Vec3(-1, 0, 0));
  // In the middle, far from every wall: nothing.
  EXPECT_EQ(sphere_inside_cylinder(Vec3(0, 0, 0), 0.5, drum, 0.1, g), 0u);
  // sphere_primitive: the nearest wall (the cap here, 0.05 deep against the mantle's 0.05 open).
  ContactGeometry one;
  ASSERT_TRUE(sphere_primitive(Vec3(0, 0.7, 1.8), 0.25, drum, 0.0, one));
  expect_vec(one.normal, Vec3(0, 0, -1));
  // sphere_global reports both corner contacts.
  body::GlobalBody body;
  body.parts = {drum};
  ASSERT_EQ(sphere_global(Vec3(0.8, 0, -1.8), 0.3, body, 0.0, g, 3), 2u);
}

// Property check inside a tilted drum: the nearest wall's gap is sdf(x) − r (the signed
// distance is positive inside a drum), its witness point lies on the surface (sdf 0) and
// every reported contact's witness point of the sphere is x − r n.
TEST(NarrowPhase, InsideCylinderAgreesWithSignedDistance) {
  const body::Cylinder drum{Vec3(0.1, -0.2, 0.3), Vec3(1, 2, -1).normalized(), 1.0, 0.7, true};
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.2, 1.2);
  const double r = 0.2;
  int checked = 0;
  for (int k = 0; k < 2000; ++k) {
    const Vec3 x = drum.center + Vec3(u(rng), u(rng), u(rng));
    const double d = body::signed_distance(drum, x);
    if (d < 0.0) continue;  // centres inside the drum
    ContactGeometry g[3];
    const std::size_t n = sphere_inside_cylinder(x, r, drum, 10.0, g);
    ASSERT_EQ(n, 3u);
    double nearest = 1e300;
    for (std::size_t c = 0; c < n; ++c) {
      nearest = std::min(nearest, g[c].gap);
      EXPECT_NEAR(g[c].normal.norm(), 1.0, 1e-12);
      expect_vec(g[c].point1(), x - r * g[c].normal, 1e-12);
      EXPECT_NEAR(body::signed_distance(drum, g[c].point), 0.0, 1e-12);
    }
    EXPECT_NEAR(nearest, d - r, 1e-12);
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

// A primitive turned by q (box orientation, cylinder or drum axis) gives the contact of the
// unturned one in the turned frame: gap equal, normal and witness point turned by q.
TEST(NarrowPhase, TurnedShapesEqualAxisAlignedOnesInTheTurnedFrame) {
  const Quat q(Eigen::AngleAxisd(1.1, Vec3(0.3, -1, 2).normalized()));
  const Vec3 c(0.4, -0.3, 0.2);
  const std::vector<std::pair<body::Primitive, body::Primitive>> pairs = {
      {body::Box{Vec3::Zero(), Vec3(0.5, 0.8, 0.3), Quat::Identity()},
       body::Box{c, Vec3(0.5, 0.8, 0.3), q}},
      {body::Cylinder{Vec3::Zero(), Vec3::UnitZ(), 0.6, 0.4},
       body::Cylinder{c, q * Vec3::UnitZ(), 0.6, 0.4}},
      {body::Cylinder{Vec3::Zero(), Vec3::UnitZ(), 1.2, 0.9, true},
       body::Cylinder{c, q * Vec3::UnitZ(), 1.2, 0.9, true}}};
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  int checked = 0;
  for (const auto& [aligned, turned] : pairs)
    for (int k = 0; k < 300; ++k) {
      const Vec3 local(u(rng), u(rng), u(rng));
      ContactGeometry ga[3], gt[3];
      const std::size_t na = sphere_part(local, 0.2, aligned, 0.5, ga);
      ASSERT_EQ(sphere_part(c + q * local, 0.2, turned, 0.5, gt), na);
      for (std::size_t m = 0; m < na; ++m) {
        EXPECT_NEAR(gt[m].gap, ga[m].gap, 1e-12);
        expect_vec(gt[m].normal, q * ga[m].normal, 1e-12);
        expect_vec(gt[m].point, c + q * ga[m].point, 1e-12);
        ++checked;
      }
    }
  EXPECT_GT(checked, 300);
}

TEST(ContactFrame, OrthonormalRightHanded) {
  std::mt19937 rng(3);
  std::normal_distribution<double> N;
  for (int k = 0; k < 200; ++k) {
    const Vec3 n = Vec3(N(rng), N(rng), N(rng)).normalized();
    Vec3 t, o;
    tangent_frame(n, t, o);
    EXPECT_NEAR(t.norm(), 1.0, 1e-14);
    EXPECT_NEAR(o.norm(), 1.0, 1e-14);
    EXPECT_NEAR(n.dot(t), 0.0, 1e-14);
    EXPECT_NEAR(n.dot(o), 0.0, 1e-14);
    EXPECT_NEAR(t.dot(o), 0.0, 1e-14);
    EXPECT_NEAR(n.cross(t).dot(o), 1.0, 1e-14);
  }
}
