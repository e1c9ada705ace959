#pragma once
// The friction cone K_μ = {x : ‖x_to‖ ≤ μ x_n, x_n ≥ 0} in a contact frame (n, t, o) and its Euclidean
// projection, used by the error measures (fc3d, CCP) and the projected-gradient solvers.
#include "granite/core/types.hpp"

#include <cmath>

namespace granite::contact {

/// P_K(z): z itself inside K, 0 inside the polar cone −K* (μ‖z_to‖ ≤ −z_n), otherwise the
/// nearest point of the boundary, x_n = (μ‖z_to‖ + z_n)/(1 + μ²), x_to = μ x_n z_to/‖z_to‖.
/// Here with zt = ‖z_to‖ given: the error measures pass a plain root (std::hypot is slow
/// there; docs/performance.md), the solvers' projections the overload below.
inline Vec3 project_onto_friction_cone(const Vec3& z, double mu, double zt) {
  if (zt <= mu * z[0] && z[0] >= 0.0) return z;  // μ = 0: x_n >= 0 is not implied
  if (mu * zt <= -z[0]) return Vec3::Zero();
  const double xn = (mu * zt + z[0]) / (1.0 + mu * mu);
  return {xn, mu * xn * z[1] / zt, mu * xn * z[2] / zt};
}
inline Vec3 project_onto_friction_cone(const Vec3& z, double mu) {
  return project_onto_friction_cone(z, mu, std::hypot(z[1], z[2]));
}

}  // namespace granite::contact
