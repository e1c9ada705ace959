#pragma once
// Particle storage as a structure of arrays (one std::vector per attribute, all of length
// size()). Index i is the dense position of a body in this process; BodyId is its stable,
// globally unique identifier. Removing bodies compacts the arrays preserving the order of the
// survivors, so indices change but ids never do.
//
// A particle's contact shape is a sphere of `radius` (shape kSphere) or an entry of the shape
// table (body/shape.hpp), whose bounding radius `radius` then is. Its mass properties are
// general: a full body-frame inertia tensor I0, with the world-frame tensor I = R I0 R^T (R from
// the orientation) used by the integrator and by the Delassus blocks.
//
// The arrays are listed, with their names in files and where they go (checkpoints, snapshots,
// migration), in particle_fields.hpp; the storage operations below are generated from it.
#include "granite/body/material.hpp"
#include "granite/body/shape.hpp"
#include "granite/core/types.hpp"

#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

namespace granite::body {

/// I⁻¹ of an inertia tensor. A sphere's, aE with a > 0 and every off-diagonal entry +0, takes
/// the values Eigen's closed-form 3×3 inverse gives it, bit for bit, without its cofactors: its
/// first column's cofactors are a², +0, +0, det = a² a, and each entry is a cofactor times
/// 1/det (`Body.SphereInverseInertiaIsEigensBitForBit` checks it). Every other tensor: Eigen's.
inline Mat3 inverse_inertia_of(const Mat3& I) {
  const double a = I(0, 0);
  const auto plus_zero = [&](int r, int c) { return std::bit_cast<std::uint64_t>(I(r, c)) == 0; };
  if (a > 0.0 && I(1, 1) == a && I(2, 2) == a && plus_zero(0, 1) && plus_zero(0, 2) &&
      plus_zero(1, 0) && plus_zero(1, 2) && plus_zero(2, 0) && plus_zero(2, 1)) {
    const double cofactor = a * a;
    return (cofactor * (1.0 / (cofactor * a))) * Mat3::Identity();
  }
  return I.inverse();
}

/// Everything needed to create one particle: a value for every stored (not derived) field.
/// Fields left at their defaults get sensible values (id auto-assigned, identity orientation,
/// zero velocities and external loads).
struct ParticleInit {
  BodyId id = -1;  // -1: assign the next free id (one larger than every id seen so far)
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();  // world frame
  Vec3 force = Vec3::Zero();             // constant external force besides gravity
  Vec3 torque = Vec3::Zero();            // constant external torque, world frame
  double mass = 0.0;                     // > 0
  Mat3 body_inertia = Mat3::Identity();  // body-frame inertia tensor I0, SPD
  double radius = 0.0;                   // contact sphere radius (a shape's bounding radius), > 0
  ShapeIndex shape = kSphere;            // index into the ShapeTable, or kSphere
  MaterialIndex material = 0;
  std::int32_t group = 0;  // user tag (set by the particle source)
  std::int32_t fixed = 0;  // 1: never moves (zero inverse mass and inertia; a base or rough wall)
  Vec3 neighbour_reference = Vec3::Zero();  // set by the next neighbour-list build
};

/// Mass of a homogeneous sphere: rho * 4/3 pi r^3.
double sphere_mass(double density, double radius);
/// Body-frame inertia of a homogeneous sphere: 2/5 m r^2 E.
Mat3 sphere_inertia(double mass, double radius);

class Particles {
public:
  /// Adds a body; returns its id. Throws InputError on non-positive radius or mass. Explicit
  /// ids are not checked for uniqueness (the caller's responsibility when it passes them).
  BodyId add(const ParticleInit& init);
  /// Appends a body saved or sent elsewhere exactly as given: the id as is (>= 0) and the
  /// orientation bit for bit (not renormalised). Throws InputError like add().
  void add_exact(const ParticleInit& row);
  /// Adds a homogeneous sphere of the given material (mass and inertia from its density) and
  /// the user tag `group`; `fixed`: it never moves (its velocity must be zero).
  BodyId add_sphere(const MaterialTable& materials, MaterialIndex material, const Vec3& position,
                    double radius, const Vec3& velocity = Vec3::Zero(), BodyId id = -1,
                    std::int32_t group = 0, bool fixed = false);

