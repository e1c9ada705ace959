#include "granite/collision/capsule_contacts.hpp"

#include "granite/collision/mesh_contacts.hpp"
#include "granite/collision/segments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace granite::collision {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Bisection for the least signed distance along a segment stops when the bracket in t ∈ [0, 1]
// is this narrow (50 halvings): a few units in the last place of t.
constexpr double kBisectionBracket = 1e-15;
// An interior point's signed distance must be below both ends' by more than this fraction of
// r + |b − a| to make a third contact. Rounding of the signed distances is of order 1e-16 of
// the coordinates, so a capsule lying flat on a face (equal distances along it) never gets
// one; a gap difference of 1e-9 of the capsule's size is physically nil.
constexpr double kInteriorMargin = 1e-9;

// The contact of the sphere at the segment's point of least signed distance to a convex solid
// (box or solid cylinder), if that point is interior: its distance below both ends' by more
// than the margin. The signed distance of a convex solid is the supremum of the affine n·x −
// h(n) over its supporting planes, so f(t) = sd(a + t d) is convex, and its slope f'(t) =
// ∇sd·d (at a kink, the same with a subgradient: the normal sphere_primitive picks) is
// nondecreasing: negative left of the minimisers, positive right of them. Bisection on the
// slope's sign finds a minimiser to the last bits of t. (Golden section on f itself locates a
// smooth minimum only to √ε: f − min ≈ u²/2h is lost in rounding for offsets u along the
// segment below √(2hε) (h: the distance there), and the contact's normal would tilt by u/h.)
bool interior_contact(const Vec3& a, const Vec3& d, double r, const body::Primitive& primitive,
                      double threshold, ContactGeometry& out) {
  const double f0 = body::signed_distance(primitive, a);
  const double f1 = body::signed_distance(primitive, a + d), length = d.norm();
  // The signed distance is 1-Lipschitz, so f(t) >= max(f0 − t ℓ, f1 − (1 − t) ℓ) >=
  // (f0 + f1 − ℓ)/2 on the whole segment: if even that leaves a gap above threshold, stop.
  if ((f0 + f1 - length) / 2.0 - r > threshold) return false;
  ContactGeometry g;
  const auto slope = [&](double t) {
    sphere_primitive(a + t * d, r, primitive, kInfinity, g);
    return g.normal.dot(d);
  };
  if (slope(0.0) >= 0.0 || slope(1.0) <= 0.0) return false;  // least at an end
  double lo = 0.0, hi = 1.0;
  while (hi - lo > kBisectionBracket) {
    const double mid = 0.5 * (lo + hi);
    (slope(mid) < 0.0 ? lo : hi) = mid;
  }
  sphere_primitive(a + 0.5 * (lo + hi) * d, r, primitive, kInfinity, g);
  // A sphere's gap is the signed distance at its centre minus r.
  if (!(g.gap + r < std::min(f0, f1) - kInteriorMargin * (r + length))) return false;
  if (g.gap > threshold) return false;
  out = g;
  return true;
}

// Box or solid cylinder: a convex solid whose least distance along a segment may be interior.
bool is_convex_solid(const body::Primitive& primitive) {
  if (std::holds_alternative<body::Box>(primitive)) return true;
  const auto* c = std::get_if<body::Cylinder>(&primitive);
  return c && !c->inside;
}

}  // namespace

bool sphere_capsule(const Vec3& c, double rs, const Vec3& a, const Vec3& b, double rc,
                    double threshold, ContactGeometry& out) {
  const Vec3 d = b - a;
  return sphere_sphere(c, rs, a + closest_parameter(c, a, d) * d, rc, threshold, out);
}

std::size_t capsule_capsule(const Vec3& a1, const Vec3& b1, double r1, const Vec3& a2,
                            const Vec3& b2, double r2, double threshold, ContactGeometry out[2]) {
  const Vec3 d1 = b1 - a1, d2 = b2 - a2;
  const double l1 = d1.squaredNorm(), l2 = d2.squaredNorm();
  // Parallel: |d1 × d2|² = |d1|² |d2|² sin² θ below the tolerance's square.
  const double sine2 = kCapsuleParallelSine * kCapsuleParallelSine;
  if (l1 > 0.0 && l2 > 0.0 && cross(d1, d2).squaredNorm() <= sine2 * l1 * l2) {
    // Segment 2's ends projected on segment 1, as parameters s; their overlap with [0, 1].
    const double sa = (a2 - a1).dot(d1) / l1, sb = (b2 - a1).dot(d1) / l1;
    const double lo = std::max(0.0, std::min(sa, sb)), hi = std::min(1.0, std::max(sa, sb));
    // Two contacts at the overlap's ends. Along it, the distance between the segments is
    // √(δ² + u² sin² θ) (δ: the lines' distance, u: the distance along the axis from their
    // closest approach), so the least gap is missed by at most (overlap)·|sin θ|.
    if ((hi - lo) * std::sqrt(l1) > 1e-9 * (r1 + r2)) {
      std::size_t count = 0;
      for (const double s : {lo, hi}) {
        const Vec3 p = a1 + s * d1;
        count +=
            sphere_sphere(p, r1, a2 + closest_parameter(p, a2, d2) * d2, r2, threshold, out[count]);
      }
      return count;
    }
  }
  const auto [s, t] = closest_parameters(a1, d1, a2, d2);
  return sphere_sphere(a1 + s * d1, r1, a2 + t * d2, r2, threshold, out[0]) ? 1 : 0;
}

// Why the ends (and, for a convex solid, one interior point) suffice. Along the segment
// x(t) = a + t (b − a), a sphere's gap to
// - a half-space is (x − p)·n − r, affine in t: least at an end;
// - a box or solid cylinder is sd(x) − r, convex in t (interior_contact): least at an end or at
//   one interior point, found by bisection on its slope;
// - a hollow cylinder's walls: the mantle's R − ρ(x) − r, with ρ(x) = |(I − e eᵀ)(x − c)| the
//   norm of an affine function, so convex, and R − ρ concave; the caps' L ∓ h(x) − r, affine:
//   each wall's least gap is at an end. (The drum's inside is convex.)
std::size_t capsule_primitive(const Vec3& a, const Vec3& b, double r,
                              const body::Primitive& primitive, double threshold,
                              ContactGeometry out[kCapsulePrimitiveContacts]) {
  if (const auto* wall = std::get_if<body::Mesh>(&primitive))
    return capsule_mesh(a, b, r, *wall, threshold, out, kCapsulePrimitiveContacts);
  std::size_t count = sphere_part(a, r, primitive, threshold, out);
  const Vec3 d = b - a;
  if (d.squaredNorm() == 0.0) return count;  // a sphere: one end only
  count += sphere_part(b, r, primitive, threshold, out + count);
  if (is_convex_solid(primitive))
    count += interior_contact(a, d, r, primitive, threshold, out[count]) ? 1 : 0;
  return count;
}

std::size_t capsule_global(const Vec3& a, const Vec3& b, double r, const body::GlobalBody& body,
                           double threshold, ContactGeometry* out, std::size_t capacity) {
  return union_contacts<kCapsulePrimitiveContacts>(
      body, 1e-9 * r, out, capacity, [&](std::size_t k, ContactGeometry* found) {
        return capsule_primitive(a, b, r, body.parts[k], threshold, found);
      });
}

}  // namespace granite::collision
