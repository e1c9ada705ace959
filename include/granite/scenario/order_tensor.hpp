#pragma once
// The orientational order of elongated grains (docs/measurements.md, "orientation"): each grain
// contributes its long axis u (a unit vector in the world frame, sign irrelevant), and the
// order tensor of a set of N grains is (de Gennes)
//   Q = (3/2) ⟨u uᵀ⟩ − ½ I,
// symmetric and traceless. Its largest eigenvalue is the nematic order S (0 for isotropic
// axes, 1 for parallel ones) and its eigenvector the director. Sums over grains combine over
// ranks and cells by addition (OrderSums).
#include "granite/body/particles.hpp"
#include "granite/body/shape.hpp"
#include "granite/core/types.hpp"

#include <array>
#include <vector>

namespace granite::scenario {

/// Each shape's long axis in its body frame: the principal axis of least moment of inertia
/// when that moment is below 0.95 times the next (a prolate grain: capsule, dimer, brick,
/// elongated ellipsoid or polyhedron), else zero (no distinguished long axis: cubes,
/// tetrahedral clumps, oblate grains). Indexed by ShapeIndex.
std::vector<Vec3> long_axes(const body::ShapeTable& shapes);

/// The grain's long axis in the world frame, or zero (a sphere, a shape without one).
Vec3 long_axis_of(const body::Particles& particles, std::size_t i, const std::vector<Vec3>& axes);

/// Σ u uᵀ (its 6 components xx, yy, zz, xy, xz, yz) and the grain count, as 7 doubles.
struct OrderSums {
  static constexpr std::size_t kSize = 7;
  static void add(double* sums, const Vec3& u);
};

struct Order {
  double grains = 0;  // the count
  double S = 0;       // the largest eigenvalue of Q (NaN without grains)
  Vec3 director;      // its unit eigenvector (NaN without grains)
  Mat3 Q;             // the order tensor (NaN without grains)
};

/// Q, S and the director from the 7 sums of OrderSums.
Order order_of(const double* sums);

}  // namespace granite::scenario
