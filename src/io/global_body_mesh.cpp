// Triangle meshes of the global bodies' surfaces and their XDMF grid (see
// granite/io/global_body_mesh.hpp).
#include "granite/io/global_body_mesh.hpp"

#include "granite/body/triangle_mesh.hpp"

#include <algorithm>
#include <cmath>

namespace granite::io {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Two unit vectors that make (u, v, n) a right-handed orthonormal basis.
std::pair<Vec3, Vec3> basis_around(const Vec3& n) {
  const Vec3 helper = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 u = n.cross(helper).normalized();
  return {u, n.cross(u)};
}

class MeshBuilder {
public:
  MeshBuilder(SurfaceMesh& mesh, std::int32_t body) : mesh_(mesh), body_(body) {}

  std::int64_t point(const Vec3& x) {
    mesh_.points.push_back(x);
    return std::int64_t(mesh_.points.size()) - 1;
  }
  // A triangle of a convex solid, turned so that its normal points away from `inside` (with
  // hollow(true): towards it, the solid being the outside).
  void triangle(std::int64_t a, std::int64_t b, std::int64_t c, const Vec3& inside) {
    const auto& p = mesh_.points;
    const Vec3 normal = (p[b] - p[a]).cross(p[c] - p[a]);
    if ((normal.dot((p[a] + p[b] + p[c]) / 3.0 - inside) < 0) != hollow_) std::swap(b, c);
    mesh_.triangles.push_back({a, b, c});
    mesh_.body.push_back(body_);
  }
  // A planar convex polygon (vertices in cyclic order) as a fan of triangles.
  void polygon(const std::vector<std::int64_t>& ring, const Vec3& inside) {
    for (std::size_t k = 1; k + 1 < ring.size(); ++k)
      triangle(ring[0], ring[k], ring[k + 1], inside);
  }

  void hollow(bool on) { hollow_ = on; }

private:
  SurfaceMesh& mesh_;
  std::int32_t body_;
  bool hollow_ = false;
};

// The polygon where the plane of a half-space cuts the box: the box corners on the plane and
// the crossings of the box edges through it, in angular order about the normal.
void add_half_space(MeshBuilder& out, const body::HalfSpace& h, const Vec3& lo, const Vec3& hi) {
  std::array<Vec3, 8> corner;
  for (int i = 0; i < 8; ++i)
    corner[i] = {(i & 1) ? hi.x() : lo.x(), (i & 2) ? hi.y() : lo.y(), (i & 4) ? hi.z() : lo.z()};
  const double eps = 1e-12 * (hi - lo).norm();
  std::array<double, 8> d;
  for (int i = 0; i < 8; ++i) d[i] = (corner[i] - h.point).dot(h.normal);
  std::vector<Vec3> cut;
  for (int i = 0; i < 8; ++i)
    if (std::abs(d[i]) <= eps) cut.push_back(corner[i]);
  for (int i = 0; i < 8; ++i)
    for (int bit : {1, 2, 4}) {
      const int j = i | bit;
      if (j == i) continue;  // each edge once: from the corner without the bit
      if ((d[i] < -eps && d[j] > eps) || (d[i] > eps && d[j] < -eps))
        cut.push_back(corner[i] + (corner[j] - corner[i]) * (d[i] / (d[i] - d[j])));
    }
  if (cut.size() < 3) return;
  Vec3 centre = Vec3::Zero();
  for (const Vec3& x : cut) centre += x;
  centre /= double(cut.size());
  const auto [u, v] = basis_around(h.normal);
  std::sort(cut.begin(), cut.end(), [&](const Vec3& a, const Vec3& b) {
    return std::atan2((a - centre).dot(v), (a - centre).dot(u)) <
           std::atan2((b - centre).dot(v), (b - centre).dot(u));
  });
  std::vector<std::int64_t> ring;
  for (const Vec3& x : cut) ring.push_back(out.point(x));
  out.polygon(ring, centre - h.normal);  // the solid side is behind the normal
}

void add_box(MeshBuilder& out, const body::Box& box) {
  std::array<std::int64_t, 8> c;
  for (int i = 0; i < 8; ++i) {
    const Vec3 local((i & 1) ? 1.0 : -1.0, (i & 2) ? 1.0 : -1.0, (i & 4) ? 1.0 : -1.0);
    c[i] = out.point(box.center + box.orientation * local.cwiseProduct(box.half_extents));
  }
  static constexpr int kFaces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                       {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
  for (const auto& face : kFaces)
    out.polygon({c[face[0]], c[face[1]], c[face[2]], c[face[3]]}, box.center);
}

// A hollow cylinder (inside: true) has the same surface with its normals towards the axis.
void add_cylinder(MeshBuilder& out, const body::Cylinder& cyl, int segments) {
  out.hollow(cyl.inside);
  const auto [u, v] = basis_around(cyl.axis);
  const Vec3 bottom = cyl.center - cyl.half_length * cyl.axis;
  const Vec3 top = cyl.center + cyl.half_length * cyl.axis;
  std::vector<std::int64_t> low, high;
  for (int k = 0; k < segments; ++k) {
    const double phi = 2.0 * kPi * k / segments;
    const Vec3 radial = cyl.radius * (std::cos(phi) * u + std::sin(phi) * v);
    low.push_back(out.point(bottom + radial));
    high.push_back(out.point(top + radial));
  }
  for (int k = 0; k < segments; ++k) {
    const int next = (k + 1) % segments;
    out.triangle(low[k], low[next], high[next], cyl.center);
    out.triangle(low[k], high[next], high[k], cyl.center);
  }
  out.polygon(low, cyl.center);
  out.polygon(high, cyl.center);
  out.hollow(false);
}

// The triangles of a mesh wall this rank owns and their vertices, placed (their corners in the
// file's order: the front stays).
void add_mesh(SurfaceMesh& out, const body::Mesh& wall, std::int32_t body) {
  const body::TriangleMesh& m = *wall.mesh;
  std::vector<std::int64_t> point(m.vertex_count(), -1);
  for (std::int32_t t = 0; t < std::int32_t(m.triangle_count()); ++t) {
    if (!m.owns(t)) continue;
    std::array<std::int64_t, 3> corners{};
    for (int k = 0; k < 3; ++k) {
      const auto v = std::size_t(m.triangle(t)[std::size_t(k)]);
      if (point[v] < 0) {
        point[v] = std::int64_t(out.points.size());
        out.points.push_back(wall.to_world(m.vertex(std::int32_t(v))));
      }
      corners[std::size_t(k)] = point[v];
    }
    out.triangles.push_back(corners);
    out.body.push_back(body);
  }
}

}  // namespace

SurfaceMesh global_body_mesh(const body::GlobalBodies& bodies, const Vec3& box_min,
                             const Vec3& box_max, int segments, bool analytic) {
  SurfaceMesh mesh;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    MeshBuilder out(mesh, std::int32_t(b));
    for (const body::Primitive& part : bodies[b].parts) {
      if (const auto* wall = std::get_if<body::Mesh>(&part))
        add_mesh(mesh, *wall, std::int32_t(b));
      else if (!analytic)
        continue;
      else if (const auto* h = std::get_if<body::HalfSpace>(&part))
        add_half_space(out, *h, box_min, box_max);
      else if (const auto* box = std::get_if<body::Box>(&part))
        add_box(out, *box);
      else
        add_cylinder(out, std::get<body::Cylinder>(part), std::max(3, segments));
    }
  }
  return mesh;
}

}  // namespace granite::io
