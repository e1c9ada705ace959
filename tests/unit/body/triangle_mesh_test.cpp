// The geometric core of mesh walls: closest points of triangles against brute force, the AABB
// tree's queries and nearest search and the mesh's distance against scans, and the mesh's build (merged vertices, dropped triangles, edges and
// their convex / flat / concave classification). Scenes are of size ~1–10 within ~10 of the
// origin, so a coordinate or a distance carries rounding of order 1e-15: kTol = 1e-12 leaves a
// margin of 1e3.
#include "granite/body/aabb_tree.hpp"
#include "granite/body/triangle_closest_point.hpp"
#include "granite/body/triangle_mesh.hpp"
#include "granite/core/error.hpp"
#include "../../support/unit_cube_mesh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

using namespace granite;
using namespace granite::body;
using granite::test_meshes::cube_triangles;
using granite::test_meshes::cube_vertices;

namespace {

constexpr double kTol = 1e-12;

Vec3 random_vec(std::mt19937_64& rng, double scale) {
  std::normal_distribution<double> g(0.0, scale);
  return {g(rng), g(rng), g(rng)};
}

// The least distance from x to the points a + (i/N)(b − a) + (j/N)(c − a), i + j ≤ N. Every
// point of the triangle lies in one of the N² small triangles of this grid, within the small
// triangle's longest edge L/N of one of its corners: the true distance d satisfies
// d ≤ result ≤ d + L/N.
double sampled_distance(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c, int N) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= N; ++i)
    for (int j = 0; i + j <= N; ++j)
      best =
          std::min(best, (x - (a + (double(i) / N) * (b - a) + (double(j) / N) * (c - a))).norm());
  return best;
}

}  // namespace

// The closest point q of a convex set to x is characterised by (x − q)·(y − q) ≤ 0 for every y
// of the set (the projection's variational inequality), linear in y, so checked at the three
// corners; q on the triangle: barycentric weights in [0, 1]. And no point of a dense sampling is
// closer. The region names where q lies.
TEST(TriangleClosestPoint, MatchesBruteForceOnRandomTriangles) {
  std::mt19937_64 rng(11);
  constexpr int N = 300;
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 a = random_vec(rng, 1.0), b = random_vec(rng, 1.0), c = random_vec(rng, 1.0);
    // Points near the plane too, where the face region and its rim are hardest to tell apart.
    const Vec3 n = cross(b - a, c - a).normalized();
    Vec3 x = random_vec(rng, 1.5);
    if (trial % 3 == 0) x -= n.dot(x - a) * n * 0.999;
    const TrianglePoint q = closest_point_on_triangle(x, a, b, c);
    const Vec3 corners[3] = {a, b, c};
    const double scale = 1.0 + x.norm();
    for (const Vec3& y : corners) EXPECT_LE((x - q.point).dot(y - q.point), kTol * scale * scale);
    // q = a + s(b − a) + t(c − a): solve the 2×2 normal equations.
    const Vec3 ab = b - a, ac = c - a, aq = q.point - a;
    const double m00 = ab.dot(ab), m01 = ab.dot(ac), m11 = ac.dot(ac);
    const double det = m00 * m11 - m01 * m01;
    const double s = (m11 * ab.dot(aq) - m01 * ac.dot(aq)) / det;
    const double t = (m00 * ac.dot(aq) - m01 * ab.dot(aq)) / det;
    const double w = 1e-9;  // relative to these triangles' conditioning (det ≥ ~1e-4 here)
    EXPECT_GE(s, -w);
    EXPECT_GE(t, -w);
    EXPECT_LE(s + t, 1.0 + w);
    const double L = std::max({ab.norm(), ac.norm(), (c - b).norm()});
    const double sampled = sampled_distance(x, a, b, c, N);
    const double d = (x - q.point).norm();
    EXPECT_LE(d, sampled + kTol * scale) << "trial " << trial;
    EXPECT_GE(d, sampled - L / N - kTol * scale) << "trial " << trial;
    // The region: a corner is the corner; an edge's point is on that edge's line and not a
    // corner; a face point is off no edge and x − q is along the normal.
    if (is_vertex(q.region)) {
      EXPECT_LE((q.point - corners[local_index(q.region)]).norm(), kTol * scale);
    } else if (is_edge(q.region)) {
      const int k = local_index(q.region);
      const Vec3 p = corners[k], e = corners[(k + 1) % 3] - p;
      EXPECT_LE(cross(q.point - p, e).norm(), kTol * scale * e.norm()) << "off its edge";
    } else {
      EXPECT_LE(cross(x - q.point, n).norm(), kTol * scale) << "not a projection";
    }
  }
}

