// Sphere–mesh contacts: one contact per touched feature. Tessellated planes give exactly the
// plane's contact; seams, shared vertices, valleys, ridges and corners the right number of
// contacts with the right normals; a closed cube the contact of the analytic box. Scenes are
// of size ~1–10 near the origin: rounding of order 1e-15, kTol = 1e-12 leaves a margin of 1e3.
#include "granite/body/polyhedron.hpp"
#include "granite/collision/capsule_contacts.hpp"
#include "granite/collision/ellipsoid_contacts.hpp"
#include "granite/collision/polyhedron_contacts.hpp"
#include "granite/collision/mesh_contacts.hpp"
#include "../../support/unit_cube_mesh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

using namespace granite;
using namespace granite::body;
using namespace granite::collision;

namespace {

constexpr double kTol = 1e-12;

void expect_vec(const Vec3& a, const Vec3& b, double tol = kTol) {
  EXPECT_LE((a - b).norm(), tol) << "got " << a.transpose() << " expected " << b.transpose();
}

// Whether `found` holds the n contacts of `expected`, in order, to the rounding (kTol).
bool same_contacts(const std::vector<MeshContact>& found, const ContactGeometry* expected,
                   std::size_t n) {
  if (found.size() != n) return false;
  for (std::size_t k = 0; k < n; ++k) {
    const ContactGeometry& g = found[k].geometry;
    if (!(std::abs(g.gap - expected[k].gap) <= kTol &&
          (g.normal - expected[k].normal).norm() <= kTol &&
          (g.point - expected[k].point).norm() <= kTol))
      return false;
  }
  return true;
}

struct Soup {
  std::vector<Vec3> vertices;
  std::vector<MeshTriangle> triangles;
};

// The square [−L, L]² of the plane z = 0 in 2 + 2k triangles: its two halves, then k times a
// random triangle split into 3 at a random interior point (no Delaunay: slivers and vertices
// of any valence happen). Every second triangle is reversed: the contacts are two-sided and
// must not depend on the orientation.
Soup tessellated_square(double L, int k, std::mt19937_64& rng) {
  Soup s;
  s.vertices = {{-L, -L, 0}, {L, -L, 0}, {L, L, 0}, {-L, L, 0}};
  s.triangles = {{0, 1, 2}, {0, 2, 3}};
  std::uniform_real_distribution<double> u(0.05, 1.0);
  for (int i = 0; i < k; ++i) {
    const std::size_t t =
        std::uniform_int_distribution<std::size_t>(0, s.triangles.size() - 1)(rng);
    const MeshTriangle tri = s.triangles[t];
    double w[3] = {u(rng), u(rng), u(rng)};
    const double sum = w[0] + w[1] + w[2];
    Vec3 p = Vec3::Zero();
    for (int j = 0; j < 3; ++j) p += (w[j] / sum) * s.vertices[std::size_t(tri[std::size_t(j)])];
    p.z() = 0.0;
    const std::int32_t m = std::int32_t(s.vertices.size());
    s.vertices.push_back(p);
    s.triangles[t] = {tri[0], tri[1], m};
    s.triangles.push_back({tri[1], tri[2], m});
    s.triangles.push_back({tri[2], tri[0], m});
  }
  for (std::size_t t = 1; t < s.triangles.size(); t += 2)
    std::swap(s.triangles[t][1], s.triangles[t][2]);
  return s;
}

}  // namespace

// Spheres above (and below: two-sided) a tessellated plane, penetrating or within the
// threshold, away from its rim: exactly one contact, the plane's: normal ±z, gap |z| − r,
// point the centre's projection. Also right over every vertex and every edge's midpoint,
// where several triangles meet. Far above: none.
TEST(MeshContacts, TessellatedPlaneGivesThePlanesContact) {
  std::mt19937_64 rng(21);
  const double L = 3.0, r = 0.4, h = 0.1;
  for (const int k : {0, 3, 99}) {  // 2, 8 and 200 triangles
    const Soup s = tessellated_square(L, k, rng);
    const TriangleMesh mesh(s.vertices, s.triangles);
    ASSERT_EQ(mesh.triangle_count(), std::size_t(2 + 2 * k));
    std::vector<Vec3> centres;
    std::uniform_real_distribution<double> across(-L + r + h, L - r - h), up(0.3 * r, r + 0.99 * h);
    for (int i = 0; i < 2000; ++i) centres.emplace_back(across(rng), across(rng), up(rng));
    for (std::size_t v = 4; v < s.vertices.size(); ++v)
      centres.push_back(s.vertices[v] + Vec3(0, 0, up(rng)));
    for (std::int32_t e = 0; e < std::int32_t(mesh.edge_count()); ++e) {
      const Vec3 mid =
          0.5 * (mesh.vertex(mesh.edge(e).vertices[0]) + mesh.vertex(mesh.edge(e).vertices[1]));
      if (mid.cwiseAbs().maxCoeff() < L - r - h) centres.push_back(mid + Vec3(0, 0, up(rng)));
    }
    MeshQueryScratch scratch;
    std::vector<MeshContact> out;
    for (std::size_t i = 0; i < centres.size(); ++i) {
      for (const double side : {1.0, -1.0}) {
        const Vec3 c(centres[i].x(), centres[i].y(), side * centres[i].z());
        out.clear();
        ASSERT_EQ(sphere_mesh_contacts(mesh, c, r, h, out, scratch), 1u)
            << "k " << k << " centre " << c.transpose();
        const ContactGeometry& g = out[0].geometry;
        EXPECT_EQ(g.normal, Vec3(0, 0, side));  // exactly: the face normal
        EXPECT_NEAR(g.gap, std::abs(c.z()) - r, kTol);
        expect_vec(g.point, Vec3(c.x(), c.y(), 0.0));
      }
    }
    EXPECT_TRUE(sphere_mesh_contacts(mesh, Vec3(0.1, 0.2, r + 1.01 * h), r, h).empty());
  }
}

