#pragma once
// Global bodies: obstacles and walls every process knows, with infinite mass. Each is a
// single primitive or a union of primitives (half-space, box, finite capped cylinder, hollow
// cylinder), or a triangle mesh (a wall from an STL file), static or kinematic with a prescribed velocity v and angular velocity ω about a
// point c (the channel's inflow piston, a rotating drum): a point x of the body moves with
// v + ω × (x − c). The integrator moves kinematic bodies by one step of that motion.
//
// Geometry is stored in world coordinates at the body's current position; move() shifts it.
#include "granite/body/material.hpp"
#include "granite/core/types.hpp"

#include <limits>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace granite::body {

/// The solid half-space {x : (x - point)·normal <= 0}; particles live on the side the unit
/// `normal` points to (the "outward" normal of the wall).
struct HalfSpace {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
};

/// A solid box: centre, half-extents along its own axes, orientation (body -> world).
struct Box {
  Vec3 center = Vec3::Zero();
  Vec3 half_extents = Vec3::Ones();
  Quat orientation = Quat::Identity();
};

/// A solid finite cylinder with flat caps: centre, unit axis, radius, half-length along axis.
/// inside: the solid is everything outside the cylinder (a closed drum); particles live
/// inside and touch the mantle and the caps from within.
struct Cylinder {
  Vec3 center = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();
  double radius = 1.0;
  double half_length = 1.0;
  bool inside = false;
};

class TriangleMesh;  // body/triangle_mesh.hpp

/// A wall made of triangles (issue 40): an immutable TriangleMesh in its own frame, shared by
/// every copy of the body, placed by `position` and `orientation` (a mesh point m is at
/// position + orientation · m). Moving the wall moves the placement, never the triangles.
/// Two-sided: a surface, not a solid (collision/mesh_contacts.hpp).
struct Mesh {
  std::shared_ptr<const TriangleMesh> mesh;
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  /// A world point in the mesh's frame, and a mesh point or direction in the world.
  Vec3 to_mesh(const Vec3& x) const { return orientation.conjugate() * (x - position); }
  Vec3 to_world(const Vec3& m) const { return position + orientation * m; }
};

using Primitive = std::variant<HalfSpace, Box, Cylinder, Mesh>;

/// Signed distance from a point to the primitive's surface (negative inside the solid; a
/// mesh's is the distance to its surface, never negative). A mesh's is searched only below
/// `bound`: exact where it is less, some value ≥ bound otherwise (a point far from a large
/// mesh costs no search of its triangles); the analytic primitives' is always exact.
double signed_distance(const Primitive& primitive, const Vec3& x,
                       double bound = std::numeric_limits<double>::infinity());

/// What makes `primitive` degenerate (a zero normal or axis, a half-extent, radius or length
/// not > 0): the configuration key and the expectation, e.g. {"normal", "expected a non-zero
/// vector"}; empty strings if it is valid. The one rule for `granite check` and `granite run`.
struct PrimitiveProblem {
  std::string key, expectation;
  explicit operator bool() const { return !key.empty(); }
};
PrimitiveProblem primitive_problem(const Primitive& primitive);
/// True if `now` is `then` translated by d (the same kind, size and orientation bit for bit;
/// a NaN there makes them differ), with d = anchor(now) − anchor(then) set either way.
bool translated_copy(const Primitive& now, const Primitive& then, Vec3& d);
/// Translates a primitive by d.
void translate(Primitive& primitive, const Vec3& d);
/// Rotates a primitive by q about the point `about` (x -> about + q (x − about)).
void rotate(Primitive& primitive, const Quat& q, const Vec3& about);
/// The point that locates a primitive (half-space: its point; box, cylinder: the centre; mesh:
/// its position), read
/// and set exactly (checkpoint/restart restores kinematic bodies bit for bit).
Vec3& anchor(Primitive& primitive);
const Vec3& anchor(const Primitive& primitive);

/// One global body: one primitive, or the union of several (contacts on a member's surface
/// that lie inside another member are internal and not reported).
struct GlobalBody {
  std::vector<Primitive> parts;
  Vec3 velocity = Vec3::Zero();  // prescribed; zero for static bodies
  MaterialIndex material = 0;
  BodyId id = -1;      // informational (e.g. for output); not used by the engine
  bool active = true;  // false: no contacts with it (a gate that has opened)
  // Prescribed rotation: angular velocity (rad/s, world frame) about rotation_center, a point
  // of the axis that moves with the body. The wall velocity at x is velocity + ω × (x − c).
  Vec3 angular_velocity = Vec3::Zero();
  Vec3 rotation_center = Vec3::Zero();
  // A conveyor belt's surface velocity (world frame): at a contact the surface moves by its
  // tangential part on top of the wall velocity, while the geometry stays (solver/
  // surface_velocity.hpp).
  Vec3 surface_velocity = Vec3::Zero();
  bool is_union() const { return parts.size() > 1; }
};

class GlobalBodies {
public:
  /// Adds a body (single primitive or union) and returns its index. Normalises the half-space
  /// normal and cylinder axis; throws InputError for degenerate geometry (zero normal/axis,
  /// non-positive extents/radius/half-length, empty union).
  std::size_t add(GlobalBody body);
  std::size_t add(const Primitive& primitive, MaterialIndex material,
                  const Vec3& velocity = Vec3::Zero());

  std::size_t size() const { return bodies_.size(); }
  const GlobalBody& operator[](std::size_t i) const { return bodies_[i]; }
  GlobalBody& operator[](std::size_t i) { return bodies_[i]; }

  /// Moves body i by d (e.g. to reset the inflow piston); set_velocity changes its motion.
  void move(std::size_t i, const Vec3& d);
  void set_velocity(std::size_t i, const Vec3& v) { bodies_[i].velocity = v; }
  /// Advances every kinematic body by one step: rotated by the angle |ω| dt about its
  /// rotation centre, then translated by dt * velocity with it (called by the integrator).
  void advance(double dt);
  /// Every part's anchor, flattened (x, y, z per part, bodies in order), and its inverse.
  std::vector<double> anchors() const;
  void set_anchors(const std::vector<double>& anchors);

private:
  std::vector<GlobalBody> bodies_;
};

}  // namespace granite::body
