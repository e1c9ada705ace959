// The shaped particles' surface meshes (io/shape_surface.hpp): every part of a clump an
// icosphere of 42 vertices and 80 outward triangles on the part's sphere, turning with the
// body; plain spheres add nothing. A closed outward mesh encloses (1/3) sum c·n A > 0.
#include "granite/io/shape_surface.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>

namespace granite::io {
namespace {

using Triangle = std::array<std::int64_t, 3>;

// A dimer of parts of radius 1 and 0.6 (centres 1.2 apart along x) and a single sphere.
struct Scene {
  body::MaterialTable materials;
  body::ShapeTable shapes;
  body::Particles particles;
  body::ShapeIndex dimer = body::kSphere;
  Scene() {
    body::Material glass;
    glass.density = 2500.0;
    materials.add(glass);
    dimer = shapes.add_clump("dimer", {{1.0, Vec3(-0.6, 0, 0)}, {0.6, Vec3(0.6, 0, 0)}});
  }
  std::size_t add(const Vec3& x, const Quat& q, BodyId id) {
    particles.add_shaped(materials, shapes, dimer, 0, x, q, Vec3::Zero(), id);
    return particles.size() - 1;
  }
};

Vec3 area_vector(const std::vector<Vec3>& v, const Triangle& t) {  // normal × area
  return 0.5 * (v[t[1]] - v[t[0]]).cross(v[t[2]] - v[t[0]]);
}

TEST(ShapeSurface, IcosphereHas42VerticesAnd80OutwardTrianglesOnTheUnitSphere) {
  const UnitSphereMesh m = icosphere(kIcosphereSubdivisions);
  ASSERT_EQ(kIcosphereSubdivisions, 1);
  EXPECT_EQ(m.vertices.size(), 42u);
  EXPECT_EQ(m.triangles.size(), 80u);
  for (const Vec3& u : m.vertices) EXPECT_NEAR(u.norm(), 1.0, 1e-15);
  std::set<std::pair<std::int64_t, std::int64_t>> edges;  // directed: each once if closed
  double volume = 0.0;
  for (const Triangle& t : m.triangles) {
    const Vec3 a = area_vector(m.vertices, t);
    const Vec3 centre = (m.vertices[t[0]] + m.vertices[t[1]] + m.vertices[t[2]]) / 3.0;
    EXPECT_GT(a.dot(centre), 0.0);  // outward
    volume += centre.dot(a) / 3.0;
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(edges.insert({t[k], t[(k + 1) % 3]}).second);
  }
  for (const auto& [a, b] : edges) EXPECT_TRUE(edges.count({b, a})) << a << ' ' << b;
  // Inside the unit ball, and within the facets' 0.066 depth of it.
  EXPECT_LT(volume, 4.0 * M_PI / 3.0);
  EXPECT_GT(volume, 4.0 * M_PI / 3.0 * std::pow(1.0 - 0.066, 3));
  EXPECT_EQ(icosphere(0).vertices.size(), 12u);
  EXPECT_EQ(icosphere(2).triangles.size(), 320u);
}

TEST(ShapeSurface, EveryPartIsAnIcosphereOfItsRadiusAroundItsWorldCentre) {
  Scene s;
  const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized()));
  const std::size_t i = s.add(Vec3(0.3, -2.0, 5.0), q, 17);
  ShapeSurfaces out;
  append_shape_surface(s.particles, s.shapes, i, out);
  const auto& parts = s.shapes[s.dimer].parts;
  ASSERT_EQ(parts.size(), 2u);
  ASSERT_EQ(out.vertices.size(), 2 * 42u);
  ASSERT_EQ(out.triangles.size(), 2 * 80u);
  ASSERT_EQ(out.id.size(), out.triangles.size());
  const Mat3 rotation = q.toRotationMatrix();
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Vec3 centre = body::part_centre(s.particles.position[i], rotation, parts[p]);
    for (std::size_t v = 42 * p; v < 42 * (p + 1); ++v)
      EXPECT_NEAR((out.vertices[v] - centre).norm(), parts[p].radius, 1e-14) << "part " << p;
    for (std::size_t t = 80 * p; t < 80 * (p + 1); ++t)
      for (std::int64_t v : out.triangles[t]) {  // a part's triangles use its own vertices
        EXPECT_GE(v, std::int64_t(42 * p));
        EXPECT_LT(v, std::int64_t(42 * (p + 1)));
      }
  }
  for (BodyId id : out.id) EXPECT_EQ(id, 17);
}

TEST(ShapeSurface, ARotatedBodysVerticesRotateAboutItsCentreOfMass) {
  Scene s;
  const Vec3 x(1.0, 2.0, 3.0);
  const Quat q(Eigen::AngleAxisd(2.1, Vec3(-0.3, 1, 0.4).normalized()));
  const std::size_t still = s.add(x, Quat::Identity(), 0);
  const std::size_t turned = s.add(x, q, 1);
  ShapeSurfaces a, b;
  append_shape_surface(s.particles, s.shapes, still, a);
  append_shape_surface(s.particles, s.shapes, turned, b);
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  const Mat3 rotation = q.toRotationMatrix();
  for (std::size_t v = 0; v < a.vertices.size(); ++v)
    EXPECT_LT((b.vertices[v] - (x + rotation * (a.vertices[v] - x))).norm(), 1e-14) << v;
  EXPECT_EQ(a.triangles, b.triangles);
  // Not a no-op: the second part's centre moved.
  EXPECT_GT((b.vertices[42] - a.vertices[42]).norm(), 0.1);
}

TEST(ShapeSurface, SpheresAddNothingAndIndicesContinueTheMesh) {
  Scene s;
  s.particles.add_sphere(s.materials, 0, Vec3::Zero(), 0.5, Vec3::Zero(), 5);
  s.add(Vec3(4, 0, 0), Quat::Identity(), 6);
  s.particles.add_sphere(s.materials, 0, Vec3(8, 0, 0), 0.5, Vec3::Zero(), 7);
  s.add(Vec3(-4, 0, 0), Quat::Identity(), 8);
  ShapeSurfaces sphere_only;
  append_shape_surface(s.particles, s.shapes, 0, sphere_only);
  EXPECT_TRUE(sphere_only.vertices.empty() && sphere_only.triangles.empty());

  const ShapeSurfaces all = shape_surfaces(s.particles, s.shapes);
  ASSERT_EQ(all.vertices.size(), 2 * 2 * 42u);
  ASSERT_EQ(all.triangles.size(), 2 * 2 * 80u);
  std::set<std::int64_t> used;
  for (const Triangle& t : all.triangles)
    for (std::int64_t v : t) {
      ASSERT_GE(v, 0);
      ASSERT_LT(v, std::int64_t(all.vertices.size()));
      used.insert(v);
    }
  EXPECT_EQ(used.size(), all.vertices.size());  // every vertex in a triangle
  // By particle: body 6's triangles, then body 8's, each on its own vertices.
  for (std::size_t t = 0; t < all.triangles.size(); ++t) {
    const bool first = t < 160;
    EXPECT_EQ(all.id[t], first ? 6 : 8);
    for (std::int64_t v : all.triangles[t]) EXPECT_EQ(v < 84, first);
  }
}

}  // namespace
}  // namespace granite::io
