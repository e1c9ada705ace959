// The global bodies' surface meshes (io/global_body_mesh.hpp) against exact areas and volumes:
// a closed, outward-oriented triangle mesh has volume (1/3) sum over triangles of c·n A
// (divergence theorem), which fails for a missing face or a flipped triangle.
#include "granite/io/global_body_mesh.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace granite::io {
namespace {

constexpr double kPi = 3.14159265358979323846;

Vec3 area_vector(const SurfaceMesh& m, std::size_t t) {  // normal × area
  const auto& p = m.points;
  const auto& tri = m.triangles[t];
  return 0.5 * (p[tri[1]] - p[tri[0]]).cross(p[tri[2]] - p[tri[0]]);
}

double area(const SurfaceMesh& m) {
  double a = 0;
  for (std::size_t t = 0; t < m.triangles.size(); ++t) a += area_vector(m, t).norm();
  return a;
}

double enclosed_volume(const SurfaceMesh& m) {
  double v = 0;
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const auto& tri = m.triangles[t];
    const Vec3 centre = (m.points[tri[0]] + m.points[tri[1]] + m.points[tri[2]]) / 3.0;
    v += centre.dot(area_vector(m, t)) / 3.0;
  }
  return v;
}

const Vec3 kLo(0, 0, 0), kHi(1, 2, 3);

TEST(GlobalBodyMesh, PlaneOnABoxFaceIsThatFaceFacingTheParticles) {
  body::GlobalBodies bodies;
  bodies.add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, 0);
  const SurfaceMesh m = global_body_mesh(bodies, kLo, kHi);
  ASSERT_EQ(m.triangles.size(), 2u);
  EXPECT_NEAR(area(m), 1.0 * 2.0, 1e-14);
  for (std::size_t t = 0; t < 2; ++t) EXPECT_GT(area_vector(m, t).z(), 0.0);
  EXPECT_EQ(m.body, (std::vector<std::int32_t>{0, 0}));
}

TEST(GlobalBodyMesh, ObliquePlaneCutsTheUnitCubeInARegularHexagon) {
  body::GlobalBodies bodies;
  bodies.add(body::HalfSpace{Vec3(0.5, 0.5, 0.5), Vec3(1, 1, 1)}, 0);
  const SurfaceMesh m = global_body_mesh(bodies, Vec3::Zero(), Vec3::Ones());
  EXPECT_EQ(m.triangles.size(), 4u);  // a fan over 6 vertices
  // Side sqrt(2)/2: area (3 sqrt(3) / 2) s^2 = 3 sqrt(3) / 4.
  EXPECT_NEAR(area(m), 3.0 * std::sqrt(3.0) / 4.0, 1e-14);
}

TEST(GlobalBodyMesh, PlaneOutsideTheBoxIsNotDrawn) {
  body::GlobalBodies bodies;
  bodies.add(body::HalfSpace{Vec3(0, 0, 5), Vec3::UnitZ()}, 0);
  const SurfaceMesh m = global_body_mesh(bodies, kLo, kHi);
  EXPECT_TRUE(m.triangles.empty());
}

TEST(GlobalBodyMesh, RotatedBoxIsClosedAndOutward) {
  body::GlobalBodies bodies;
  body::Box box;
  box.center = Vec3(0.3, 0.2, 0.1);
  box.half_extents = Vec3(0.1, 0.2, 0.3);
  box.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  bodies.add(box, 0);
  const SurfaceMesh m = global_body_mesh(bodies, kLo, kHi);
  EXPECT_EQ(m.triangles.size(), 12u);
  EXPECT_NEAR(area(m), 8.0 * (0.1 * 0.2 + 0.2 * 0.3 + 0.3 * 0.1), 1e-14);
  EXPECT_NEAR(enclosed_volume(m), 8.0 * 0.1 * 0.2 * 0.3, 1e-14);
}

TEST(GlobalBodyMesh, CylinderIsAClosedPrismWithTheCylindersBoundingBox) {
  body::GlobalBodies bodies;
  bodies.add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, 0);  // body 0: the floor
  body::GlobalBody obstacle;
  obstacle.parts = {body::Cylinder{Vec3(0.4, 0.5, 1.0), Vec3::UnitZ(), 0.25, 0.5}};
  bodies.add(obstacle);
  const int n = 48;
  const SurfaceMesh m = global_body_mesh(bodies, kLo, kHi, n);
  SurfaceMesh cylinder;  // body 1's triangles alone
  cylinder.points = m.points;
  for (std::size_t t = 0; t < m.triangles.size(); ++t)
    if (m.body[t] == 1) cylinder.triangles.push_back(m.triangles[t]);
  // Side 2n triangles, caps 2 (n - 2).
  EXPECT_EQ(cylinder.triangles.size(), std::size_t(2 * n + 2 * (n - 2)));
  // A regular n-gon prism: base (n/2) r^2 sin(2 pi / n), height 2 h.
  EXPECT_NEAR(enclosed_volume(cylinder), n / 2.0 * 0.0625 * std::sin(2 * kPi / n) * 1.0, 1e-14);
  Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
  for (const auto& tri : cylinder.triangles)
    for (auto i : tri) {
      lo = lo.cwiseMin(m.points[i]);
      hi = hi.cwiseMax(m.points[i]);
    }
  // n a multiple of 4: vertices on the +-x and +-y extremes, up to rounding of cos and sin.
  EXPECT_LT((lo - Vec3(0.15, 0.25, 0.5)).norm(), 1e-15);
  EXPECT_LT((hi - Vec3(0.65, 0.75, 1.5)).norm(), 1e-15);
}

// A drum (inside: true) has the cylinder's surface with every normal towards the particles
// inside: the divergence-theorem volume is minus the prism's.
TEST(GlobalBodyMesh, DrumIsTheCylinderTurnedInsideOut) {
  body::GlobalBodies bodies;
  const int n = 48;
  const body::Cylinder solid{Vec3(0.4, 0.5, 1.0), Vec3(1, 1, 0).normalized(), 0.25, 0.5};
  body::Cylinder drum = solid;
  drum.inside = true;
  bodies.add(solid, 0);
  bodies.add(drum, 0);
  const SurfaceMesh m = global_body_mesh(bodies, kLo, kHi, n);
  SurfaceMesh part[2];
  for (auto& p : part) p.points = m.points;
  for (std::size_t t = 0; t < m.triangles.size(); ++t)
    part[m.body[t]].triangles.push_back(m.triangles[t]);
  ASSERT_EQ(part[1].triangles.size(), part[0].triangles.size());
  const double prism = n / 2.0 * 0.0625 * std::sin(2 * kPi / n) * 1.0;
  EXPECT_NEAR(enclosed_volume(part[0]), prism, 1e-14);
  EXPECT_NEAR(enclosed_volume(part[1]), -prism, 1e-14);
}

}  // namespace
}  // namespace granite::io
