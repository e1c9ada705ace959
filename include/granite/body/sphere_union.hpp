#pragma once
// Mass properties of a rigid union of spheres (a clump), per unit density: the volume of the
// union (overlaps counted once), its centroid and its inertia tensor about the centroid.
//
// Parts that do not overlap give the exact sum of the spheres' properties (parallel-axis
// theorem). Overlapping parts are integrated numerically: along x exactly, over the union of
// the parts' chords on each line (polynomial moments of 1D intervals); over y and z by
// Gauss–Legendre rules on panels between the places where the union's surface changes form
// (a chord or a slice's disk appears, two chord ends or two slice circles meet, three
// surfaces meet), so that the integrand is smooth on each panel and the rules converge faster
// than any power of their points. The points per panel are doubled until two levels agree to
// `tolerance` relative to the volume, to the largest inertia entry and (the centroid) to the
// radius of gyration √(max |I_ij| / V); that agreement, or the rounding bound of the sums if
// larger, is the reported error estimate.
#include "granite/core/types.hpp"

#include <vector>

namespace granite::body {

/// One sphere of a clump: its radius and its centre in the clump's frame.
struct SpherePart {
  double radius = 0.0;
  Vec3 position = Vec3::Zero();
};

/// Mass properties at unit density (multiply by the density for kg and kg m²).
struct MassProperties {
  double volume = 0.0;           // m³
  Vec3 centroid = Vec3::Zero();  // in the frame the parts were given in
  Mat3 inertia = Mat3::Zero();   // about the centroid, axes of that frame, m⁵
  bool exact = true;             // false: integrated numerically
  double relative_error = 0.0;   // the estimate (0 if exact), may exceed the tolerance
  int grid = 0;                  // Gauss points per panel along y and z (0 if exact)
};

/// The union's mass properties. Stops at 256 points per panel, or earlier when the levels
/// agree to rounding: relative_error then exceeds a tolerance that was not reached. Throws
/// InputError for no parts, a radius that is not finite and > 0, a centre that is not finite
/// or a tolerance that is not > 0.
MassProperties sphere_union_mass_properties(const std::vector<SpherePart>& parts,
                                            double tolerance = 1e-6);

}  // namespace granite::body
