#include "granite/collision/narrow_phase.hpp"

#include "granite/collision/contact.hpp"
#include "granite/collision/mesh_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace granite::collision {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Fills out from body 2's surface point s (its witness point), unit normal n (2 -> 1) and
// gap ξ. Body 1's witness point, s + ξ n, is derived (ContactGeometry::point1).
inline bool finish(const Vec3& s, const Vec3& n, double gap, double threshold,
                   ContactGeometry& out) {
  if (gap > threshold) return false;
  out.normal = n;
  out.gap = gap;
  out.point = s;
  return true;
}

// A point's cylinder coordinates: height h along the axis from the centre, radial offset,
// its length ρ and direction e_r (on the axis: any direction perpendicular to it).
struct CylinderCoordinates {
  double h;
  Vec3 radial;
  double rho;
  Vec3 e_r;
};
CylinderCoordinates cylinder_coordinates(const Vec3& x, const body::Cylinder& c) {
  const Vec3 d = x - c.center;
  const double h = d.dot(c.axis);
  const Vec3 radial = d - h * c.axis;
  const double rho = radial.norm();
  Vec3 e_r, o;
  if (rho > 0.0)
    e_r = radial / rho;
  else
    tangent_frame(c.axis, e_r, o);
  return {h, radial, rho, e_r};
}

}  // namespace

bool sphere_half_space(const Vec3& x, double r, const body::HalfSpace& plane, double threshold,
                       ContactGeometry& out) {
  const double height = (x - plane.point).dot(plane.normal);
  return finish(x - height * plane.normal, plane.normal, height - r, threshold, out);
}

bool sphere_box(const Vec3& x, double r, const body::Box& box, double threshold,
                ContactGeometry& out) {
  const Vec3 local = box.orientation.conjugate() * (x - box.center);
  const Vec3& h = box.half_extents;
  const Vec3 clamped = local.cwiseMax(-h).cwiseMin(h);
  const Vec3 d = local - clamped;
  const double dist2 = d.squaredNorm();
  if (dist2 > 0.0) {  // centre outside: closest point on the surface is the clamped point
    const double reach = r + threshold;
    if (dist2 > reach * reach) return false;
    const double dist = std::sqrt(dist2);
    const Vec3 n = box.orientation * Vec3(d / dist);
    return finish(box.center + box.orientation * clamped, n, dist - r, threshold, out);
  }
  // Centre inside (or on the surface): leave through the nearest face.
  const Vec3 depth = h - local.cwiseAbs();
  int k = 0;
  depth.minCoeff(&k);
  const double sign = local[k] < 0.0 ? -1.0 : 1.0;
  Vec3 n_local = Vec3::Zero();
  n_local[k] = sign;
  Vec3 surface = local;
  surface[k] = sign * h[k];
  return finish(box.center + box.orientation * surface, box.orientation * n_local, -depth[k] - r,
                threshold, out);
}

bool sphere_cylinder(const Vec3& x, double r, const body::Cylinder& c, double threshold,
                     ContactGeometry& out) {
  const auto [h, radial, rho, e_r] = cylinder_coordinates(x, c);
  const double L = c.half_length, R = c.radius;
  if (std::abs(h) <= L && rho <= R) {  // centre inside: nearest of side and cap
    const double side = R - rho, cap = L - std::abs(h);
    if (side < cap) return finish(c.center + h * c.axis + R * e_r, e_r, -side - r, threshold, out);
    const double sign = h < 0.0 ? -1.0 : 1.0;
    return finish(c.center + sign * L * c.axis + radial, sign * c.axis, -cap - r, threshold, out);
  }
  const Vec3 q = c.center + std::clamp(h, -L, L) * c.axis + std::min(rho, R) * e_r;
  const Vec3 dq = x - q;
  const double dist = dq.norm();  // > 0 since the centre is outside
  return finish(q, dq / dist, dist - r, threshold, out);
}

