#include "granite/body/shape.hpp"

#include "granite/core/error.hpp"

#include <algorithm>
#include <numbers>

namespace granite::body {

ShapeIndex ShapeTable::add_clump(const std::string& name, std::vector<SpherePart> parts,
                                 double tolerance) {
  if (find(name) != kSphere) throw InputError("shape '" + name + "' is defined twice");
  Shape shape;
  shape.name = name;
  shape.kind = ShapeKind::clump;
  shape.unit_mass = sphere_union_mass_properties(parts, tolerance);
  shape.shift = shape.unit_mass.centroid;
  shape.unit_mass.centroid = Vec3::Zero();
  for (SpherePart& part : parts) {
    part.position -= shape.shift;
    shape.bounding_radius = std::max(shape.bounding_radius, part.position.norm() + part.radius);
  }
  shape.parts = std::move(parts);
  shapes_.push_back(std::move(shape));
  return ShapeIndex(shapes_.size() - 1);
}

ShapeIndex ShapeTable::find(const std::string& name) const {
  for (std::size_t k = 0; k < shapes_.size(); ++k)
    if (shapes_[k].name == name) return ShapeIndex(k);
  return kSphere;
}

double volume_of(const ShapeTable& shapes, ShapeIndex shape, double radius) {
  if (shape == kSphere) return 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  return shapes[shape].unit_mass.volume;
}

double ShapeTable::max_bounding_radius() const {
  double largest = 0.0;
  for (const Shape& s : shapes_) largest = std::max(largest, s.bounding_radius);
  return largest;
}

}  // namespace granite::body
