// Triangle meshes of the shaped particles' surfaces (see granite/io/shape_surface.hpp).
#include "granite/io/shape_surface.hpp"

#include <cmath>
#include <map>
#include <utility>

namespace granite::io {
namespace {

using Triangle = std::array<std::int64_t, 3>;

// The regular icosahedron: vertices (0, ±1, ±φ) and their cyclic permutations, φ the golden
// ratio, on the unit sphere; 20 faces.
UnitSphereMesh icosahedron() {
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  UnitSphereMesh m;
  m.vertices = {{-1, phi, 0}, {1, phi, 0}, {-1, -phi, 0}, {1, -phi, 0},
                {0, -1, phi}, {0, 1, phi}, {0, -1, -phi}, {0, 1, -phi},
                {phi, 0, -1}, {phi, 0, 1}, {-phi, 0, -1}, {-phi, 0, 1}};
  for (Vec3& v : m.vertices) v.normalize();
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                 {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                 {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                 {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  return m;
}

// Each triangle split into four at its edges' midpoints, pushed out onto the unit sphere
// (a midpoint shared by two triangles is one vertex).
UnitSphereMesh subdivide(const UnitSphereMesh& in) {
  UnitSphereMesh out{in.vertices, {}};
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> midpoint;
  auto middle = [&](std::int64_t a, std::int64_t b) {
    const auto key = std::minmax(a, b);
    const auto [it, added] = midpoint.try_emplace(key, std::int64_t(out.vertices.size()));
    if (added) out.vertices.push_back((in.vertices[a] + in.vertices[b]).normalized());
    return it->second;
  };
  for (const Triangle& t : in.triangles) {
    const std::int64_t ab = middle(t[0], t[1]), bc = middle(t[1], t[2]), ca = middle(t[2], t[0]);
    out.triangles.insert(out.triangles.end(),
                         {{t[0], ab, ca}, {ab, t[1], bc}, {ca, bc, t[2]}, {ab, bc, ca}});
  }
  return out;
}

// Turns every triangle counter-clockwise seen from outside: (b - a) × (c - a) · a > 0.
void orient_outward(UnitSphereMesh& m) {
  for (Triangle& t : m.triangles) {
    const Vec3 &a = m.vertices[t[0]], &b = m.vertices[t[1]], &c = m.vertices[t[2]];
    if ((b - a).cross(c - a).dot(a + b + c) < 0) std::swap(t[1], t[2]);
  }
}

const UnitSphereMesh& standard_icosphere() {
  static const UnitSphereMesh mesh = icosphere(kIcosphereSubdivisions);
  return mesh;
}

// A part of radius r centred at p in the body frame of a body at x turned by R: the unit
// icosphere's vertices u at x + R (p + r u), so that the facets turn with the body.
void append_sphere(const Vec3& x, const Mat3& rotation, const body::SpherePart& part, BodyId id,
                   ShapeSurfaces& out) {
  const UnitSphereMesh& unit = standard_icosphere();
  const auto first = std::int64_t(out.vertices.size());
  for (const Vec3& u : unit.vertices)
    out.vertices.push_back(x + rotation * (part.position + part.radius * u));
  for (const Triangle& t : unit.triangles) {
    out.triangles.push_back({first + t[0], first + t[1], first + t[2]});
    out.id.push_back(id);
  }
}

// An ellipsoid of semi-axes D: the unit icosphere's vertices u at x + R D u (a linear map of
// positive determinant keeps the triangles outward).
void append_ellipsoid(const Vec3& x, const Mat3& rotation, const Vec3& semi_axes, BodyId id,
                      ShapeSurfaces& out) {
  const UnitSphereMesh& unit = standard_icosphere();
  const auto first = std::int64_t(out.vertices.size());
  for (const Vec3& u : unit.vertices)
    out.vertices.push_back(x + rotation * semi_axes.cwiseProduct(u));
  for (const Triangle& t : unit.triangles) {
    out.triangles.push_back({first + t[0], first + t[1], first + t[2]});
    out.id.push_back(id);
  }
}

// A capsule of radius r around the body-frame segment from −h to +h on x: the unit icosphere
// turned by a fixed small rotation (so that no vertex lies on its equator u_x = 0), its
// vertices u placed at r u ± h e_x by the sign of u_x. The two half-spheres become the caps and
// the triangles across the equator the cylinder between them.
void append_capsule(const Vec3& x, const Mat3& rotation, double r, double h, BodyId id,
                    ShapeSurfaces& out) {
  const UnitSphereMesh& unit = standard_icosphere();
  static const Mat3 tilt =
      Eigen::AngleAxisd(0.1, Vec3(0.3, 0.5, 0.8).normalized()).toRotationMatrix();
  const auto first = std::int64_t(out.vertices.size());
  for (const Vec3& u0 : unit.vertices) {
    const Vec3 u = tilt * u0;
    out.vertices.push_back(x + rotation * (r * u + std::copysign(h, u.x()) * Vec3::UnitX()));
  }
  for (const Triangle& t : unit.triangles) {
    out.triangles.push_back({first + t[0], first + t[1], first + t[2]});
    out.id.push_back(id);
  }
}

// A polyhedron's faces, each as the fan of triangles from its first vertex (the loops turn
// counter-clockwise seen from outside), vertices at x + R v.
void append_polyhedron(const Vec3& x, const Mat3& rotation, const body::ConvexPolyhedron& poly,
                       BodyId id, ShapeSurfaces& out) {
  const auto first = std::int64_t(out.vertices.size());
  for (const Vec3& v : poly.vertices) out.vertices.push_back(x + rotation * v);
  for (const body::PolyhedronFace& f : poly.faces)
    for (std::size_t k = 1; k + 1 < f.loop.size(); ++k) {
      out.triangles.push_back({first + f.loop[0], first + f.loop[k], first + f.loop[k + 1]});
      out.id.push_back(id);
    }
}

}  // namespace

UnitSphereMesh icosphere(int subdivisions) {
  UnitSphereMesh m = icosahedron();
  for (int s = 0; s < subdivisions; ++s) m = subdivide(m);
  orient_outward(m);
  return m;
}

void append_shape_surface(const body::Particles& particles, const body::ShapeTable& shapes,
                          std::size_t i, ShapeSurfaces& out) {
  const body::ShapeIndex k = particles.shape[i];
  if (k == body::kSphere) return;
  const body::Shape& shape = shapes[k];
  switch (shape.kind) {
  case body::ShapeKind::clump: {  // every part a sphere, centred at x + R p
    const Mat3 rotation = particles.orientation[i].toRotationMatrix();
    for (const body::SpherePart& part : shape.parts)
      append_sphere(particles.position[i], rotation, part, particles.id[i], out);
    break;
  }
  case body::ShapeKind::capsule:
    append_capsule(particles.position[i], particles.orientation[i].toRotationMatrix(), shape.radius,
                   shape.half_length, particles.id[i], out);
    break;
  case body::ShapeKind::ellipsoid:
    append_ellipsoid(particles.position[i], particles.orientation[i].toRotationMatrix(),
                     shape.semi_axes, particles.id[i], out);
    break;
  case body::ShapeKind::box:
  case body::ShapeKind::convex:
    append_polyhedron(particles.position[i], particles.orientation[i].toRotationMatrix(),
                      shape.polyhedron, particles.id[i], out);
    break;
  }
}

ShapeSurfaces shape_surfaces(const body::Particles& particles, const body::ShapeTable& shapes) {
  ShapeSurfaces out;
  for (std::size_t i = 0; i < particles.size(); ++i)
    append_shape_surface(particles, shapes, i, out);
  return out;
}

}  // namespace granite::io