TEST(TriangleClosestPoint, RegionsOfAUnitTriangle) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  EXPECT_EQ(closest_point_on_triangle(Vec3(0.2, 0.2, 1), a, b, c).region, TriangleRegion::face);
  EXPECT_EQ(closest_point_on_triangle(Vec3(0.5, -1, 1), a, b, c).region, TriangleRegion::edge0);
  EXPECT_EQ(closest_point_on_triangle(Vec3(1, 1, -1), a, b, c).region, TriangleRegion::edge1);
  EXPECT_EQ(closest_point_on_triangle(Vec3(-1, 0.5, 0), a, b, c).region, TriangleRegion::edge2);
  EXPECT_EQ(closest_point_on_triangle(Vec3(-1, -1, 2), a, b, c).region, TriangleRegion::vertex0);
  EXPECT_EQ(closest_point_on_triangle(Vec3(3, -1, 0), a, b, c).region, TriangleRegion::vertex1);
  EXPECT_EQ(closest_point_on_triangle(Vec3(-0.5, 3, 0), a, b, c).region, TriangleRegion::vertex2);
  const TrianglePoint q = closest_point_on_triangle(Vec3(0.5, -1, 1), a, b, c);
  EXPECT_LE((q.point - Vec3(0.5, 0, 0)).norm(), kTol);
  // A degenerate (collinear) triangle: the closest point of its edges.
  const TrianglePoint d =
      closest_point_on_triangle(Vec3(0.5, 1, 0), a, Vec3(1, 0, 0), Vec3(2, 0, 0));
  EXPECT_LE((d.point - Vec3(0.5, 0, 0)).norm(), kTol);
}

// Every query box against a scan of all the boxes: the same set of items.
TEST(AabbTree, QueryMatchesBruteForce) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 10.0), size(0.0, 0.6);
  for (const int n : {1, 3, 4, 5, 17, 2000}) {
    std::vector<Aabb> boxes(static_cast<std::size_t>(n));
    for (auto& b : boxes) {
      const Vec3 lo(u(rng), u(rng), u(rng));
      b.lo = lo;
      b.hi = lo + Vec3(size(rng), size(rng), size(rng));
    }
    const AabbTree tree(boxes);
    EXPECT_EQ(tree.size(), std::size_t(n));
    // Median splits: depth ≤ ⌈log2(n / leaf)⌉.
    EXPECT_LE(tree.depth(), std::max(0, int(std::ceil(std::log2(double(n) / 4.0)))));
    for (int q = 0; q < 200; ++q) {
      Aabb box;
      box.lo = Vec3(u(rng), u(rng), u(rng)) - Vec3::Constant(1.0);
      box.hi = box.lo + Vec3(2 * size(rng), 2 * size(rng), 2 * size(rng)) * (q % 10 == 0 ? 10 : 1);
      std::vector<std::int32_t> found, expected;
      tree.query(box, [&](std::int32_t i) { found.push_back(i); });
      for (int i = 0; i < n; ++i)
        if (boxes[std::size_t(i)].intersects(box)) expected.push_back(i);
      std::sort(found.begin(), found.end());
      ASSERT_EQ(found, expected) << "n " << n << " query " << q;
    }
  }
}

// A random triangle soup: the mesh's query returns exactly the triangles whose corners' box
// meets the query box.
TEST(TriangleMesh, TrianglesNearMatchScan) {
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> u(0.0, 10.0);
  std::vector<Vec3> vertices;
  std::vector<MeshTriangle> triangles;
  for (int t = 0; t < 1500; ++t) {
    const Vec3 p(u(rng), u(rng), u(rng));
    for (int k = 0; k < 3; ++k) vertices.push_back(p + random_vec(rng, 0.3));
    triangles.push_back({3 * t, 3 * t + 1, 3 * t + 2});
  }
  const TriangleMesh mesh(vertices, triangles);
  ASSERT_EQ(mesh.triangle_count(), triangles.size());
  for (int q = 0; q < 300; ++q) {
    Aabb box;
    box.lo = Vec3(u(rng), u(rng), u(rng));
    box.hi = box.lo + Vec3::Constant(0.5 + q % 3);
    std::vector<std::int32_t> found, expected;
    mesh.triangles_near(box, [&](std::int32_t t) { found.push_back(t); });
    for (std::int32_t t = 0; t < std::int32_t(mesh.triangle_count()); ++t) {
      Aabb b;
      for (int k = 0; k < 3; ++k) b.grow(mesh.corner(t, k));
      if (b.intersects(box)) expected.push_back(t);
    }
    std::sort(found.begin(), found.end());
    ASSERT_EQ(found, expected) << "query " << q;
  }
}