  /// Adds a homogeneous body of shape `shape` (an index into `shapes`) turned by `orientation`:
  /// its mass and inertia from the material's density and the shape's unit-density mass
  /// properties, its radius the shape's bounding radius. As add_sphere otherwise.
  BodyId add_shaped(const MaterialTable& materials, const ShapeTable& shapes, ShapeIndex shape,
                    MaterialIndex material, const Vec3& position, const Quat& orientation,
                    const Vec3& velocity = Vec3::Zero(), BodyId id = -1, std::int32_t group = 0,
                    bool fixed = false);

  /// Appends every body of `other` with all its fields, the derived ones as they are (copies
  /// of bodies added here before, such as a halo's ghosts: nothing is recomputed or checked).
  void append(const Particles& other);
  /// Removes every body for which predicate(index) is true; returns how many were removed.
  /// The predicate sees the arrays before any removal. Order of survivors is preserved.
  std::size_t remove_if(const std::function<bool(std::size_t index)>& predicate);
  /// Reorders the first order.size() bodies, every field with them: the body at index
  /// order[k] moves to index k. `order` must be a permutation of [0, order.size()).
  void permute(const std::vector<std::uint32_t>& order);
  /// Keeps the first n bodies (n <= size()), capacity kept: the ghosts at the end of a step.
  void truncate(std::size_t n);
  void clear();
  void reserve(std::size_t n);
  /// Frees the arrays' unused capacity (after the initial build, whose arrays grew by doubling).
  void shrink_to_fit();

  std::size_t size() const { return id.size(); }
  bool empty() const { return id.empty(); }
  /// Index of the body with this id, or -1 (linear search; for tests and tools, not hot paths).
  std::ptrdiff_t find(BodyId body) const;
  /// The largest radius currently stored (0 if empty).
  double max_radius() const;

  /// I0^-1 (0 if fixed), formed on use rather than stored (72 bytes per body; the same bits
  /// every time: Eigen's closed-form 3×3 inverse, or inverse_inertia_of's sphere shortcut).
  Mat3 inverse_body_inertia(std::size_t i) const {
    return fixed[i] != 0 ? Mat3::Zero() : inverse_inertia_of(body_inertia[i]);
  }
  /// World-frame inertia I = R I0 R^T and its inverse R I0^-1 R^T.
  Mat3 world_inertia(std::size_t i) const;
  Mat3 world_inverse_inertia(std::size_t i) const;
  /// Rotational kinetic energy of body i, ½ ωᵀ I ω.
  double rotational_energy(std::size_t i) const;
  /// Translational + rotational kinetic energy of body i: ½ m v² + ½ ωᵀ I ω.
  double kinetic_energy(std::size_t i) const;
  double total_kinetic_energy() const;
  /// Angular momentum about the body's centre, I ω (world frame).
  Vec3 angular_momentum(std::size_t i) const { return world_inertia(i) * angular_velocity[i]; }

  // --- the arrays (public: the engine's kernels work on them directly) -------------------
  std::vector<BodyId> id;
  std::vector<Vec3> position;
  std::vector<Quat> orientation;
  std::vector<Vec3> velocity;
  std::vector<Vec3> angular_velocity;  // world frame
  std::vector<Vec3> force;             // constant external force besides gravity (N), user-set
  std::vector<Vec3> torque;            // constant external torque (N m, world frame), user-set
  std::vector<double> mass;
  std::vector<double> inverse_mass;
  std::vector<Mat3> body_inertia;  // I0
  std::vector<double> radius;      // a shaped body's bounding radius
  std::vector<ShapeIndex> shape;   // kSphere, or an index into the ShapeTable
  std::vector<MaterialIndex> material;
  std::vector<std::int32_t> group;  // user tag
  std::vector<std::int32_t> fixed;  // 1: zero inverse mass and inertia, never moves
  // Position at the last neighbour-list build (timestep::Parameters::skin > 0), for the
  // skin/2 test and for rebuilding the same lists on a restart; sent with the body (shifted
  // like the position for periodic images).
  std::vector<Vec3> neighbour_reference;

private:
  BodyId next_id_ = 0;
};

}  // namespace granite::body