std::size_t sphere_inside_cylinder(const Vec3& x, double r, const body::Cylinder& c,
                                   double threshold, ContactGeometry out[3]) {
  const auto [h, radial, rho, e_r] = cylinder_coordinates(x, c);
  const double L = c.half_length, R = c.radius;
  std::size_t count = 0;
  // Mantle: the wall point beside the centre (clamped onto the mantle), normal towards the axis.
  count += finish(c.center + std::clamp(h, -L, L) * c.axis + R * e_r, -e_r, R - rho - r, threshold,
                  out[count]);
  // Caps: the wall point above/below the centre (clamped onto the cap), normal into the drum.
  const Vec3 on_cap = std::min(rho, R) * e_r;
  for (const double side : {1.0, -1.0})
    count += finish(c.center + side * L * c.axis + on_cap, -side * c.axis, L - side * h - r,
                    threshold, out[count]);
  return count;
}

std::size_t sphere_part(const Vec3& x, double r, const body::Primitive& primitive, double threshold,
                        ContactGeometry out[3]) {
  if (const auto* m = std::get_if<body::Mesh>(&primitive))
    return sphere_mesh(x, r, *m, threshold, out, 3);
  const auto* c = std::get_if<body::Cylinder>(&primitive);
  if (c && c->inside) return sphere_inside_cylinder(x, r, *c, threshold, out);
  return sphere_primitive(x, r, primitive, threshold, out[0]) ? 1 : 0;
}

bool sphere_primitive(const Vec3& x, double r, const body::Primitive& primitive, double threshold,
                      ContactGeometry& out) {
  switch (primitive.index()) {
  case 0:
    return sphere_half_space(x, r, std::get<body::HalfSpace>(primitive), threshold, out);
  case 1:
    return sphere_box(x, r, std::get<body::Box>(primitive), threshold, out);
  case 3: {  // the mesh's contact of least gap
    constexpr std::size_t kMost = 8;
    ContactGeometry found[kMost];
    const std::size_t n =
        sphere_mesh(x, r, std::get<body::Mesh>(primitive), threshold, found, kMost);
    if (n == 0) return false;
    out = *std::min_element(found, found + n,
                            [](const auto& a, const auto& b) { return a.gap < b.gap; });
    return true;
  }
  default: {
    const auto& c = std::get<body::Cylinder>(primitive);
    if (!c.inside) return sphere_cylinder(x, r, c, threshold, out);
    ContactGeometry walls[3];  // the nearest of the mantle and the caps
    const std::size_t n = sphere_inside_cylinder(x, r, c, kInfinity, walls);
    const ContactGeometry* nearest = std::min_element(
        walls, walls + n, [](const auto& a, const auto& b) { return a.gap < b.gap; });
    return finish(nearest->point, nearest->normal, nearest->gap, threshold, out);
  }
  }
}

bool kept_on_union(const ContactGeometry& g, std::size_t k, const body::GlobalBody& body,
                   const ContactGeometry* out, std::size_t count, double buried) {
  for (std::size_t m = 0; m < body.parts.size(); ++m)
    if (m != k && body::signed_distance(body.parts[m], g.point) < -buried) return false;
  // Members sharing a face (e.g. flush tops) report the same point twice: keep one.
  for (std::size_t c = 0; c < count; ++c)
    if ((out[c].point - g.point).squaredNorm() <= buried * buried &&
        out[c].normal.dot(g.normal) > 1.0 - 1e-12)
      return false;
  return true;
}

std::size_t sphere_global(const Vec3& x, double r, const body::GlobalBody& body, double threshold,
                          ContactGeometry* out, std::size_t capacity) {
  // A mesh wall is one body of its own (the configuration admits none in a union).
  if (const auto* m = std::get_if<body::Mesh>(&body.parts.front()); m && !body.is_union())
    return sphere_mesh(x, r, *m, threshold, out, capacity);
  return union_contacts<3>(body, 1e-9 * r, out, capacity,
                           [&](std::size_t k, ContactGeometry* found) {
                             return sphere_part(x, r, body.parts[k], threshold, found);
                           });
}

}  // namespace granite::collision