// Two coplanar triangles sharing the diagonal of a square; spheres on the diagonal: one contact.
TEST(MeshContacts, SharedEdgeOfCoplanarTrianglesGivesOneContact) {
  const TriangleMesh mesh({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1, 2}, {0, 2, 3}});
  for (const double t : {0.3, 0.5, 0.61803398874989}) {
    const Vec3 c(t, t, 0.2 - 0.01);
    const auto found = sphere_mesh_contacts(mesh, c, 0.2, 0.0);
    ASSERT_EQ(found.size(), 1u) << t;
    EXPECT_EQ(found[0].geometry.normal, Vec3(0, 0, 1));
    EXPECT_NEAR(found[0].geometry.gap, -0.01, kTol);
  }
}

// A vertex shared by 6 coplanar triangles (a hexagonal fan); the sphere right over it, and
// just off it in every direction: one contact.
TEST(MeshContacts, VertexOfSixCoplanarTrianglesGivesOneContact) {
  std::vector<Vec3> v = {Vec3(0.3, -0.2, 1.0)};  // the fan's centre, off the origin
  std::vector<MeshTriangle> t;
  for (int i = 0; i < 6; ++i) {
    const double a = i * std::numbers::pi / 3;
    v.push_back(v[0] + Vec3(std::cos(a), std::sin(a), 0));
    t.push_back({0, 1 + i, 1 + (i + 1) % 6});
  }
  const TriangleMesh mesh(v, t);
  EXPECT_EQ(mesh.vertex_kind(0), VertexKind::flat);
  for (int i = 0; i <= 12; ++i) {
    const double a = i * std::numbers::pi / 6, off = i == 12 ? 0.0 : 1e-13;
    const Vec3 c = v[0] + Vec3(off * std::cos(a), off * std::sin(a), 0.25);
    const auto found = sphere_mesh_contacts(mesh, c, 0.3, 0.0);
    ASSERT_EQ(found.size(), 1u) << i;
    EXPECT_EQ(found[0].geometry.normal, Vec3(0, 0, 1));
    EXPECT_NEAR(found[0].geometry.gap, -0.05, kTol);
  }
}

// Two faces meeting along the x axis at an interior angle of 120° (each rising 30°): a valley.
// A sphere over the seam touching both faces: 2 contacts, each with its face's normal.
// Turned upside down (a roof, convex ridge): 1 contact, from the ridge towards the centre.
TEST(MeshContacts, ValleyGivesTwoContactsRidgeOne) {
  const double s = std::sin(std::numbers::pi / 6), c = std::cos(std::numbers::pi / 6);
  const double r = 0.5;
  for (const double up : {1.0, -1.0}) {  // valley, roof
    const std::vector<Vec3> v = {
        {-2, 0, 0}, {2, 0, 0}, {0, -2 * c, up * 2 * s}, {0, 2 * c, up * 2 * s}};
    const TriangleMesh mesh(v, {{0, 2, 1}, {0, 1, 3}});
    EXPECT_EQ(mesh.edge(mesh.triangle_edge(0, 2)).kind,
              up > 0 ? EdgeKind::concave : EdgeKind::convex);
    const Vec3 na(0, s, c), nb(0, -s, c);  // the valley's faces' upward normals
    if (up > 0) {
      const double z = (r - 0.02) / c;  // each face at distance z cos 30° = r − 0.02
      const auto found = sphere_mesh_contacts(mesh, Vec3(0.3, 0, z), r, 0.0);
      ASSERT_EQ(found.size(), 2u);
      for (const MeshContact& m : found) {
        EXPECT_EQ(m.feature.kind, MeshFeatureKind::face);
        expect_vec(m.geometry.normal, m.feature.index == 0 ? na : nb);
        EXPECT_NEAR(m.geometry.gap, -0.02, kTol);
      }
    } else {
      // Over the ridge, and anywhere in its wedge (within 30° of the vertical): the edge.
      for (const double tilt : {0.0, 0.2, -0.4, 0.5}) {
        const Vec3 dir(0, std::sin(tilt), std::cos(tilt));
        const Vec3 centre = Vec3(0.3, 0, 0) + (r - 0.01) * dir;
        const auto found = sphere_mesh_contacts(mesh, centre, r, 0.0);
        ASSERT_EQ(found.size(), 1u) << tilt;
        EXPECT_EQ(found[0].feature.kind, MeshFeatureKind::edge);
        expect_vec(found[0].geometry.normal, dir);
        expect_vec(found[0].geometry.point, Vec3(0.3, 0, 0));
        EXPECT_NEAR(found[0].geometry.gap, -0.01, kTol);
      }
      // Beyond the wedge (over a face): that face only.
      const Vec3 dir(0, std::sin(0.7), std::cos(0.7));
      const auto found = sphere_mesh_contacts(mesh, Vec3(0.3, 0, 0) + 0.45 * dir, r, 0.0);
      ASSERT_EQ(found.size(), 1u);
      EXPECT_EQ(found[0].feature.kind, MeshFeatureKind::face);
      EXPECT_EQ(found[0].feature.index, 1);
      expect_vec(found[0].geometry.normal, Vec3(0, s, c));
      EXPECT_NEAR(found[0].geometry.gap, 0.45 * std::cos(0.7 - std::numbers::pi / 6) - r, kTol);
    }
  }
}

