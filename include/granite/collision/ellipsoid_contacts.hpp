#pragma once
// Narrow phase of ellipsoids (body/shape.hpp), with the conventions of narrow_phase.hpp: the
// ellipsoid is body 1; the normal is a unit vector from body 2 to body 1; gap is the signed
// distance between the surfaces along it; point is the witness point on body 2's surface.
//
// The margin. An ellipsoid E of semi-axes a >= b >= c has no radius of curvature below c²/a
// (at the ends of its long axis), so a ball of radius δ <= c²/a rolls freely inside it: E is
// its inner parallel body K (the points deeper than δ) grown by δ, E = K ⊕ B(δ), and K's
// support function is E's minus δ: s_K(d) = s_E(d) − δ d/|d| (Schneider, Convex Bodies, §3.1).
// We take δ = c²/(2a) (half the least radius, so that K stays strictly convex). A convex B =
// B' ⊕ B(δ_B) (a sphere: a point and its radius; a capsule: a segment; a polyhedron: itself,
// δ_B = 0; another ellipsoid: its core) is then at signed distance dist(K, B') − δ − δ_B from E,
// exactly, as long as K and B' do not meet: GJK's closest points of K and B', moved out by the
// margins along their direction, are the witness points, and that direction is the normal.
// Overlaps deeper than δ + δ_B, which a hard-contact run does not reach, fall back to the
// plane normal to the centres' direction: its separation −h_E(−n) − h_B(n) bounds the
// penetration from above (one contact, the witness on B's support point).
// The polish. GJK converges linearly on curved sets, and its normal is only good to about the
// square root of its relative tolerance. So it is stopped early and its answer polished by
// Newton's method on the separation: the normal n (from B to E) maximises
// σ(n) = −h_E(−n) − h_B(n) over unit vectors, and σ at the maximiser is the signed distance
// (for overlapping bodies, minus the least penetration, locally). Its gradient is
// s_E(−n) − s_B(n), its Hessian −(H_E(−n) + H_B(n)), with H = M/h − (M n)(M n)ᵀ/h³ for the
// support h = √(nᵀ M n) of an ellipsoid (M = R D² Rᵀ) and r(I − n nᵀ) for a margin r. B's part is
// GJK's feature of B: another ellipsoid (smooth), or a vertex of a polytope or segment (its
// margin's sphere, n free), an edge (n kept normal to it) or a face (n its normal, no
// iteration). Newton's steps are taken on the sphere of directions (Absil, Mahony & Sepulchre,
// Optimization Algorithms on Matrix Manifolds, §6.2), in the plane tangent to it (and normal to
// an edge): ξ = −(Tᵀ ∇²g T − (n·∇g) I)⁻¹ Tᵀ ∇g, with g = −σ. Converged to a step below 1e-12 rad
// (two or three steps from GJK's normal), the normal is exact to rounding and the gap is
// n·(s_E(−n) − s_B(n)) with s_B(n) checked to be B's support; otherwise GJK's answer stands.
//
// - Against a half-space: exact, the support point s_E(−n) (one contact).
// - Against a global box or a solid cylinder: the distance of the core to the solid, as above
//   (the cylinder's unpolished: its rims and mantle are no polytope).
// - Inside a drum (a hollow cylinder): each cap by the support point along the axis, the mantle
//   by the point of E farthest from the axis, the maximiser over unit w ⟂ axis of
//   h_E(w) − w·c; the ascent w ← P(s_E(w) − c)/|P(s_E(w) − c)| increases that distance at every
//   step (P projects across the axis) and stops when it no longer does (up to three contacts).
#include "granite/body/global_body.hpp"
#include "granite/collision/gjk.hpp"
#include "granite/collision/narrow_phase.hpp"
#include "granite/collision/polyhedron_contacts.hpp"

#include <cmath>
#include <cstddef>

