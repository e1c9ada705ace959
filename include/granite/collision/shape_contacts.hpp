#pragma once
// The narrow phase of bodies with a shape (body/shape.hpp). A clump is the union of its parts,
// so its contacts are those of its parts: one per touching pair of parts (a plain sphere is a
// clump of one part), each with the conventions of narrow_phase.hpp. Every part's contact acts
// on the whole body: its lever arm runs from the body's centre of mass to the part's witness
// point (solver/contact_setup.cpp).
// A capsule meets a sphere or a clump's part by the part's distance to its axis, another capsule
// by the axes' closest points (two contacts where they lie side by side), a global body by its
// axis's ends and nearest point (capsule_contacts.hpp).
#include "granite/body/global_body.hpp"
#include "granite/body/particles.hpp"
#include "granite/body/shape.hpp"
#include "granite/collision/contact.hpp"
#include "granite/collision/polyhedron_placements.hpp"

namespace granite::collision {

/// Every contact of particles i and j (at least one with a shape) with gap below threshold,
/// pushed as (i, j), by part of i then part of j. Polyhedra are placed through `placements`
/// (once per detection).
/// `apart` (if given): with no contact found, a lower bound of the distance when one was proven
/// beyond the threshold, else NaN (polyhedron pairs only: polyhedron_polyhedron).
void shaped_pair_contacts(const body::Particles& particles, const body::ShapeTable& shapes,
                          PolyhedronPlacements& placements, double threshold, BodyIndex i,
                          BodyIndex j, ContactList& contacts, double* apart = nullptr);

/// Every contact of particle i (with a shape) with global body k, pushed as (i, body2), by part
/// of i then as sphere_global orders them.
void shaped_global_contacts(const body::Particles& particles, const body::ShapeTable& shapes,
                            PolyhedronPlacements& placements, const body::GlobalBody& body,
                            double threshold, BodyIndex i, BodyIndex body2, ContactList& contacts);

/// The radius of curvature of particle i's surface at `point` (a witness point on it): its
/// radius for a sphere; for a clump, the radius of the part whose surface is nearest the point.
double surface_radius(const body::Particles& particles, const body::ShapeTable& shapes,
                      std::size_t i, const Vec3& point);

/// Calls f(centre, radius) for every sphere of particle i: the particle itself, or its clump's
/// parts in the world (not for a capsule: capsule_contacts.hpp).
template <class F>
void for_each_part(const body::Particles& particles, const body::ShapeTable& shapes, std::size_t i,
                   F&& f) {
  const body::ShapeIndex k = particles.shape[i];
  if (k == body::kSphere) {
    f(particles.position[i], particles.radius[i]);
    return;
  }
  const Mat3 rotation = particles.orientation[i].toRotationMatrix();
  for (const body::SpherePart& part : shapes[k].parts)
    f(body::part_centre(particles.position[i], rotation, part), part.radius);
}

}  // namespace granite::collision
