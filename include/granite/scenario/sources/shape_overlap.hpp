#pragma once
// Whether two particles a generator makes overlap by their true geometry (issue 39: random
// sequential addition of shapes by their shapes, not their bounding spheres, so a fill of rods
// reaches a realistic solid fraction). Two spheres by their distance; otherwise the narrow
// phase (collision/shape_contacts.hpp) at threshold 0: a contact of negative gap is an overlap.
#include "granite/body/material.hpp"
#include "granite/body/particles.hpp"
#include "granite/body/shape.hpp"
#include "granite/collision/contact.hpp"
#include "granite/collision/polyhedron_placements.hpp"
#include "granite/scenario/build.hpp"

namespace granite::scenario {

class ShapeOverlap {
public:
  ShapeOverlap(const body::ShapeTable& shapes, const body::MaterialTable& materials);
  /// Whether a and b (centres, shapes, orientations; radius the bounding radius) overlap.
  bool operator()(const Sphere& a, const Sphere& b);

private:
  const body::ShapeTable& shapes_;
  const body::MaterialTable& materials_;
  body::Particles pair_;
  collision::ContactList contacts_;
  collision::PolyhedronPlacements placements_;
};

}  // namespace granite::scenario