// Repeated corners (directly or after merging equal coordinates, −0.0 == 0.0), collinear
// corners and a sliver far below the rounding of its normal are dropped and counted; the rest
// keep their order and their source index.
TEST(TriangleMesh, DropsDegenerateTrianglesAndMergesVertices) {
  const std::vector<Vec3> v = {{0, 0, 0}, {1, 0, 0},     {0, 1, 0}, {-0.0, 0, 0},
                               {2, 0, 0}, {1, 1e-17, 0}, {1, 1, 0}};
  const std::vector<MeshTriangle> t = {
      {0, 1, 2},  // kept
      {0, 0, 1},  // repeated corner
      {3, 1, 2},  // vertex 3 is vertex 0: a duplicate of triangle 0, kept (non-manifold edges)
      {0, 3, 2},  // repeated after the merge
      {0, 1, 4},  // collinear
      {0, 4, 5},  // area 1e-17 against 16 ε L² = 1.4e-14: rounding
      {1, 6, 2},  // kept
  };
  const TriangleMesh mesh(v, t);
  EXPECT_EQ(mesh.merged_vertices(), 1u);
  EXPECT_EQ(mesh.vertex_count(), 6u);
  EXPECT_EQ(mesh.dropped_triangles(), 4u);
  ASSERT_EQ(mesh.triangle_count(), 3u);
  EXPECT_EQ(mesh.source_triangle(0), 0);
  EXPECT_EQ(mesh.source_triangle(1), 2);
  EXPECT_EQ(mesh.source_triangle(2), 6);
  EXPECT_EQ(mesh.triangle(1), (MeshTriangle{0, 1, 2}));
  // Triangles 0 and 1 coincide: their three edges have 2, 3 (with triangle 2) and 2 triangles.
  const std::int32_t diagonal = mesh.triangle_edge(0, 1);  // 1 → 2, shared with triangle 2
  EXPECT_EQ(mesh.edge(diagonal).kind, EdgeKind::non_manifold);
  EXPECT_EQ(mesh.edge_triangles(diagonal).size(), 3u);
  EXPECT_THROW(TriangleMesh(v, {{0, 1, 7}}), InputError);
  EXPECT_THROW(TriangleMesh({{0, 0, 0}, {1, 0, 0}, {0, std::nan(""), 0}}, {{0, 1, 2}}), InputError);
  EXPECT_THROW(TriangleMesh(v, {{0, 1, 4}}), InputError);  // nothing left
}

TEST(TriangleMesh, ClassifiesTheCube) {
  const TriangleMesh mesh(cube_vertices(), cube_triangles());
  ASSERT_EQ(mesh.edge_count(), 18u);
  int convex = 0, flat = 0;
  for (std::int32_t e = 0; e < 18; ++e) {
    EXPECT_EQ(mesh.edge_triangles(e).size(), 2u);
    if (mesh.edge(e).kind == EdgeKind::convex) {
      ++convex;
      EXPECT_NEAR(mesh.edge(e).bend, std::numbers::pi / 2, kTol);
    }
    if (mesh.edge(e).kind == EdgeKind::flat) ++flat;
  }
  EXPECT_EQ(convex, 12);
  EXPECT_EQ(flat, 6);
  EXPECT_EQ(mesh.inconsistent_edges(), 0u);
  for (std::int32_t v = 0; v < 8; ++v) EXPECT_EQ(mesh.vertex_kind(v), VertexKind::convex);
  for (std::int32_t t = 0; t < 12; ++t) {  // outward normals
    const Vec3 out =
        (mesh.corner(t, 0) + mesh.corner(t, 1) + mesh.corner(t, 2)) / 3.0 - Vec3::Constant(0.5);
    EXPECT_GT(mesh.normal(t).dot(out), 0.0);
  }
  // Turned inside out (every triangle reversed): the same edges, concave.
  auto inside = cube_triangles();
  for (auto& t : inside) std::swap(t[1], t[2]);
  const TriangleMesh hollow(cube_vertices(), inside);
  for (std::int32_t e = 0; e < 18; ++e) EXPECT_NE(hollow.edge(e).kind, EdgeKind::convex);
  for (std::int32_t v = 0; v < 8; ++v) EXPECT_EQ(hollow.vertex_kind(v), VertexKind::concave);
}

