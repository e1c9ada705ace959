#include "granite/scenario/sources/shape_overlap.hpp"

#include "granite/collision/shape_contacts.hpp"

namespace granite::scenario {

ShapeOverlap::ShapeOverlap(const body::ShapeTable& shapes, const body::MaterialTable& materials) :
    shapes_(shapes), materials_(materials) {}

bool ShapeOverlap::operator()(const Sphere& a, const Sphere& b) {
  if ((a.centre - b.centre).norm() >= a.radius + b.radius) return false;  // bounding spheres
  if (a.shape == body::kSphere && b.shape == body::kSphere) return true;
  pair_.clear();
  for (const Sphere* s : {&a, &b}) {
    if (s->shape == body::kSphere)
      pair_.add_sphere(materials_, s->material, s->centre, s->radius);
    else
      pair_.add_shaped(materials_, shapes_, s->shape, s->material, s->centre, s->orientation);
  }
  contacts_.clear();
  placements_.clear();
  collision::shaped_pair_contacts(pair_, shapes_, placements_, 0.0, 0, 1, contacts_);
  for (std::size_t c = 0; c < contacts_.size(); ++c)
    if (contacts_.gap[c] < 0.0) return true;
  return false;
}

}  // namespace granite::scenario
