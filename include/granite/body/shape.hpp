#pragma once
// The shapes of non-spherical particles, shared by every rank (the configuration's `shapes`
// list): a particle's `shape` field is an index into a ShapeTable, or kSphere (-1) for a plain
// sphere of its `radius`. The kinds (docs/shapes.md): the clump, a rigid union of spheres; the
// capsule, the points within a radius of a segment along the body's x axis; the box and the
// convex polyhedron (the hull of given vertices), both held as a ConvexPolyhedron; the
// ellipsoid of given semi-axes along the body axes.
//
// A shape is stored in its body frame: the frame the user gave it in, moved to the centre of
// mass (`shift` is that centre in the user's frame), so that a particle's position is its
// centre of mass and its body-frame inertia is the shape's about that centre. Its bounding
// radius (the largest distance from the centre of mass to its surface) is the particle's
// `radius`: cells, neighbour lists, the skin and the ghost width see the bounding sphere, which
// no rotation moves, so they need nothing else.
#include "granite/body/polyhedron.hpp"
#include "granite/body/sphere_union.hpp"
#include "granite/core/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace granite::body {

using ShapeIndex = std::int32_t;
inline constexpr ShapeIndex kSphere = -1;

enum class ShapeKind { clump, capsule, box, convex, ellipsoid };

/// Box and convex: the kinds whose surface is a ConvexPolyhedron.
inline bool is_polyhedral(ShapeKind kind) {
  return kind == ShapeKind::box || kind == ShapeKind::convex;
}

struct Shape {
  std::string name;
  ShapeKind kind = ShapeKind::clump;
  std::vector<SpherePart> parts{};   // clump: the spheres, centres in the body frame
  double radius = 0.0;               // capsule: m, its radius
  double half_length = 0.0;          // capsule: m, half its segment, from -h to +h along body x
  Vec3 half_extents = Vec3::Zero();  // box: m, along the body axes
  Vec3 semi_axes = Vec3::Zero();     // ellipsoid: m, along the body axes
  ConvexPolyhedron polyhedron{};     // box, convex: the surface in the body frame
  double bounding_radius = 0.0;      // m, from the centre of mass
  MassProperties unit_mass{};        // at unit density; centroid 0 (the body frame's origin)
  Vec3 shift = Vec3::Zero();         // the centre of mass in the frame the shape was given in
};

class ShapeTable {
public:
  /// Appends a clump of `parts` (centres in the user's frame), moved to its centre of mass;
  /// returns its index. Throws InputError for a duplicate name or bad parts (sphere_union).
  ShapeIndex add_clump(const std::string& name, std::vector<SpherePart> parts,
                       double tolerance = 1e-6);
  /// Appends a capsule of `radius` around the segment from -half_length to +half_length on
  /// the body's x axis (its centre of mass at the origin); returns its index. Throws
  /// InputError for a duplicate name, radius <= 0 or half_length < 0.
  ShapeIndex add_capsule(const std::string& name, double radius, double half_length);
  /// Appends a box of `half_extents` along its body axes; returns its index. Throws InputError
  /// for a duplicate name or a half extent that is not finite and > 0.
  ShapeIndex add_box(const std::string& name, const Vec3& half_extents);
  /// Appends the convex hull of `vertices` (the user's frame), moved to its centre of mass;
  /// returns its index. Throws InputError for a duplicate name or vertices that span no volume.
  ShapeIndex add_convex(const std::string& name, const std::vector<Vec3>& vertices);
  /// Appends an ellipsoid of `semi_axes` along its body axes; returns its index. Throws
  /// InputError for a duplicate name or a semi-axis that is not finite and > 0.
  ShapeIndex add_ellipsoid(const std::string& name, const Vec3& semi_axes);
  const Shape& operator[](ShapeIndex index) const { return shapes_[std::size_t(index)]; }
  std::size_t size() const { return shapes_.size(); }
  bool empty() const { return shapes_.empty(); }
  /// The index of the shape named `name`, or kSphere if there is none.
  ShapeIndex find(const std::string& name) const;
  /// The largest bounding radius of the table's shapes (0 if empty).
  double max_bounding_radius() const;
  /// Whether a shape of the table is polyhedral (a box or a convex hull).
  bool has_polyhedra() const;

private:
  /// Appends `shape` (its name checked unique); returns its index.
  ShapeIndex append(Shape shape);
  std::vector<Shape> shapes_;
};

/// The volume of a body of shape `shape` (kSphere: a sphere of `radius`).
double volume_of(const ShapeTable& shapes, ShapeIndex shape, double radius);

/// A capsule's mass properties at unit density (cylinder of length 2h and two hemispheres):
/// V = π r² 2h + 4/3 π r³; about its axis I_xx = ½ m_c r² + 2/5 m_s r², across it
/// I_yy = I_zz = m_c (r²/4 + h²/3) + m_s (83/320 r² + (h + 3r/8)²), with m_c = π r² 2h and
/// m_s = 4/3 π r³ (each hemisphere's centre of mass 3r/8 from its flat face, its own
/// transverse inertia 83/320 (m_s/2) r²).
MassProperties capsule_mass_properties(double radius, double half_length);

/// An ellipsoid's mass properties at unit density: V = 4/3 π a b c, I = V/5 diag(b² + c²,
/// a² + c², a² + b²) (the unit ball's ∫x² = V/5 under the map diag(a, b, c)).
MassProperties ellipsoid_mass_properties(const Vec3& semi_axes);

/// A capsule's axis in the world for a body at `position` turned by `rotation`: x ± h R e_x.
inline void capsule_axis(const Vec3& position, const Mat3& rotation, double half_length, Vec3& a,
                         Vec3& b) {
  const Vec3 d = half_length * rotation.col(0);
  a = position - d;
  b = position + d;
}

/// A part's centre in the world for a body at `position` turned by `rotation` (R of its
/// orientation): x + R p.
inline Vec3 part_centre(const Vec3& position, const Mat3& rotation, const SpherePart& part) {
  return position + rotation * part.position;
}

}  // namespace granite::body