namespace {

// The unit cube's closed surface, outward, each face split along a diagonal.
TriangleMesh unit_cube() {
  return TriangleMesh(test_meshes::cube_vertices(), test_meshes::cube_triangles());
}

}  // namespace

// A sphere at the cube's convex corner (1, 1, 1), in the corner's normal cone: one contact at
// the vertex, its normal from the vertex towards the centre.
TEST(MeshContacts, ConvexCornerGivesTheVertexContact) {
  const TriangleMesh cube = unit_cube();
  const Vec3 dir = Vec3(1, 2, 3).normalized();
  const auto found = sphere_mesh_contacts(cube, Vec3(1, 1, 1) + 0.29 * dir, 0.3, 0.0);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].feature.kind, MeshFeatureKind::vertex);
  EXPECT_EQ(found[0].feature.index, 7);
  expect_vec(found[0].geometry.normal, dir);
  expect_vec(found[0].geometry.point, Vec3(1, 1, 1));
  EXPECT_NEAR(found[0].geometry.gap, -0.01, kTol);
}

// Random spheres around the closed cube, within the threshold of it: exactly the analytic
// box's contact (closest point = the centre clamped to the box), attributed to the face, edge
// or vertex that closest point lies on (1, 2 or 3 coordinates clamped).
TEST(MeshContacts, ClosedCubeGivesTheBoxContact) {
  const TriangleMesh cube = unit_cube();
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-0.6, 1.6);
  const double r = 0.3, h = 0.05;
  MeshQueryScratch scratch;
  std::vector<MeshContact> out;
  int tested = 0, kinds[3] = {0, 0, 0};
  while (tested < 4000) {
    const Vec3 c(u(rng), u(rng), u(rng));
    const Vec3 q = c.cwiseMax(0.0).cwiseMin(1.0);
    const double d = (c - q).norm();
    if (!(d > 0.2 * r && d < r + 0.99 * h)) continue;
    ++tested;
    out.clear();
    ASSERT_EQ(sphere_mesh_contacts(cube, c, r, h, out, scratch), 1u) << c.transpose();
    const ContactGeometry& g = out[0].geometry;
    EXPECT_NEAR(g.gap, d - r, kTol);
    expect_vec(g.normal, (c - q) / d);
    expect_vec(g.point, q);
    // The same from candidates gathered with a skin, in any order.
    std::vector<std::int32_t> candidates;
    cube.triangles_near(c, r + h + 0.2, [&](std::int32_t t) { candidates.push_back(t); });
    std::shuffle(candidates.begin(), candidates.end(), rng);
    std::vector<MeshContact> listed;
    ASSERT_EQ(sphere_mesh_contacts(cube, c, r, h, candidates, listed, scratch), 1u);
    EXPECT_EQ(listed[0].geometry.normal, g.normal);
    EXPECT_EQ(listed[0].geometry.gap, g.gap);
    EXPECT_EQ(listed[0].feature, out[0].feature);
    const int clamped = int((c.array() != q.array()).count());
    EXPECT_EQ(int(out[0].feature.kind), clamped - 1) << c.transpose();
    ++kinds[clamped - 1];
  }
  EXPECT_GT(kinds[0], 100);  // faces, edges and vertices all tested
  EXPECT_GT(kinds[1], 100);
  EXPECT_GT(kinds[2], 100);
}

// A fin standing on a floor's diagonal: that edge has 3 triangles (non-manifold). A sphere in
// the corner between fin and floor touches both: 2 face contacts.
TEST(MeshContacts, NonManifoldFinOnAFloor) {
  const TriangleMesh mesh({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 1}},
                          {{0, 1, 2}, {0, 2, 3}, {0, 2, 4}});
  const std::int32_t diagonal = mesh.triangle_edge(0, 2);
  EXPECT_EQ(mesh.edge(diagonal).kind, EdgeKind::non_manifold);
  const double r = 0.2, a = (r - 0.01) / std::sqrt(2.0);
  const auto found = sphere_mesh_contacts(mesh, Vec3(0.5 + a, 0.5 - a, r - 0.01), r, 0.0);
  ASSERT_EQ(found.size(), 2u);
  expect_vec(found[0].geometry.normal, Vec3(0, 0, 1));
  expect_vec(found[1].geometry.normal, Vec3(1, -1, 0) / std::sqrt(2.0));
  for (const MeshContact& m : found) {
    EXPECT_EQ(m.feature.kind, MeshFeatureKind::face);
    EXPECT_NEAR(m.geometry.gap, -0.01, kTol);
  }
}

// A sphere just beyond the threshold gets nothing; within it, the contact with its gap.
TEST(MeshContacts, Threshold) {
  const TriangleMesh cube = unit_cube();
  EXPECT_TRUE(sphere_mesh_contacts(cube, Vec3(0.5, 0.4, 1.36), 0.3, 0.05).empty());
  const auto found = sphere_mesh_contacts(cube, Vec3(0.5, 0.4, 1.34), 0.3, 0.05);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(found[0].geometry.gap, 0.04, kTol);
}