// Two faces meeting at the x axis with a bend: roof (convex), valley (concave), a bend below the
// flat angle (flat), one triangle reversed (counted inconsistent, classified the same), the
// outer edges boundary. Bend angles exact to rounding.
TEST(TriangleMesh, ClassifiesBends) {
  for (const double bend : {0.5, -0.5, 1e-7, -1e-7, 0.0, 2.5, -2.5}) {
    // Face A: y ≤ 0 in the plane z = 0; face B turned about the x axis by −bend (down for a
    // roof), both counter-clockwise seen from +z.
    const Vec3 dir_b(0, std::cos(bend), -std::sin(bend));
    for (const bool reverse : {false, true}) {
      const std::vector<Vec3> v = {{0, 0, 0}, {1, 0, 0}, {0.5, -1, 0}, Vec3(0.5, 0, 0) + dir_b};
      std::vector<MeshTriangle> t = {{0, 2, 1}, {0, 1, 3}};
      if (reverse) std::swap(t[1][1], t[1][2]);
      const TriangleMesh mesh(v, t);
      const std::int32_t seam = mesh.triangle_edge(0, 2);  // 1 → 0
      EXPECT_EQ(mesh.inconsistent_edges(), reverse ? 1u : 0u);
      EXPECT_NEAR(mesh.edge(seam).bend, bend, kTol) << bend;
      const EdgeKind want = std::abs(bend) <= TriangleMesh::kDefaultFlatAngle ? EdgeKind::flat
                            : bend > 0                                        ? EdgeKind::convex
                                                                              : EdgeKind::concave;
      EXPECT_EQ(mesh.edge(seam).kind, want) << bend;
      EXPECT_EQ(mesh.edge(mesh.triangle_edge(0, 0)).kind, EdgeKind::boundary);
      EXPECT_EQ(mesh.vertex_kind(0), VertexKind::boundary);
    }
  }
}

// Branch and bound finds the least item distance of a brute-force scan, exactly (the same
// function of the same item decides both).
TEST(AabbTree, NearestMatchesBruteForce) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 10.0), size(0.0, 0.6);
  for (const int n : {1, 5, 300}) {
    std::vector<Aabb> boxes(static_cast<std::size_t>(n));
    std::vector<Vec3> points(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      points[i] = Vec3(u(rng), u(rng), u(rng));
      boxes[i].grow(points[i]);
      boxes[i].grow(points[i] + Vec3(size(rng), size(rng), size(rng)));
    }
    const AabbTree tree(boxes);
    for (int q = 0; q < 200; ++q) {
      const Vec3 x = Vec3(u(rng), u(rng), u(rng)) * 1.5 - Vec3::Constant(2.5);
      const auto d2 = [&](std::int32_t i) { return (x - points[std::size_t(i)]).squaredNorm(); };
      double expected = std::numeric_limits<double>::infinity();
      for (int i = 0; i < n; ++i) expected = std::min(expected, d2(i));
      ASSERT_EQ(tree.nearest(x, d2), expected) << "n " << n << " query " << q;
    }
  }
  EXPECT_EQ(AabbTree().nearest(Vec3::Zero(), [](std::int32_t) { return 0.0; }),
            std::numeric_limits<double>::infinity());
}

// The distance to the mesh is the least distance to its triangles (a scan with the closest-point
// routine), and the unit cube's is the analytic |signed distance| of the box.
TEST(TriangleMesh, DistanceIsTheLeastOverItsTriangles) {
  const TriangleMesh cube(test_meshes::cube_vertices(), test_meshes::cube_triangles());
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 2.0);
  for (int q = 0; q < 500; ++q) {
    const Vec3 x(u(rng), u(rng), u(rng));
    double scan = std::numeric_limits<double>::infinity();
    for (std::int32_t t = 0; t < std::int32_t(cube.triangle_count()); ++t)
      scan = std::min(scan, (x - closest_point_on_triangle(x, cube.corner(t, 0), cube.corner(t, 1),
                                                           cube.corner(t, 2))
                                     .point)
                                .norm());
    EXPECT_EQ(cube.distance(x), scan);
    const Vec3 local = x - Vec3::Constant(0.5);
    const Vec3 q3 = local.cwiseAbs() - Vec3::Constant(0.5);
    const double box = q3.cwiseMax(0.0).norm() + std::min(q3.maxCoeff(), 0.0);
    EXPECT_NEAR(cube.distance(x), std::abs(box), kTol);
  }
  EXPECT_EQ(cube.bounds().lo, Vec3::Zero());
  EXPECT_EQ(cube.bounds().hi, Vec3::Ones());
}

// A bounded distance search: exact below the bound, the bound itself if no triangle is closer.
TEST(TriangleMesh, BoundedDistanceIsExactBelowTheBound) {
  const TriangleMesh cube(test_meshes::cube_vertices(), test_meshes::cube_triangles());
  const Vec3 x(0.5, 0.5, 3.0);  // 2 above the top face
  EXPECT_NEAR(cube.distance(x, 2.5), 2.0, kTol);
  EXPECT_EQ(cube.distance(x, 1.5), 1.5);
  EXPECT_EQ(cube.distance(x, 0.0), 0.0);
}
