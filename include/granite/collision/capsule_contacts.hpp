#pragma once
// Narrow phase of capsules: a capsule (a, b, r) is the set of points within r of the segment
// [a, b], i.e. the union of the spheres of radius r centred on the segment. Each contact is the
// sphere–shape contact (narrow_phase.hpp) of one of those spheres, so the conventions are those
// of narrow_phase.hpp: body 1 is the first shape named, body 2 the second; the normal is a unit
// vector from body 2 to body 1; gap is the signed distance between the surfaces along it; point
// is the witness point on body 2's surface; a contact is reported if gap <= threshold.
#include "granite/collision/narrow_phase.hpp"

#include <cstddef>

namespace granite::collision {

/// The contact g of (A as body 1, B as body 2) seen as (B as body 1, A as body 2): the normal
/// turns round, the witness point on the new body 2 is A's (g.point1()), the gap is unchanged.
inline ContactGeometry flipped(const ContactGeometry& g) {
  return {g.point1(), Vec3(-g.normal), g.gap};
}

/// Segments whose directions make an angle θ with |sin θ| below this are parallel for
/// capsule_capsule (a two-point manifold). Such a manifold misses the least gap by at most
/// (overlap length)·|sin θ| <= 1e-6 of the overlap: see capsule_capsule.
constexpr double kCapsuleParallelSine = 1e-6;
/// The most contacts capsule_primitive reports: a hollow cylinder gives up to three (mantle
/// and caps) for each of the two end spheres.
constexpr std::size_t kCapsulePrimitiveContacts = 6;

/// Sphere (c, rs) as body 1 against the capsule (a, b, rc) as body 2: the sphere–sphere contact
/// with the sphere of radius rc centred at the segment's point closest to c. A capsule with
/// a == b is the sphere (a, rc): the result is sphere_sphere's, bit for bit.
bool sphere_capsule(const Vec3& c, double rs, const Vec3& a, const Vec3& b, double rc,
                    double threshold, ContactGeometry& out);

/// Capsule (a1, b1, r1) as body 1 against capsule (a2, b2, r2) as body 2. One contact, the
/// sphere–sphere contact of the segments' closest points (Ericson, Real-Time Collision
/// Detection §5.1.9; zero-length segments are spheres). If the segments are parallel (|sin θ| <
/// kCapsuleParallelSine) and segment 2 projected on segment 1 overlaps it over a length above
/// 1e-9 (r1 + r2) (else the two points coincide), two contacts instead, at the ends of the
/// overlap: each the sphere–sphere contact of that point of segment 1 and its closest point on
/// segment 2, so that two capsules lying side by side do not rock on one point. Returns the
/// number written to out (0 to 2).
std::size_t capsule_capsule(const Vec3& a1, const Vec3& b1, double r1, const Vec3& a2,
                            const Vec3& b2, double r2, double threshold, ContactGeometry out[2]);

/// Capsule (a, b, r) as body 1 against one primitive as body 2. Returns the number of contacts
/// written to out (at most kCapsulePrimitiveContacts):
/// - half-space: the end spheres' contacts (up to 2);
/// - box, solid cylinder: the end spheres' contacts, and the contact of the sphere at the
///   segment's point of least signed distance if that distance is below both ends' by more
///   than 1e-9 (r + |b − a|) (a capsule across an edge or a curved mantle; up to 3);
/// - hollow cylinder (drum): the end spheres' sphere_inside_cylinder contacts (up to 6);
/// - mesh wall: capsule_mesh's (mesh_contacts.hpp: the end spheres', and interior ones at
///   convex edges and vertices; up to 6).
/// A capsule with a == b is the sphere (a, r): sphere_part's contacts.
std::size_t capsule_primitive(const Vec3& a, const Vec3& b, double r,
                              const body::Primitive& primitive, double threshold,
                              ContactGeometry out[kCapsulePrimitiveContacts]);

/// Capsule (a, b, r) against a global body (one primitive or a union): each member's
/// capsule_primitive contacts, without those whose point is buried deeper than 1e-9 r inside
/// another member or that repeat an earlier contact (same point within 1e-9 r, same normal),
/// as sphere_global filters a sphere's. Writes up to `capacity` and returns their number.
std::size_t capsule_global(const Vec3& a, const Vec3& b, double r, const body::GlobalBody& body,
                           double threshold, ContactGeometry* out, std::size_t capacity);

}  // namespace granite::collision
