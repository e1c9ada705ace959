#pragma once
// Analytic narrow phase: one pure function per shape pair, sphere (body 1) against the other
// shape (body 2). Each fills a ContactGeometry and returns true if the signed gap is below
// `threshold` (threshold >= 0; 0 reports touching and penetrating pairs only).
//
// Conventions for every pair: normal n is a unit vector from body 2 to body 1; gap ξ is the
// signed distance between the surfaces along n (negative = penetration); point is the witness
// point on body 2's surface, and body 1's witness point (on the sphere's surface) is point + ξ n.
// Each body's lever arm is measured from its own witness point (as Chrono and Bullet do), so a
// contact found with a positive gap acts on the surfaces, not in the middle of the gap.
#include "granite/body/global_body.hpp"
#include "granite/core/types.hpp"

#include <cmath>

namespace granite::collision {

struct ContactGeometry {
  Vec3 point;  // witness point on body 2's surface
  Vec3 normal;
  double gap;
  /// Witness point on body 1's surface: point + ξ n.
  Vec3 point1() const { return point + gap * normal; }
};

/// Inline: the narrow phase over a neighbour list's candidates rejects most of them here.
inline bool sphere_sphere(const Vec3& x1, double r1, const Vec3& x2, double r2, double threshold,
                          ContactGeometry& out) {
  const Vec3 d = x1 - x2;
  const double reach = r1 + r2 + threshold;
  const double dist2 = d.squaredNorm();
  if (dist2 > reach * reach) return false;
  const double dist = std::sqrt(dist2);
  const double gap = dist - r1 - r2;
  if (gap > threshold) return false;
  // Coincident centres have no defined normal; any unit vector is as good as another.
  out.normal = dist > 0.0 ? Vec3(d / dist) : Vec3(Vec3::UnitZ());
  out.gap = gap;
  out.point = x2 + r2 * out.normal;
  return true;
}
bool sphere_half_space(const Vec3& x, double r, const body::HalfSpace& plane, double threshold,
                       ContactGeometry& out);
bool sphere_box(const Vec3& x, double r, const body::Box& box, double threshold,
                ContactGeometry& out);
bool sphere_cylinder(const Vec3& x, double r, const body::Cylinder& cylinder, double threshold,
                     ContactGeometry& out);
/// Sphere inside a hollow cylinder (Cylinder::inside: the solid is the cylinder's outside):
/// up to three contacts, with the mantle (normal towards the axis, witness point R from the
/// axis at the sphere's height clamped to the caps) and with each cap (normal into the drum,
/// witness point on the cap under the sphere's centre clamped to the rim), each reported if
/// its gap is below threshold. Gaps: R − ρ − r, L − h − r, L + h − r (ρ, h: the centre's
/// distance from the axis and height along it from the centre). Returns their number.
std::size_t sphere_inside_cylinder(const Vec3& x, double r, const body::Cylinder& cylinder,
                                   double threshold, ContactGeometry out[3]);
/// Every contact of a sphere with one primitive: sphere_inside_cylinder for a hollow cylinder,
/// else sphere_primitive's one. Returns their number (at most 3).
std::size_t sphere_part(const Vec3& x, double r, const body::Primitive& primitive, double threshold,
                        ContactGeometry out[3]);
/// Dispatch over the primitive kind (a hollow cylinder's nearest wall is not handled here:
/// use sphere_part).
bool sphere_primitive(const Vec3& x, double r, const body::Primitive& primitive, double threshold,
                      ContactGeometry& out);

/// Whether contact g, found on member k of `body`, is kept among the `count` already in out:
/// not buried deeper than `buried` inside another member (internal to the union), nor a
/// repeat of a kept one (same point within `buried`, same normal: members sharing a face).
bool kept_on_union(const ContactGeometry& g, std::size_t k, const body::GlobalBody& body,
                   const ContactGeometry* out, std::size_t count, double buried);

/// The contacts of a shape with a global body (one primitive or a union): member(k, found)
/// writes the shape's contacts with member k into found (at most N) and returns their number;
/// those kept_on_union are written to out, up to `capacity`. Returns their number. `buried`: a
/// point deeper than this inside another member is internal, and two points closer than this
/// with the same normal are one (a fraction of the shape's size).
template <std::size_t N, class Member>
std::size_t union_contacts(const body::GlobalBody& body, double buried, ContactGeometry* out,
                           std::size_t capacity, const Member& member) {
  std::size_t count = 0;
  for (std::size_t k = 0; k < body.parts.size() && count < capacity; ++k) {
    ContactGeometry found[N];
    const std::size_t n = member(k, found);
    for (std::size_t f = 0; f < n && count < capacity; ++f)
      if (kept_on_union(found[f], k, body, out, count, buried)) out[count++] = found[f];
  }
  return count;
}

/// Sphere against a global body (single primitive or union). Writes up to `capacity` contacts
/// (one per member whose surface is within threshold and whose contact point is not buried
/// inside another member) and returns their number.
std::size_t sphere_global(const Vec3& x, double r, const body::GlobalBody& body, double threshold,
                          ContactGeometry* out, std::size_t capacity);

}  // namespace granite::collision
