#include "granite/body/shape.hpp"

#include "granite/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace granite::body {

namespace {

// Every component of `v` finite and > 0, else InputError "KIND 'NAME': every WHAT must be > 0 m".
void require_positive(const Vec3& v, const char* kind, const std::string& name, const char* what) {
  for (int k = 0; k < 3; ++k)
    if (!(v[k] > 0.0) || !std::isfinite(v[k]))
      throw InputError(std::string(kind) + " '" + name + "': every " + what + " must be > 0 m");
}

}  // namespace

ShapeIndex ShapeTable::append(Shape shape) {
  if (find(shape.name) != kSphere) throw InputError("shape '" + shape.name + "' is defined twice");
  shapes_.push_back(std::move(shape));
  return ShapeIndex(shapes_.size() - 1);
}

ShapeIndex ShapeTable::add_clump(const std::string& name, std::vector<SpherePart> parts,
                                 double tolerance) {
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
  return append(std::move(shape));
}

MassProperties capsule_mass_properties(double r, double h) {
  const double pi = std::numbers::pi;
  const double mc = pi * r * r * 2.0 * h, ms = 4.0 / 3.0 * pi * r * r * r;
  MassProperties m;
  m.volume = mc + ms;
  const double axial = 0.5 * mc * r * r + 0.4 * ms * r * r;
  const double lever = h + 3.0 * r / 8.0;
  const double across =
      mc * (r * r / 4.0 + h * h / 3.0) + ms * (83.0 / 320.0 * r * r + lever * lever);
  m.inertia = Vec3(axial, across, across).asDiagonal();
  return m;
}

ShapeIndex ShapeTable::add_capsule(const std::string& name, double radius, double half_length) {
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw InputError("capsule '" + name + "': radius must be > 0 m");
  if (!(half_length >= 0.0) || !std::isfinite(half_length))
    throw InputError("capsule '" + name + "': half_length must be >= 0 m");
  return append({.name = name,
                 .kind = ShapeKind::capsule,
                 .radius = radius,
                 .half_length = half_length,
                 .bounding_radius = half_length + radius,
                 .unit_mass = capsule_mass_properties(radius, half_length)});
}

ShapeIndex ShapeTable::add_box(const std::string& name, const Vec3& half_extents) {
  require_positive(half_extents, "box", name, "half extent");
  Shape shape{.name = name,
              .kind = ShapeKind::box,
              .half_extents = half_extents,
              .polyhedron = box_polyhedron(half_extents),
              .bounding_radius = half_extents.norm()};
  shape.unit_mass = polyhedron_mass_properties(shape.polyhedron);
  shape.unit_mass.centroid = Vec3::Zero();  // rounding aside, the box's centre
  return append(std::move(shape));
}

ShapeIndex ShapeTable::add_convex(const std::string& name, const std::vector<Vec3>& vertices) {
  Shape shape;
  shape.name = name;
  shape.kind = ShapeKind::convex;
  shape.polyhedron = convex_hull(vertices, "convex shape '" + name + "'");
  shape.unit_mass = polyhedron_mass_properties(shape.polyhedron);
  shape.shift = shape.unit_mass.centroid;
  shape.unit_mass.centroid = Vec3::Zero();
  shift_origin(shape.polyhedron, shape.shift);
  shape.bounding_radius = bounding_radius(shape.polyhedron);
  return append(std::move(shape));
}

MassProperties ellipsoid_mass_properties(const Vec3& a) {
  MassProperties m;
  m.volume = 4.0 / 3.0 * std::numbers::pi * a[0] * a[1] * a[2];
  const Vec3 squares = a.cwiseProduct(a);
  m.inertia = (m.volume / 5.0 *
               Vec3(squares[1] + squares[2], squares[0] + squares[2], squares[0] + squares[1]))
                  .asDiagonal();
  return m;
}

ShapeIndex ShapeTable::add_ellipsoid(const std::string& name, const Vec3& semi_axes) {
  require_positive(semi_axes, "ellipsoid", name, "semi-axis");
  return append({.name = name,
                 .kind = ShapeKind::ellipsoid,
                 .semi_axes = semi_axes,
                 .bounding_radius = semi_axes.maxCoeff(),
                 .unit_mass = ellipsoid_mass_properties(semi_axes)});
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

bool ShapeTable::has_polyhedra() const {
  return std::any_of(shapes_.begin(), shapes_.end(),
                     [](const Shape& s) { return is_polyhedral(s.kind); });
}

}  // namespace granite::body
