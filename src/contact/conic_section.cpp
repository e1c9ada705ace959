// Reduction to the plane of maximum compression and the non-sliding branches of the paper's
// structogram (Fig. 5), including the degenerate conic sections of Eq. (9).
#include "granite/contact/conic_section.hpp"

#include <algorithm>
#include <cmath>

namespace granite::contact {

// Eq. (9): b_n = 0, μ > 0, x0 outside the cone. If P2 (A_nn > μ‖(A_nt, A_no)‖) the conic section
// degenerates to the point 0; otherwise to the two rays at α0 ± Δα of Eq. (6) (one ray for the
// parabola, Δα = π) and the minimum lies on one of them. The paper picks the ray by the side of
// x0,to relative to (A_nt, A_no); we evaluate both rays, which costs the same and does not depend
// on Â being isotropic.
Impulse degenerate_impulse(const ReducedProblem& p) {
  const double norm_a = std::sqrt(p.Ant * p.Ant + p.Ano * p.Ano);
  if (p.Ann > p.mu * norm_a) {
    return {Vec3::Zero(), ContactCase::degenerate};  // P2: degenerate ellipse
  }
  const double cos_d = -p.Ann / (p.mu * norm_a);  // cos Δα
  const double sin_d = std::sqrt(std::max(0.0, 1.0 - cos_d * cos_d));
  const double ac = p.Ant / norm_a;  // (cos α0, sin α0)
  const double as = p.Ano / norm_a;
  Vec3 best = Vec3::Zero();
  double best_f = 0.0;
  for (const double sign : {-1.0, 1.0}) {
    const double c = ac * cos_d - sign * as * sin_d;
    const double s = as * cos_d + sign * ac * sin_d;
    const double lin = p.lin(c, s);
    if (lin <= 0.0) {
      continue;  // r* = max(0, …) = 0 on this ray
    }
    const double r = lin / p.quad(c, s);
    const double f = r * (0.5 * r * p.quad(c, s) - lin);
    if (f < best_f) {
      best_f = f;
      best = p.boundary_impulse(r, c, s);  // on the ray f_r = 0: x_n = r/μ
    }
  }
  return {best, ContactCase::degenerate};
}

bool kkt_boundary_minimum(const ReducedProblem& p, double c, double s, double& r_bar) {
  const double fr = p.fr(c, s);
  if (!(fr > 0.0)) return false;      // outside 𝓘 (Eq. 6)
  const double r = p.mu * p.bn / fr;  // r̄(α)
  // ∇f = Â x_to − b̂ at x_to = r u; ∇g = u + (μ/A_nn) a_to.
  const double gf1 = r * (p.h11 * c + p.h12 * s) - p.bh1;
  const double gf2 = r * (p.h12 * c + p.h22 * s) - p.bh2;
  const double gg1 = c + p.mu * p.Ant / p.Ann;
  const double gg2 = s + p.mu * p.Ano / p.Ann;
  const double dot = gf1 * gg1 + gf2 * gg2;
  // cos ∠(∇f, ∇g) < −½, squared: dot < 0 and dot² > ¼‖∇f‖²‖∇g‖² (no square root).
  if (!(dot < 0.0 && dot * dot > 0.25 * (gf1 * gf1 + gf2 * gf2) * (gg1 * gg1 + gg2 * gg2) &&
        gf1 * c + gf2 * s < 0.0))
    return false;
  r_bar = r;
  return true;
}

}  // namespace granite::contact