// The tessellated square turned and moved at random: its vertices are coplanar only to
// rounding, its faces' normals differ by rounding, and every seam and shared vertex is met in
// inexact arithmetic. Still exactly one contact, the plane's. The turned coordinates (|x| ≤ S
// ≈ 8) are each rounded by at most a few ε S, so a vertex is off the exact plane by up to
// δ = 8 ε S, and the face t that gives the contact is tilted by up to θ_t = 2δ / a_t (a_t its
// least altitude: the split points make slivers): its normal is off by θ_t, its plane by
// δ + θ_t ℓ_t at the witness point (ℓ_t its longest edge), the projection by that and θ_t z.
TEST(MeshContacts, TurnedTessellatedPlaneGivesOneContact) {
  std::mt19937_64 rng(34);
  std::normal_distribution<double> g;
  const double L = 3.0, r = 0.4, h = 0.1;
  for (int trial = 0; trial < 6; ++trial) {
    const Soup s = tessellated_square(L, 99, rng);
    const Mat3 R = Quat(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
    const Vec3 shift(g(rng), g(rng), g(rng));
    std::vector<Vec3> turned;
    double S = 0.0;
    for (const Vec3& v : s.vertices) {
      turned.push_back(R * v + shift);
      S = std::max(S, turned.back().cwiseAbs().maxCoeff());
    }
    const double delta = 8.0 * std::numeric_limits<double>::epsilon() * S;
    const TriangleMesh mesh(turned, s.triangles);
    std::vector<Vec3> on_plane;  // points of the square, then their heights
    std::uniform_real_distribution<double> across(-L + r + h, L - r - h), up(0.3 * r, r + 0.99 * h);
    for (int i = 0; i < 500; ++i) on_plane.emplace_back(across(rng), across(rng), 0.0);
    for (std::size_t v = 4; v < s.vertices.size(); ++v) on_plane.push_back(s.vertices[v]);
    for (const auto& t : s.triangles)
      for (int k = 0; k < 3; ++k) {
        const Vec3 mid = 0.5 * (s.vertices[std::size_t(t[std::size_t(k)])] +
                                s.vertices[std::size_t(t[std::size_t(k + 1) % 3])]);
        if (mid.cwiseAbs().maxCoeff() < L - r - h) on_plane.push_back(mid);
      }
    const Vec3 n = R.col(2);
    double worst_tilt = 0.0;
    for (const Vec3& p : on_plane) {
      const double z = up(rng);
      const Vec3 c = R * (p + Vec3(0, 0, z)) + shift;
      const auto found = sphere_mesh_contacts(mesh, c, r, h);
      ASSERT_EQ(found.size(), 1u) << "trial " << trial << " at " << p.transpose();
      const std::int32_t t = found[0].triangle;
      const Vec3 a = mesh.corner(t, 0), b = mesh.corner(t, 1), e = mesh.corner(t, 2);
      const double longest = std::max({(b - a).norm(), (e - b).norm(), (a - e).norm()});
      const double altitude = cross(b - a, e - a).norm() / longest;
      const double tilt = 2.0 * delta / altitude;
      worst_tilt = std::max(worst_tilt, tilt);
      const Vec3& m = found[0].geometry.normal;  // ± the face normal, exactly
      EXPECT_TRUE(m == mesh.normal(t) || m == -mesh.normal(t));
      expect_vec(found[0].geometry.normal, n, tilt + kTol);
      EXPECT_NEAR(found[0].geometry.gap, z - r, delta + tilt * longest + kTol);
      expect_vec(found[0].geometry.point, R * p + shift, delta + tilt * (longest + z) + kTol);
    }
    EXPECT_LT(worst_tilt, 1e-6);  // the bound stays meaningful
  }
}

// The hull of 24 random points on a sphere (Qhull; its polygonal faces fan-triangulated, so
// with flat diagonals), spheres at random outside it within the threshold: exactly one contact,
// at the closest point of the whole surface (the least distance over all triangles, by the
// closest-point routine tested against brute force in triangle_mesh_test.cpp).
TEST(MeshContacts, ConvexHullGivesOneContactAtTheClosestPoint) {
  std::mt19937_64 rng(77);
  std::normal_distribution<double> g;
  for (int hull = 0; hull < 5; ++hull) {
    std::vector<Vec3> points;
    for (int k = 0; k < 24; ++k) points.push_back(Vec3(g(rng), g(rng), g(rng)).normalized());
    const body::ConvexPolyhedron p = body::convex_hull(points, "test");
    std::vector<MeshTriangle> triangles;
    for (const body::PolyhedronFace& f : p.faces)
      for (std::size_t k = 1; k + 1 < f.loop.size(); ++k)
        triangles.push_back({f.loop[0], f.loop[k], f.loop[k + 1]});
    const TriangleMesh mesh(p.vertices, triangles);
    EXPECT_EQ(mesh.inconsistent_edges(), 0u);
    const double r = 0.2, h = 0.02;
    std::uniform_real_distribution<double> out(0.95, 1.0 + r + h);
    int tested = 0;
    for (int attempt = 0; attempt < 20000 && tested < 2000; ++attempt) {
      const Vec3 c = out(rng) * Vec3(g(rng), g(rng), g(rng)).normalized();
      double d = std::numeric_limits<double>::infinity();
      Vec3 q;
      for (std::int32_t t = 0; t < std::int32_t(mesh.triangle_count()); ++t) {
        const Vec3 x =
            closest_point_on_triangle(c, mesh.corner(t, 0), mesh.corner(t, 1), mesh.corner(t, 2))
                .point;
        if ((c - x).norm() < d) d = (c - x).norm(), q = x;
      }
      double outside = -1.0;  // > 0 outside: inside, the surface is concave (seen from c)
      for (const body::PolyhedronFace& f : p.faces)
        outside = std::max(outside, f.normal.dot(c) - f.offset);
      if (!(outside > 0.0 && d > 0.1 * r && d < r + 0.99 * h)) continue;
      ++tested;
      const auto found = sphere_mesh_contacts(mesh, c, r, h);
      ASSERT_EQ(found.size(), 1u) << "hull " << hull << " centre " << c.transpose();
      EXPECT_NEAR(found[0].geometry.gap, d - r, kTol);
      expect_vec(found[0].geometry.normal, (c - q) / d);
      expect_vec(found[0].geometry.point, q);
    }
    EXPECT_EQ(tested, 2000);
  }
}

// A placed mesh wall (body::Mesh: the mesh turned by q and moved by p) gives the contacts of the
// mesh in its own frame, taken out by the same placement: gaps equal, points and normals turned
// and moved, to the rounding of one rotation (a few ε of the scene's size, 10).
TEST(MeshWall, PlacedMeshGivesItsOwnFramesContactsPlaced) {
  std::mt19937_64 rng(41);
  std::normal_distribution<double> g;
  const Soup s = tessellated_square(3.0, 60, rng);
  auto mesh = std::make_shared<const TriangleMesh>(s.vertices, s.triangles);
  GlobalBody wall;
  wall.parts.push_back(
      Mesh{mesh, Vec3(g(rng), g(rng), g(rng)), Quat(g(rng), g(rng), g(rng), g(rng)).normalized()});
  const Mesh& placed = std::get<Mesh>(wall.parts[0]);
  std::uniform_real_distribution<double> across(-2.0, 2.0), up(-0.45, 0.45);
  int compared = 0;
  for (int i = 0; i < 300; ++i) {
    const Vec3 local(across(rng), across(rng), up(rng));
    const Vec3 centre = placed.to_world(local);
    const auto expected = sphere_mesh_contacts(*mesh, placed.to_mesh(centre), 0.4, 0.1);
    ContactGeometry found[8];
    const std::size_t n = sphere_global(centre, 0.4, wall, 0.1, found, 8);
    ASSERT_EQ(n, expected.size());
    for (std::size_t c = 0; c < n; ++c, ++compared) {
      EXPECT_EQ(found[c].gap, expected[c].geometry.gap);
      expect_vec(found[c].normal, placed.orientation * expected[c].geometry.normal);
      expect_vec(found[c].point, placed.to_world(expected[c].geometry.point));
    }
    // The distance to the placed surface is the centre's to the plane (|z| in the mesh frame).
    EXPECT_NEAR(signed_distance(wall.parts[0], centre), std::abs(local.z()), kTol);
  }
  EXPECT_GT(compared, 250);
}

// Moving and turning a mesh wall moves its placement, never its triangles: translated copies
// share the mesh and the orientation; a turn about a point moves the position with it.
TEST(MeshWall, MotionMovesThePlacement) {
  auto mesh = std::make_shared<const TriangleMesh>(test_meshes::cube_vertices(),
                                                   test_meshes::cube_triangles());
  Primitive a = Mesh{mesh, Vec3(1, 2, 3), Quat::Identity()};
  Primitive b = a;
  translate(b, Vec3(0.5, 0, 0));
  Vec3 d;
  EXPECT_TRUE(translated_copy(b, a, d));
  expect_vec(d, Vec3(0.5, 0, 0));
  const Quat q(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ()));
  rotate(b, q, Vec3::Zero());
  EXPECT_FALSE(translated_copy(b, a, d));
  expect_vec(anchor(b), Vec3(-2, 1.5, 3));
  // The cube's corner (1, 1, 1) of the mesh is now at position + q (1, 1, 1).
  expect_vec(std::get<Mesh>(b).to_world(Vec3::Ones()), Vec3(-2, 1.5, 3) + q * Vec3::Ones());
  EXPECT_NEAR(signed_distance(b, Vec3(-2, 1.5, 3) + q * Vec3(0.5, 0.5, 2.0)), 1.0, kTol);
  EXPECT_FALSE(primitive_problem(b));
  EXPECT_TRUE(primitive_problem(Primitive(Mesh{})));
}

