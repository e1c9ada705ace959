// Convex polyhedra: topology, hull and mass properties against closed forms. Sizes are of
// order 1 (or 1e-3 m), so the divergence-theorem sums carry rounding of a few 1e-16 relative:
// the tolerances are 1e-12 relative, leaving a margin of 1e3 over rounding.
#include "granite/body/polyhedron.hpp"
#include "granite/body/shape.hpp"
#include "granite/core/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace granite;
using namespace granite::body;

namespace {

constexpr double kRel = 1e-12;

void expect_matrix(const Mat3& a, const Mat3& b, double scale) {
  EXPECT_LE((a - b).cwiseAbs().maxCoeff(), kRel * scale) << "got\n" << a << "\nexpected\n" << b;
}

// Every face planar, its normal a unit vector pointing away from the centroid, its loop turning
// counter-clockwise about it; every edge shared by exactly two faces (a closed surface);
// Euler's V − E + F = 2.
void expect_closed_convex(const ConvexPolyhedron& p, const Vec3& inside) {
  for (const PolyhedronFace& f : p.faces) {
    EXPECT_NEAR(f.normal.norm(), 1.0, 1e-15);
    EXPECT_LT(f.normal.dot(inside), f.offset);
    for (int v : f.loop) EXPECT_NEAR(f.normal.dot(p.vertices[std::size_t(v)]), f.offset, 1e-14);
    Vec3 twice_area = Vec3::Zero();
    for (std::size_t k = 0; k < f.loop.size(); ++k)
      twice_area += p.vertices[std::size_t(f.loop[k])].cross(
          p.vertices[std::size_t(f.loop[(k + 1) % f.loop.size()])]);
    EXPECT_GT(twice_area.dot(f.normal), 0.0);
  }
  for (const PolyhedronFace& f : p.faces)
    for (const Vec3& v : p.vertices) EXPECT_LE(f.normal.dot(v), f.offset + 1e-14);
  EXPECT_EQ(int(p.vertices.size()) - int(p.edges.size()) + int(p.faces.size()), 2);
  EXPECT_EQ(p.edge_family.size(), p.edges.size());
  ASSERT_EQ(p.edge_faces.size(), p.edges.size());
  for (std::size_t e = 0; e < p.edges.size(); ++e) {  // both faces hold both of its ends
    EXPECT_NE(p.edge_faces[e][0], p.edge_faces[e][1]);
    for (const int f : p.edge_faces[e]) {
      ASSERT_GE(f, 0);
      const std::vector<int>& loop = p.faces[std::size_t(f)].loop;
      for (const int v : p.edges[e]) EXPECT_NE(std::find(loop.begin(), loop.end(), v), loop.end());
    }
  }
}

}  // namespace

TEST(Polyhedron, BoxHasSixFacesTwelveEdgesInThreeFamilies) {
  const ConvexPolyhedron box = box_polyhedron(Vec3(2.0, 1.0, 0.5));
  EXPECT_EQ(box.vertices.size(), 8u);
  EXPECT_EQ(box.faces.size(), 6u);
  EXPECT_EQ(box.edges.size(), 12u);
  EXPECT_EQ(box.edge_directions.size(), 3u);
  expect_closed_convex(box, Vec3::Zero());
}

// V = 8abc; I_xx = V (b² + c²)/3, and cyclically (a solid box about its centre).
TEST(Polyhedron, BoxMassPropertiesAreTheClosedForm) {
  const Vec3 h(2.0e-3, 1.0e-3, 0.5e-3);
  const MassProperties m = polyhedron_mass_properties(box_polyhedron(h));
  const double v = 8.0 * h.prod();
  EXPECT_NEAR(m.volume, v, kRel * v);
  const Vec3 i(v * (h[1] * h[1] + h[2] * h[2]) / 3.0, v * (h[0] * h[0] + h[2] * h[2]) / 3.0,
               v * (h[0] * h[0] + h[1] * h[1]) / 3.0);
  expect_matrix(m.inertia, i.asDiagonal(), i.maxCoeff());
  EXPECT_LE(m.centroid.norm(), kRel * h.norm());
}