namespace granite::collision {

/// GJK's relative tolerances and iteration cap for curved cores: loose before the polish (the
/// normal good to ~1e-2 rad, Newton's start), tight where it is not polished (the gap good to
/// ~1e-10 of the margins' sum, the normal to ~1e-5 rad).
inline constexpr double kCoreRelativeTolerance = 1e-2;
inline constexpr double kCoreFallbackTolerance = 1e-10;
inline constexpr int kCoreMaxIterations = 200;

/// The margin δ = c²/(2a) of an ellipsoid of `semi_axes` (c the least, a the largest).
double ellipsoid_margin(const Vec3& semi_axes);

/// An ellipsoid placed in the world: centre x, rotation R (body to world), semi-axes D along
/// the body axes, and its margin δ.
struct PlacedEllipsoid {
  Vec3 centre = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();
  Vec3 semi_axes = Vec3::Ones();
  double margin = 0.5;
  Mat3 shape = Mat3::Identity();  // M = R D² Rᵀ: E = {y : (y − x)ᵀ M⁻¹ (y − x) <= 1}
  PlacedEllipsoid() = default;
  PlacedEllipsoid(const Vec3& x, const Mat3& R, const Vec3& semi_axes);
  /// s_E(d) = x + M d / √(dᵀ M d): the point of E maximising d·y (d != 0).
  Vec3 support(const Vec3& d) const {
    const Vec3 Md = shape * d;
    const double h2 = d.dot(Md);
    return h2 > 0.0 ? Vec3(centre + Md / std::sqrt(h2)) : centre;
  }
  /// The core's support, s_E(d) − δ d/|d|.
  Vec3 core_support(const Vec3& d) const { return support(d) - (margin / d.norm()) * d; }
  /// The Hessian of the support function h_E at the unit vector n: M/h − (M n)(M n)ᵀ/h³ with
  /// M = R D² Rᵀ, h = √(nᵀ M n) (the same at −n).
  Mat3 support_hessian(const Vec3& n) const;
  double size() const { return semi_axes.maxCoeff(); }
};

/// The core of `e` as a GJK support.
struct CoreSupport {
  const PlacedEllipsoid* e;
  Vec3 operator()(const Vec3& d) const { return e->core_support(d); }
};

namespace detail {
/// The normal n (from B to e, unit, GJK's on entry) polished by Newton's method as in the
/// header, B being `other` (an ellipsoid) if given, else g's feature of B with `margin_b`.
/// False if it did not converge (n is then unspecified).
bool polish_normal(const PlacedEllipsoid& e, const GjkResult& g, double margin_b,
                   const PlacedEllipsoid* other, Vec3& n);
/// The contact along n (from B to e) with B's point on_b: E's witness s_E(−n), the gap
/// n·(s_E(−n) − on_b) (the separation along n when on_b is B's support point s_B(n)).
ContactGeometry contact_along(const PlacedEllipsoid& e, const Vec3& n, const Vec3& on_b);
/// The contact along the polished normal n with g's flat feature (a vertex or an edge) of B'
/// grown by margin_b; false if E's support point along −n does not face the feature.
bool feature_contact(const PlacedEllipsoid& e, const GjkResult& g, double margin_b, const Vec3& n,
                     ContactGeometry& out);
/// The contact from GJK's closest points g of (core of e, B') apart, moved out by the margins.
ContactGeometry closest_points_contact(const PlacedEllipsoid& e, const GjkResult& g,
                                       double margin_b);
/// Writes c to out if its gap is <= threshold; returns whether it did.
inline bool within(const ContactGeometry& c, double threshold, ContactGeometry& out) {
  if (c.gap > threshold) return false;
  out = c;
  return true;
}
Vec3 fallback_normal(const PlacedEllipsoid& e, const Vec3& centre_b);
}  // namespace detail

/// No shortcut: ellipsoid_convex's default.
struct NoShortcut {
  bool operator()(const Vec3&, ContactGeometry&) const { return false; }
};

/// Ellipsoid e (body 1) against the convex set B = B' ⊕ B(margin_b) (body 2), B' given by
/// support_b, centre_b a point inside it; `other`: B is that ellipsoid (support_b its core's,
/// margin_b its margin), else B' is a polytope or a segment (or, with polish = false, any convex
/// set: GJK's answer to the fallback tolerance). shortcut(n, g) may give the exact contact from
/// GJK's first normal n (a polyhedron's face: ellipsoid_polyhedron). True if the gap is <=
/// threshold.
template <class SupportB, class Shortcut = NoShortcut>
bool ellipsoid_convex(const PlacedEllipsoid& e, const SupportB& support_b, double margin_b,
                      const Vec3& centre_b, double threshold, ContactGeometry& out,
                      const PlacedEllipsoid* other = nullptr, bool polish = true,
                      const Shortcut& shortcut = Shortcut()) {
  const auto run_gjk = [&](double tolerance) {
    return gjk_distance(CoreSupport{&e}, support_b, Vec3(e.centre - centre_b), tolerance,
                        kCoreMaxIterations);
  };
  const auto apart = [](const GjkResult& r) { return !r.overlap && r.distance > 0.0; };
  // The cores meet: the separation along the centres' direction, −h_E(−n) − h_B(n).
  const auto cores_meet = [&] {
    const Vec3 n = detail::fallback_normal(e, centre_b);
    return detail::within(detail::contact_along(e, n, Vec3(support_b(n) + margin_b * n)), threshold,
                          out);
  };
  GjkResult g = run_gjk(polish ? kCoreRelativeTolerance : kCoreFallbackTolerance);
  if (!apart(g)) return cores_meet();
  // GJK's distance is an upper bound, within its tolerance: far pairs end here.
  if (g.distance * (1.0 - 2.0 * kCoreRelativeTolerance) - e.margin - margin_b > threshold)
    return false;
  // The polish from the loose answer, and if it fails (GJK's feature not yet B's closest)
  // from the tight one; unpolished, the tight answer.
  for (int attempt = 0; polish && attempt < 2; ++attempt) {
    if (attempt == 1) {
      g = run_gjk(kCoreFallbackTolerance);
      if (!apart(g)) return cores_meet();
    }
    Vec3 n = (g.point_a - g.point_b) / g.distance;
    ContactGeometry exact;
    if (shortcut(n, exact)) return detail::within(exact, threshold, out);
    if (!detail::polish_normal(e, g, margin_b, other, n)) continue;
    // The polished separation is a lower bound of the gap (a separating plane's) and must
    // reach GJK's (the maximum of σ, not another stationary point); with a flat feature, that
    // feature must still be B's support along the polished normal.
    const double tolerance = attempt == 0 ? kCoreRelativeTolerance : kCoreFallbackTolerance;
    const Vec3& q = other != nullptr ? other->centre : g.feature_b[0];
    const double scale = e.size() + (q - e.centre).norm() + margin_b;
    const double lowest =
        g.distance * (1.0 - 2.0 * tolerance) - e.margin - margin_b - 1e-12 * scale;
    bool found = other != nullptr;
    if (found)
      exact = detail::contact_along(e, n, other->support(n));
    else
      found = n.dot(support_b(n) - q) <= 1e-12 * scale &&
              detail::feature_contact(e, g, margin_b, n, exact);
    if (found && exact.gap >= lowest) return detail::within(exact, threshold, out);
  }
  return detail::within(detail::closest_points_contact(e, g, margin_b), threshold, out);
}

/// Ellipsoid e against convex polyhedron p (body 2): ellipsoid_convex, with the shortcut of a
/// face: if GJK's normal is within kFaceAlignment (1 − cos) of a face's and E's support point
/// along that face's normal lies over the face, the face's exact contact (that is the
/// certificate; GJK's simplex does not tell a face). Returns 0 or 1.
inline constexpr double kFaceAlignment = 1e-3;
std::size_t ellipsoid_polyhedron(const PlacedEllipsoid& e, const PlacedPolyhedron& p,
                                 double threshold, ContactGeometry& out);

/// The most contacts of an ellipsoid with one primitive (a drum: the mantle and both caps).
constexpr std::size_t kEllipsoidPrimitiveContacts = 3;

/// Ellipsoid e against one primitive (body 2). Returns the number of contacts.
std::size_t ellipsoid_primitive(const PlacedEllipsoid& e, const body::Primitive& primitive,
                                double threshold, ContactGeometry out[kEllipsoidPrimitiveContacts]);

/// Ellipsoid e against a global body: each member's contacts, filtered as sphere_global's.
std::size_t ellipsoid_global(const PlacedEllipsoid& e, const body::GlobalBody& body,
                             double threshold, ContactGeometry* out, std::size_t capacity);

}  // namespace granite::collision