// A rank's part of a mesh (TriangleMesh::part): a bumpy heightfield of 20 x 20 cells (convex,
// concave and saddle edges and vertices), its part the triangles whose boxes reach the square
// [−0.3, 0.3]² grown by a query's reach r + h. Spheres centred over the square, touching or
// within the threshold of the surface, get the whole mesh's contacts bit for bit: the same
// features' (renumbered), gaps, normals and points. The part keeps every kept edge's kind and
// bend, and its owned flags.
TEST(MeshPart, ContactsWithinItsReachAreTheWholeMeshsBitForBit) {
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> bump(-0.04, 0.04);
  constexpr int kCells = 20;
  std::vector<Vec3> corners;
  std::vector<MeshTriangle> cells;
  for (int j = 0; j <= kCells; ++j)
    for (int i = 0; i <= kCells; ++i)
      corners.emplace_back(-1.0 + 0.1 * i, -1.0 + 0.1 * j, bump(rng));
  for (int j = 0; j < kCells; ++j)
    for (int i = 0; i < kCells; ++i) {
      const int a = j * (kCells + 1) + i;
      cells.push_back({a, a + 1, a + kCells + 2});
      cells.push_back({a, a + kCells + 2, a + kCells + 1});
    }
  const TriangleMesh whole(corners, cells);
  const double r = 0.07, h = 0.01, reach = r + h, half = 0.3;
  std::vector<std::int32_t> kept;
  std::vector<bool> owned;
  for (std::int32_t t = 0; t < std::int32_t(whole.triangle_count()); ++t) {
    Aabb box;
    for (int k = 0; k < 3; ++k) box.grow(whole.corner(t, k));
    if (box.lo.x() > half + reach || box.hi.x() < -half - reach || box.lo.y() > half + reach ||
        box.hi.y() < -half - reach)
      continue;
    kept.push_back(t);
    owned.push_back(t % 3 == 0);
  }
  const TriangleMesh part = whole.part(kept, owned);
  ASSERT_EQ(part.triangle_count(), kept.size());
  ASSERT_LT(part.triangle_count(), whole.triangle_count() / 2);
  EXPECT_EQ(part.whole_triangle_count(), whole.triangle_count());
  EXPECT_EQ(part.length_scale(), whole.length_scale());
  for (std::int32_t k = 0; k < std::int32_t(kept.size()); ++k) {
    const std::int32_t t = kept[std::size_t(k)];
    EXPECT_EQ(part.owns(k), owned[std::size_t(k)]);
    EXPECT_EQ(part.source_triangle(k), whole.source_triangle(t));
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(part.corner(k, c), whole.corner(t, c));
      EXPECT_EQ(part.edge(part.triangle_edge(k, c)).kind,
                whole.edge(whole.triangle_edge(t, c)).kind);
      EXPECT_EQ(part.edge(part.triangle_edge(k, c)).bend,
                whole.edge(whole.triangle_edge(t, c)).bend);
      EXPECT_EQ(part.vertex_kind(part.triangle(k)[std::size_t(c)]),
                whole.vertex_kind(whole.triangle(t)[std::size_t(c)]));
    }
  }
  std::uniform_real_distribution<double> across(-half, half), height(-0.05, 0.05 + reach);
  std::size_t contacts = 0, several = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Vec3 c(across(rng), across(rng), height(rng));
    const auto a = sphere_mesh_contacts(whole, c, r, h);
    const auto b = sphere_mesh_contacts(part, c, r, h);
    ASSERT_EQ(a.size(), b.size()) << "centre " << c.transpose();
    contacts += a.size();
    several += a.size() > 1;
    for (std::size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].geometry.gap, b[k].geometry.gap);
      EXPECT_EQ(a[k].geometry.normal, b[k].geometry.normal);
      EXPECT_EQ(a[k].geometry.point, b[k].geometry.point);
      EXPECT_EQ(a[k].feature.kind, b[k].feature.kind);
      EXPECT_EQ(a[k].triangle, kept[std::size_t(b[k].triangle)]);
    }
  }
  EXPECT_GT(contacts, 2000u);  // the test sees contacts, and of several features at once
  EXPECT_GT(several, 50u);
}