// The test: a polyhedron given as a cube's 8 vertices (off the origin, turned, with
// points inside and on its faces that the hull drops or merges) has the box's mass properties
// about its centre, and the shape's frame moves there.
TEST(Polyhedron, ConvexHullOfACubesVerticesIsTheBox) {
  const Vec3 h(1.5, 1.0, 0.75), offset(0.3, -2.0, 5.0);
  const Mat3 turn = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  std::vector<Vec3> points;
  for (int k = 0; k < 8; ++k)
    points.push_back(offset + turn * Vec3((k & 1 ? 1 : -1) * h[0], (k & 2 ? 1 : -1) * h[1],
                                          (k & 4 ? 1 : -1) * h[2]));
  points.push_back(offset);                                // inside
  points.push_back(offset + turn * Vec3(0.2, 0.1, h[2]));  // on the top face
  ShapeTable shapes;
  const ShapeIndex k = shapes.add_convex("cube", points);
  const Shape& s = shapes[k];
  EXPECT_EQ(s.kind, ShapeKind::convex);
  EXPECT_EQ(s.polyhedron.faces.size(), 6u) << "coplanar facets merged";
  EXPECT_EQ(s.polyhedron.edge_directions.size(), 3u);
  expect_closed_convex(s.polyhedron, Vec3::Zero());
  EXPECT_LE((s.shift - offset).norm(), kRel * offset.norm());
  const double v = 8.0 * h.prod();
  EXPECT_NEAR(s.unit_mass.volume, v, kRel * v);
  const Vec3 i(v * (h[1] * h[1] + h[2] * h[2]) / 3.0, v * (h[0] * h[0] + h[2] * h[2]) / 3.0,
               v * (h[0] * h[0] + h[1] * h[1]) / 3.0);
  // Given turned, the inertia is the box's turned: R I Rᵀ (full tensor, axes not principal).
  expect_matrix(s.unit_mass.inertia, turn * Mat3(i.asDiagonal()) * turn.transpose(), i.maxCoeff());
  EXPECT_NEAR(s.bounding_radius, h.norm(), kRel * h.norm());
}

// A regular tetrahedron of edge a: V = a³/(6√2), I = V a²/20 about its centroid (isotropic).
TEST(Polyhedron, RegularTetrahedronMassProperties) {
  const double a = 2.0e-3;
  const std::vector<Vec3> points = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1),
                                    Vec3(-1, -1, 1)};
  std::vector<Vec3> scaled;
  for (const Vec3& p : points) scaled.push_back(p * a / (2.0 * std::sqrt(2.0)));
  const ConvexPolyhedron t = convex_hull(scaled, "tetra");
  EXPECT_EQ(t.faces.size(), 4u);
  EXPECT_EQ(t.edge_directions.size(), 6u);
  expect_closed_convex(t, Vec3::Zero());
  const MassProperties m = polyhedron_mass_properties(t);
  const double v = a * a * a / (6.0 * std::sqrt(2.0));
  EXPECT_NEAR(m.volume, v, kRel * v);
  expect_matrix(m.inertia, Mat3::Identity() * v * a * a / 20.0, v * a * a / 20.0);
}

// Random point clouds: the hull holds every point, and the mass properties do not depend on
// the frame (translating the points moves the centroid with them, the inertia is unchanged).
TEST(Polyhedron, RandomHullsHoldTheirPointsAndAreFrameIndependent) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Vec3> points, moved;
    const Vec3 shift(g(rng), g(rng), g(rng));
    for (int k = 0; k < 30; ++k) {
      points.emplace_back(g(rng), g(rng), g(rng));
      moved.push_back(points.back() + shift);
    }
    const ConvexPolyhedron p = convex_hull(points, "cloud"), q = convex_hull(moved, "cloud");
    const MassProperties mp = polyhedron_mass_properties(p), mq = polyhedron_mass_properties(q);
    expect_closed_convex(p, mp.centroid);
    for (const Vec3& x : points)
      for (const PolyhedronFace& f : p.faces) EXPECT_LE(f.normal.dot(x), f.offset + 1e-14);
    EXPECT_NEAR(mq.volume, mp.volume, kRel * mp.volume);
    EXPECT_LE((mq.centroid - mp.centroid - shift).norm(), 1e-12);
    expect_matrix(mq.inertia, mp.inertia, mp.inertia.cwiseAbs().maxCoeff() * 10.0);
  }
}

TEST(Polyhedron, DegenerateVertexSetsAreRefusedWithTheirName) {
  const auto message = [](const std::vector<Vec3>& points) {
    try {
      convex_hull(points, "convex shape 'flat'");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}).find("at least 4"),
            std::string::npos);
  const std::string flat =
      message({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(0.5, 0.2, 0)});
  EXPECT_NE(flat.find("'flat'"), std::string::npos) << flat;
  EXPECT_NE(flat.find("no volume"), std::string::npos) << flat;
  EXPECT_NE(message({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0)}).find("no volume"),
            std::string::npos);
  EXPECT_NE(
      message({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, NAN)}).find("not finite"),
      std::string::npos);
  ShapeTable shapes;
  EXPECT_THROW(shapes.add_box("b", Vec3(1.0, 0.0, 1.0)), InputError);
}
