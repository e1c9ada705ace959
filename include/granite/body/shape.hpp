#pragma once
// The shapes of non-spherical particles, shared by every rank (the configuration's `shapes`
// list): a particle's `shape` field is an index into a ShapeTable, or kSphere (-1) for a plain
// sphere of its `radius`. Today's kind is the clump, a rigid union of spheres (docs/shapes.md);
// the table is where the other convex kinds go.
//
// A shape is stored in its body frame: the frame the user gave it in, moved to the centre of
// mass (`shift` is that centre in the user's frame), so that a particle's position is its
// centre of mass and its body-frame inertia is the shape's about that centre. Its bounding
// radius (the largest distance from the centre of mass to its surface) is the particle's
// `radius`: cells, neighbour lists, the skin and the ghost width see the bounding sphere, which
// no rotation moves, so they need nothing else.
#include "granite/body/sphere_union.hpp"
#include "granite/core/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace granite::body {

using ShapeIndex = std::int32_t;
inline constexpr ShapeIndex kSphere = -1;

enum class ShapeKind { clump };

struct Shape {
  std::string name;
  ShapeKind kind = ShapeKind::clump;
  std::vector<SpherePart> parts;  // clump: the spheres, centres in the body frame
  double bounding_radius = 0.0;   // m, from the centre of mass
  MassProperties unit_mass;       // at unit density; centroid 0 (the body frame's origin)
  Vec3 shift = Vec3::Zero();      // the centre of mass in the frame the shape was given in
};

class ShapeTable {
public:
  /// Appends a clump of `parts` (centres in the user's frame), moved to its centre of mass;
  /// returns its index. Throws InputError for a duplicate name or bad parts (sphere_union).
  ShapeIndex add_clump(const std::string& name, std::vector<SpherePart> parts,
                       double tolerance = 1e-6);
  const Shape& operator[](ShapeIndex index) const { return shapes_[std::size_t(index)]; }
  std::size_t size() const { return shapes_.size(); }
  bool empty() const { return shapes_.empty(); }
  /// The index of the shape named `name`, or kSphere if there is none.
  ShapeIndex find(const std::string& name) const;
  /// The largest bounding radius of the table's shapes (0 if empty).
  double max_bounding_radius() const;

private:
  std::vector<Shape> shapes_;
};

/// The volume of a body of shape `shape` (kSphere: a sphere of `radius`).
double volume_of(const ShapeTable& shapes, ShapeIndex shape, double radius);

/// A part's centre in the world for a body at `position` turned by `rotation` (R of its
/// orientation): x + R p.
inline Vec3 part_centre(const Vec3& position, const Mat3& rotation, const SpherePart& part) {
  return position + rotation * part.position;
}

}  // namespace granite::body
