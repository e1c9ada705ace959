#include "granite/collision/shape_contacts.hpp"

#include "granite/collision/capsule_contacts.hpp"
#include "granite/collision/ellipsoid_contacts.hpp"
#include "granite/collision/narrow_phase.hpp"
#include "granite/collision/polyhedron_contacts.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

namespace granite::collision {

namespace {

// Particle i's capsule axis in the world (its shape a capsule).
struct Axis {
  Vec3 a, b;
  double r;
};
Axis capsule_of(const body::Particles& particles, const body::ShapeTable& shapes, std::size_t i) {
  const body::Shape& s = shapes[particles.shape[i]];
  Axis axis{Vec3::Zero(), Vec3::Zero(), s.radius};
  body::capsule_axis(particles.position[i], particles.orientation[i].toRotationMatrix(),
                     s.half_length, axis.a, axis.b);
  return axis;
}

// Pairs of sphere-like bodies (spheres, clumps): every pair of parts.
void parts_against_parts(const body::Particles& particles, const body::ShapeTable& shapes,
                         double threshold, BodyIndex i, BodyIndex j, ContactList& contacts) {
  // j's parts in the world once (not once per part of i); the candidates' reach test first.
  thread_local std::vector<std::pair<Vec3, double>> parts_j;
  parts_j.clear();
  for_each_part(particles, shapes, j, [&](const Vec3& x, double r) { parts_j.emplace_back(x, r); });
  const Vec3& xj = particles.position[j];
  const double bound_j = particles.radius[j] + threshold;
  for_each_part(particles, shapes, i, [&](const Vec3& xa, double ra) {
    // A part of i farther from j's bounding sphere than the threshold touches none of j's.
    const double reach = ra + bound_j;
    if ((xa - xj).squaredNorm() > reach * reach) return;
    for (const auto& [xb, rb] : parts_j) {
      ContactGeometry g;
      if (sphere_sphere(xa, ra, xb, rb, threshold, g))
        contacts.push_back(i, j, g.point, g.normal, g.gap);
    }
  });
}

// Capsule `capsule` against every part of sphere-like `other`; `capsule_first`: the capsule is
// body 1 of the contacts (else the other).
void capsule_against_parts(const body::Particles& particles, const body::ShapeTable& shapes,
                           double threshold, BodyIndex capsule, BodyIndex other, bool capsule_first,
                           ContactList& contacts) {
  const Axis k = capsule_of(particles, shapes, capsule);
  for_each_part(particles, shapes, other, [&](const Vec3& x, double r) {
    ContactGeometry g;  // the part as body 1, the capsule as body 2
    if (!sphere_capsule(x, r, k.a, k.b, k.r, threshold, g)) return;
    if (capsule_first) g = flipped(g);
    contacts.push_back(capsule_first ? capsule : other, capsule_first ? other : capsule, g.point,
                       g.normal, g.gap);
  });
}

// What a body's surface is made of, for the dispatch over pairs.
enum class Surface { parts, capsule, polyhedron, ellipsoid };  // parts: a sphere, a clump's

Surface surface_of(const body::Particles& particles, const body::ShapeTable& shapes,
                   std::size_t i) {
  if (particles.shape[i] == body::kSphere) return Surface::parts;
  const body::ShapeKind kind = shapes[particles.shape[i]].kind;
  if (kind == body::ShapeKind::capsule) return Surface::capsule;
  if (kind == body::ShapeKind::ellipsoid) return Surface::ellipsoid;
  return body::is_polyhedral(kind) ? Surface::polyhedron : Surface::parts;
}

PlacedEllipsoid ellipsoid_of(const body::Particles& particles, const body::ShapeTable& shapes,
                             std::size_t i) {
  return {particles.position[i], particles.orientation[i].toRotationMatrix(),
          shapes[particles.shape[i]].semi_axes};
}

// Ellipsoid `ell` against any other body `other`; `ell_first`: the ellipsoid is body 1 of the
// contacts (else the other).
void ellipsoid_against(const body::Particles& particles, const body::ShapeTable& shapes,
                       PolyhedronPlacements& placements, double threshold, BodyIndex ell,
                       BodyIndex other, bool ell_first, ContactList& contacts) {
  const PlacedEllipsoid e = ellipsoid_of(particles, shapes, ell);
  const auto add = [&](bool found, const ContactGeometry& g) {  // g: the ellipsoid as body 1
    if (!found) return;
    const ContactGeometry h = ell_first ? g : flipped(g);
    contacts.push_back(ell_first ? ell : other, ell_first ? other : ell, h.point, h.normal, h.gap);
  };
  ContactGeometry g;
  switch (surface_of(particles, shapes, other)) {
  case Surface::ellipsoid: {
    const PlacedEllipsoid o = ellipsoid_of(particles, shapes, other);
    return add(ellipsoid_convex(e, CoreSupport{&o}, o.margin, o.centre, threshold, g, &o), g);
  }
  case Surface::polyhedron: {
    return add(ellipsoid_polyhedron(e, placements.of(particles, shapes, other), threshold, g) == 1,
               g);
  }
  case Surface::capsule: {
    const Axis k = capsule_of(particles, shapes, other);
    return add(
        ellipsoid_convex(e, SegmentSupport{k.a, k.b}, k.r, Vec3(0.5 * (k.a + k.b)), threshold, g),
        g);
  }
  case Surface::parts:
    for_each_part(particles, shapes, other, [&](const Vec3& x, double r) {
      const double reach = r + e.size() + threshold;  // the part beyond E's bounding sphere
      if ((x - e.centre).squaredNorm() > reach * reach) return;
      add(ellipsoid_convex(e, SegmentSupport{x, x}, r, x, threshold, g), g);
    });
    return;
  }
}

// Polyhedron `poly` against every part of sphere-like `other` or against capsule `other`;
// `poly_first`: the polyhedron is body 1 of the contacts (else the other).
void polyhedron_against_rounded(const body::Particles& particles, const body::ShapeTable& shapes,
                                PolyhedronPlacements& placements, double threshold, BodyIndex poly,
                                BodyIndex other, bool poly_first, ContactList& contacts) {
  const PlacedPolyhedron& p = placements.of(particles, shapes, poly);
  const auto add = [&](const Vec3& a, const Vec3& b, double r) {
    ContactGeometry found[2];  // the segment as body 1, the polyhedron as body 2
    const std::size_t count = capsule_polyhedron(a, b, r, p, threshold, found);
    for (std::size_t c = 0; c < count; ++c) {
      const ContactGeometry g = poly_first ? flipped(found[c]) : found[c];
      contacts.push_back(poly_first ? poly : other, poly_first ? other : poly, g.point, g.normal,
                         g.gap);
    }
  };
  if (surface_of(particles, shapes, other) == Surface::capsule) {
    const Axis k = capsule_of(particles, shapes, other);
    return add(k.a, k.b, k.r);
  }
  for_each_part(particles, shapes, other, [&](const Vec3& x, double r) { add(x, x, r); });
}

}  // namespace

void shaped_pair_contacts(const body::Particles& particles, const body::ShapeTable& shapes,
                          PolyhedronPlacements& placements, double threshold, BodyIndex i,
                          BodyIndex j, ContactList& contacts, double* apart) {
  if (apart != nullptr) *apart = std::numeric_limits<double>::quiet_NaN();
  // Bounding spheres (radius: the bounding radius) farther apart than the threshold: no contact.
  const double reach = particles.radius[i] + particles.radius[j] + threshold;
  if ((particles.position[i] - particles.position[j]).squaredNorm() > reach * reach) return;
  const Surface si = surface_of(particles, shapes, i), sj = surface_of(particles, shapes, j);
  if (si == Surface::ellipsoid || sj == Surface::ellipsoid) {
    const bool first = si == Surface::ellipsoid;
    return ellipsoid_against(particles, shapes, placements, threshold, first ? i : j, first ? j : i,
                             first, contacts);
  }
  if (si == Surface::polyhedron && sj == Surface::polyhedron) {
    ContactGeometry found[kManifoldPoints];
    const std::size_t count =
        polyhedron_polyhedron(placements.of(particles, shapes, i),
                              placements.of(particles, shapes, j), threshold, found, apart);
    for (std::size_t c = 0; c < count; ++c)
      contacts.push_back(i, j, found[c].point, found[c].normal, found[c].gap);
    return;
  }
  if (si == Surface::polyhedron || sj == Surface::polyhedron) {
    const bool first = si == Surface::polyhedron;
    return polyhedron_against_rounded(particles, shapes, placements, threshold, first ? i : j,
                                      first ? j : i, first, contacts);
  }
  const bool ki = si == Surface::capsule, kj = sj == Surface::capsule;
  if (!ki && !kj) return parts_against_parts(particles, shapes, threshold, i, j, contacts);
  if (ki != kj)
    return capsule_against_parts(particles, shapes, threshold, ki ? i : j, ki ? j : i, ki,
                                 contacts);
  const Axis a = capsule_of(particles, shapes, i), b = capsule_of(particles, shapes, j);
  ContactGeometry found[2];
  const std::size_t count = capsule_capsule(a.a, a.b, a.r, b.a, b.b, b.r, threshold, found);
  for (std::size_t c = 0; c < count; ++c)
    contacts.push_back(i, j, found[c].point, found[c].normal, found[c].gap);
}

void shaped_global_contacts(const body::Particles& particles, const body::ShapeTable& shapes,
                            PolyhedronPlacements& placements, const body::GlobalBody& body,
                            double threshold, BodyIndex i, BodyIndex body2, ContactList& contacts) {
  constexpr std::size_t kMaxPerPart = 8;
  ContactGeometry found[kMaxPerPart];
  const auto add = [&](std::size_t count) {
    for (std::size_t c = 0; c < count; ++c)
      contacts.push_back(i, body2, found[c].point, found[c].normal, found[c].gap);
  };
  switch (surface_of(particles, shapes, i)) {
  case Surface::capsule: {
    const Axis k = capsule_of(particles, shapes, i);
    return add(capsule_global(k.a, k.b, k.r, body, threshold, found, kMaxPerPart));
  }
  case Surface::polyhedron:
    return add(polyhedron_global(placements.of(particles, shapes, i), body, threshold, found,
                                 kMaxPerPart));
  case Surface::ellipsoid:
    return add(
        ellipsoid_global(ellipsoid_of(particles, shapes, i), body, threshold, found, kMaxPerPart));
  case Surface::parts:
    for_each_part(particles, shapes, i, [&](const Vec3& xa, double ra) {
      add(sphere_global(xa, ra, body, threshold, found, kMaxPerPart));
    });
    return;
  }
}

double surface_radius(const body::Particles& particles, const body::ShapeTable& shapes,
                      std::size_t i, const Vec3& point) {
  if (particles.shape[i] == body::kSphere) return particles.radius[i];
  switch (surface_of(particles, shapes, i)) {
  case Surface::capsule:
    return shapes[particles.shape[i]].radius;
  case Surface::polyhedron:  // flat faces have no radius: the sphere of the same volume's
    return std::cbrt(3.0 * shapes[particles.shape[i]].unit_mass.volume / (4.0 * std::numbers::pi));
  case Surface::ellipsoid: {  // 1/√K, K the Gaussian curvature at the point's projection q
    // on the surface: K = 1 / (a b c Σ q_k²/a_k⁴)² (body frame)
    const Vec3& a = shapes[particles.shape[i]].semi_axes;
    Vec3 q = particles.orientation[i].conjugate() * (point - particles.position[i]);
    const double level = q.cwiseQuotient(a).norm();
    if (!(level > 0.0)) return a.minCoeff();  // the centre itself: no point of the surface
    q /= level;
    const Vec3 a2 = a.cwiseProduct(a);
    return a.prod() * q.cwiseProduct(q).cwiseQuotient(a2.cwiseProduct(a2)).sum();
  }
  case Surface::parts:
    break;
  }
  double nearest = std::numeric_limits<double>::infinity(), radius = particles.radius[i];
  for_each_part(particles, shapes, i, [&](const Vec3& centre, double r) {
    const double off = std::abs((point - centre).norm() - r);
    if (off < nearest) {
      nearest = off;
      radius = r;
    }
  });
  return radius;
}

}  // namespace granite::collision