// Capsules (issue 37 with issue 40's walls). Lying on a tessellated plane, tilted or flat, the
// capsule has the plane's contacts: its two end spheres', to the rounding (kTol), however the
// plane is cut; no interior contact (every edge of a plane is flat).
TEST(CapsuleMesh, OnATessellatedPlaneHasThePlanesEndContacts) {
  std::mt19937_64 rng(9);
  const Soup s = tessellated_square(2.0, 150, rng);
  const TriangleMesh mesh(s.vertices, s.triangles);
  const body::HalfSpace plane{Vec3::Zero(), Vec3::UnitZ()};
  std::uniform_real_distribution<double> across(-1.2, 1.2), angle(0.0, 2.0 * std::numbers::pi),
      lift(-0.01, 0.06), tilt(-0.05, 0.05);
  const double r = 0.2, h = 0.05, half = 0.4;
  int contacts = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double phi = angle(rng);
    const Vec3 axis = Vec3(std::cos(phi), std::sin(phi), tilt(rng)).normalized();
    const Vec3 c(across(rng), across(rng), r + lift(rng));
    const Vec3 a = c - half * axis, b = c + half * axis;
    ContactGeometry expected[kCapsulePrimitiveContacts];
    const std::size_t n = capsule_primitive(a, b, r, plane, h, expected);
    const auto found = [&] {
      std::vector<MeshContact> out;
      MeshQueryScratch scratch;
      capsule_mesh_contacts(mesh, a, b, r, h, out, scratch);
      return out;
    }();
    ASSERT_TRUE(same_contacts(found, expected, n)) << "trial " << trial;
    contacts += int(n);
  }
  EXPECT_GT(contacts, 2000);
}

// Random capsules around the closed unit cube, within reach of it: the analytic box's contacts
// (capsule_primitive: the end spheres', and the interior point of least distance, found by
// bisection), where the box's have one interior point across an edge or over a corner and the
// mesh's the convex edge's or vertex's. Matched by their spheres' centres: the same number, gaps to 1e-9 (the
// bisection's bracket), normals and points to 1e-6 (an interior contact's point moves along
// the edge by the bisection's error over the angle between segment and edge).
TEST(CapsuleMesh, AroundAClosedCubeHasTheBoxsContacts) {
  const TriangleMesh cube = unit_cube();
  const body::Box box{Vec3::Constant(0.5), Vec3::Constant(0.5), Quat::Identity()};
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(-0.5, 1.5);
  std::normal_distribution<double> g;
  const double r = 0.15, h = 0.05, half = 0.35;
  int tested = 0, interior = 0;
  while (tested < 3000) {
    const Vec3 c(u(rng), u(rng), u(rng));
    const Vec3 axis = Vec3(g(rng), g(rng), g(rng)).normalized();
    const Vec3 a = c - half * axis, b = c + half * axis;
    ContactGeometry expected[kCapsulePrimitiveContacts];
    const std::size_t n = capsule_primitive(a, b, r, box, h, expected);
    // Apart, or overlapping by half a radius (the segment itself may be in the box, whose
    // inside is solid; a mesh is a surface: a capsule's axis never crosses a wall).
    if (n == 0 || std::any_of(expected, expected + n, [&](auto& e) { return e.gap < -0.5 * r; }))
      continue;
    ++tested;
    std::vector<MeshContact> found;
    MeshQueryScratch scratch;
    capsule_mesh_contacts(cube, a, b, r, h, found, scratch);
    ASSERT_EQ(found.size(), n) << "a " << a.transpose() << " b " << b.transpose();
    interior += n == 3 || (n == 1 && (expected[0].point1() - a).norm() > r + 1e-9 &&
                           (expected[0].point1() - b).norm() > r + 1e-9);
    for (std::size_t k = 0; k < n; ++k) {
      // By the centre of the sphere each is of (an end's and an interior point's can share
      // their witness point on the mesh, a vertex).
      const auto centre = [&](const ContactGeometry& c) {
        return c.point + (c.gap + r) * c.normal;
      };
      const auto match = std::min_element(found.begin(), found.end(), [&](auto& x, auto& y) {
        return (centre(x.geometry) - centre(expected[k])).norm() <
               (centre(y.geometry) - centre(expected[k])).norm();
      });
      EXPECT_NEAR(match->geometry.gap, expected[k].gap, 1e-9);
      expect_vec(match->geometry.normal, expected[k].normal, 1e-6);
      expect_vec(match->geometry.point, expected[k].point, 1e-6);
    }
  }
  EXPECT_GT(interior, 100);  // interior contacts are among them
}

// Across the ridge of a roof (two slopes of 20° meeting along y at x = 0): the end spheres
// clear the slopes, one contact at the ridge, from the ridge to the axis's closest point.
TEST(CapsuleMesh, AcrossARidgeTouchesItAtTheCrossing) {
  const double s = std::tan(20.0 * std::numbers::pi / 180.0);
  const std::vector<Vec3> v{{-2, -2, -2 * s}, {0, -2, 0},      {0, 2, 0},
                            {-2, 2, -2 * s},  {2, -2, -2 * s}, {2, 2, -2 * s}};
  const TriangleMesh roof(v, {{0, 1, 2}, {0, 2, 3}, {1, 4, 5}, {1, 5, 2}});
  const double r = 0.1, h = 0.01, gap = 0.004;
  const Vec3 a(-0.5, 0.3, r + gap), b(0.7, -0.1, r + gap);
  const auto found = [&] {
    std::vector<MeshContact> out;
    MeshQueryScratch scratch;
    capsule_mesh_contacts(roof, a, b, r, h, out, scratch);
    return out;
  }();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].feature.kind, MeshFeatureKind::edge);
  EXPECT_NEAR(found[0].geometry.gap, gap, kTol);
  expect_vec(found[0].geometry.normal, Vec3::UnitZ());
  expect_vec(found[0].geometry.point, Vec3(0.0, 0.3 - 0.4 * 0.5 / 1.2, 0.0));
}

// Boxes (issue 37 with issue 40's walls). Near a tessellated plane, resting, tilted, pressed in
// or within the threshold: the plane's contacts (its vertices within threshold), to the
// rounding, however the plane is cut.
TEST(PolyhedronMesh, BoxOnATessellatedPlaneHasThePlanesContacts) {
  std::mt19937_64 rng(31);
  const Soup s = tessellated_square(2.0, 150, rng);
  const TriangleMesh mesh(s.vertices, s.triangles);
  const body::HalfSpace plane{Vec3::Zero(), Vec3::UnitZ()};
  const body::ConvexPolyhedron brick = body::box_polyhedron(Vec3(0.3, 0.2, 0.1));
  std::uniform_real_distribution<double> across(-1.2, 1.2),
      angle(-std::numbers::pi, std::numbers::pi), tilt(-0.2, 0.2), lift(-0.02, 0.06);
  const double h = 0.05;
  int contacts = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Quat q = Quat(Eigen::AngleAxisd(angle(rng), Vec3::UnitZ())) *
                   Quat(Eigen::AngleAxisd(tilt(rng), Vec3::UnitX())) *
                   Quat(Eigen::AngleAxisd(tilt(rng), Vec3::UnitY()));
    PlacedPolyhedron p;
    p.place(brick, Vec3(across(rng), across(rng), 0.0), q.toRotationMatrix());
    double lowest = std::numeric_limits<double>::infinity();
    for (const Vec3& v : p.vertices) lowest = std::min(lowest, v.z());
    p.place(brick, Vec3(p.centre.x(), p.centre.y(), lift(rng) - lowest), q.toRotationMatrix());
    ContactGeometry expected[kPolyhedronPrimitiveContacts];
    const std::size_t n = polyhedron_primitive(p, plane, h, expected);
    std::vector<MeshContact> found;
    MeshQueryScratch scratch;
    polyhedron_mesh_contacts(mesh, p, h, found, scratch);
    ASSERT_TRUE(same_contacts(found, expected, n)) << "trial " << trial;
    contacts += int(n);
  }
  EXPECT_GT(contacts, 3000);
}

// A box lying across the ridge of a roof (slopes of 20° meeting along y at x = 0), its bottom
// face a gap g above the ridge: its two bottom edges across the ridge touch it, two edge–edge
// contacts at (0, ±0.3, 0), normal +z, gap g; its vertices clear the slopes.
TEST(PolyhedronMesh, BoxAcrossARidgeRestsOnTwoEdgeContacts) {
  const double s = std::tan(20.0 * std::numbers::pi / 180.0);
  const std::vector<Vec3> v{{-2, -2, -2 * s}, {0, -2, 0},      {0, 2, 0},
                            {-2, 2, -2 * s},  {2, -2, -2 * s}, {2, 2, -2 * s}};
  const TriangleMesh roof(v, {{0, 1, 2}, {0, 2, 3}, {1, 4, 5}, {1, 5, 2}});
  const body::ConvexPolyhedron box = body::box_polyhedron(Vec3(0.5, 0.3, 0.2));
  PlacedPolyhedron p;
  const double gap = 0.004;
  p.place(box, Vec3(0.1, 0.0, 0.2 + gap), Mat3::Identity());
  std::vector<MeshContact> found;
  MeshQueryScratch scratch;
  polyhedron_mesh_contacts(roof, p, 0.01, found, scratch);
  ASSERT_EQ(found.size(), 2u);
  for (const MeshContact& c : found) {
    EXPECT_EQ(c.feature.kind, MeshFeatureKind::edge);
    EXPECT_NEAR(c.geometry.gap, gap, kTol);
    expect_vec(c.geometry.normal, Vec3::UnitZ());
    EXPECT_NEAR(std::abs(c.geometry.point.y()), 0.3, kTol);
    EXPECT_NEAR(c.geometry.point.x(), 0.0, kTol);
  }
}

// A box over the tip of a square pyramid (apex at the origin, slopes of 45°): one face–vertex
// contact at the tip, normal +z, gap the height of the box's bottom face; pressed in by d, the
// same with gap −d.
TEST(PolyhedronMesh, PyramidTipUnderABoxFaceIsOneContact) {
  const std::vector<Vec3> v{{0, 0, 0}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, -1}, {1, -1, -1}};
  const TriangleMesh pyramid(v, {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 1}});
  const body::ConvexPolyhedron box = body::box_polyhedron(Vec3(0.3, 0.3, 0.2));
  for (const double gap : {0.004, -0.003}) {
    PlacedPolyhedron p;
    p.place(box, Vec3(0.05, 0.02, 0.2 + gap), Mat3::Identity());
    std::vector<MeshContact> found;
    MeshQueryScratch scratch;
    polyhedron_mesh_contacts(pyramid, p, 0.01, found, scratch);
    ASSERT_EQ(found.size(), 1u) << gap;
    EXPECT_EQ(found[0].feature.kind, MeshFeatureKind::vertex);
    EXPECT_NEAR(found[0].geometry.gap, gap, kTol);
    expect_vec(found[0].geometry.normal, Vec3::UnitZ());
    expect_vec(found[0].geometry.point, Vec3::Zero());
  }
}

// Ellipsoids (issue 37 with issue 40's walls). Over a tessellated plane, at random orientations,
// touching, pressed in or within the threshold: one contact, the plane's, to the rounding.
TEST(EllipsoidMesh, OnATessellatedPlaneHasThePlanesContact) {
  std::mt19937_64 rng(41);
  const Soup s = tessellated_square(2.0, 150, rng);
  const TriangleMesh mesh(s.vertices, s.triangles);
  const body::HalfSpace plane{Vec3::Zero(), Vec3::UnitZ()};
  std::uniform_real_distribution<double> across(-1.2, 1.2), lift(-0.01, 0.045);
  std::normal_distribution<double> g;
  const double h = 0.05;
  int contacts = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Quat q = Quat(Eigen::Vector4d(g(rng), g(rng), g(rng), g(rng)).normalized());
    PlacedEllipsoid e(Vec3(across(rng), across(rng), 0.0), q.toRotationMatrix(),
                      Vec3(0.3, 0.2, 0.12));
    const double lowest = e.support(Vec3(0, 0, -1)).z();
    e = PlacedEllipsoid(Vec3(e.centre.x(), e.centre.y(), lift(rng) - lowest), e.rotation,
                        e.semi_axes);
    ContactGeometry expected[kEllipsoidPrimitiveContacts];
    const std::size_t n = ellipsoid_primitive(e, plane, h, expected);
    std::vector<MeshContact> found;
    MeshQueryScratch scratch;
    ellipsoid_mesh_contacts(mesh, e, h, found, scratch);
    ASSERT_TRUE(same_contacts(found, expected, n)) << "trial " << trial;
    contacts += int(n);
  }
  EXPECT_GT(contacts, 1500);
}

// Random ellipsoids around the closed unit cube, within reach of it and not deeper than a
// tenth of their smallest semi-axis: the analytic box's one contact (ellipsoid_polyhedron),
// whether it lies on a face, an edge or a corner, to GJK's polish (gaps to 1e-9, normals and
// points to 1e-6).
TEST(EllipsoidMesh, AroundAClosedCubeHasTheBoxsContact) {
  const TriangleMesh cube = unit_cube();
  const body::Box box{Vec3::Constant(0.5), Vec3::Constant(0.5), Quat::Identity()};
  std::mt19937_64 rng(43);
  std::uniform_real_distribution<double> u(-0.45, 1.45);
  std::normal_distribution<double> g;
  const double h = 0.05;
  int tested = 0, faces = 0, others = 0;
  while (tested < 2000) {
    const Quat q = Quat(Eigen::Vector4d(g(rng), g(rng), g(rng), g(rng)).normalized());
    const PlacedEllipsoid e(Vec3(u(rng), u(rng), u(rng)), q.toRotationMatrix(),
                            Vec3(0.25, 0.18, 0.12));
    ContactGeometry expected[kEllipsoidPrimitiveContacts];
    const std::size_t n = ellipsoid_primitive(e, box, h, expected);
    if (n == 0 || expected[0].gap < -0.012) continue;
    ++tested;
    std::vector<MeshContact> found;
    MeshQueryScratch scratch;
    ellipsoid_mesh_contacts(cube, e, h, found, scratch);
    ASSERT_EQ(found.size(), 1u) << "centre " << e.centre.transpose();
    EXPECT_NEAR(found[0].geometry.gap, expected[0].gap, 1e-9);
    expect_vec(found[0].geometry.normal, expected[0].normal, 1e-6);
    expect_vec(found[0].geometry.point, expected[0].point, 1e-6);
    (found[0].feature.kind == MeshFeatureKind::face ? faces : others) += 1;
  }
  EXPECT_GT(faces, 100);  // faces, and edges or corners
  EXPECT_GT(others, 100);
}
