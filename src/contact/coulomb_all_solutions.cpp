// Enumeration of all solutions of the inelastic impact with Coulomb friction (analysis only;
// paper §4.1 Table 1 lists them for the academic problem). The sliding solutions are found as
// the real roots of a degree-two trigonometric equation, the same quartic machinery as Eq. (8)
// (cf. the quartic formulation of Bonnefon & Daviet cited there).
#include "granite/contact/conic_section.hpp"
#include "granite/contact/quartic.hpp"
#include "granite/contact/single_contact.hpp"

#include <algorithm>
#include <cmath>

namespace granite::contact {
namespace {

constexpr double kOpposeTolerance = 1e-6;     // |u × v| ≤ tol·|u·v|: slip v antiparallel to u
constexpr double kDuplicateTolerance = 1e-8;  // relative distance of coinciding solutions

void add_unique(CoulombSolutions& out, const Vec3& x, ContactCase kind) {
  for (std::size_t i = 0; i < out.count; ++i) {
    const Vec3& y = out.items[i].x;
    if ((x - y).norm() <= kDuplicateTolerance * (x.norm() + y.norm())) {
      return;
    }
  }
  if (out.count < CoulombSolutions::capacity) {
    out.items[out.count++] = {x, kind};
  }
}

// Slip in the tangential plane on the plane of maximum compression: u_to = Â x_to − b̂.
void slip(const ReducedProblem& p, double xt, double xo, double& vt, double& vo) {
  vt = p.h11 * xt + p.h12 * xo - p.bh1;
  vo = p.h12 * xt + p.h22 * xo - p.bh2;
}

bool opposes(double c, double s, double vt, double vo) {
  const double along = c * vt + s * vo;
  const double across = c * vo - s * vt;
  return along < 0.0 && std::abs(across) <= kOpposeTolerance * -along;
}

}  // namespace

CoulombSolutions coulomb_all_solutions(const Mat3& A, const Vec3& b, double mu) {
  CoulombSolutions out;
  const double bn = b[0];
  if (bn < 0.0) {
    add_unique(out, Vec3::Zero(), ContactCase::separating);  // pressure condition: only x = 0
    return out;
  }
  if (mu == 0.0) {
    add_unique(out, Vec3(bn / A(0, 0), 0.0, 0.0), ContactCase::frictionless);
    return out;
  }
  const ReducedProblem p = reduce(A, b, mu);
  if (bn == 0.0) {
    add_unique(out, Vec3::Zero(), ContactCase::degenerate);  // no collision: zero impulse (§4.2)
  }
  const Vec3& x0 = p.x0;
  if (x0[0] >= 0.0 && x0[1] * x0[1] + x0[2] * x0[2] <= mu * mu * x0[0] * x0[0]) {
    add_unique(out, x0, ContactCase::sticking);
  }

  if (bn == 0.0) {
    // Degenerate conic section (Eq. 9): the rays at α0 ± Δα where f_r = 0 (none if P2).
    // On a ray x_to = r u the slip is rÂu − b̂; it is antiparallel to u for r = (u×b̂)/(u×Âu).
    const double norm_a = std::sqrt(p.Ant * p.Ant + p.Ano * p.Ano);
    if (p.Ann > mu * norm_a) {
      return out;
    }
    const double cos_d = -p.Ann / (mu * norm_a);
    const double sin_d = std::sqrt(std::max(0.0, 1.0 - cos_d * cos_d));
    for (const double sign : {-1.0, 1.0}) {
      const double c = (p.Ant * cos_d - sign * p.Ano * sin_d) / norm_a;
      const double s = (p.Ano * cos_d + sign * p.Ant * sin_d) / norm_a;
      const double cross_A = c * (p.h12 * c + p.h22 * s) - s * (p.h11 * c + p.h12 * s);
      const double cross_b = c * p.bh2 - s * p.bh1;
      if (cross_A == 0.0) {
        continue;  // a continuum or nothing; not enumerated
      }
      const double r = cross_b / cross_A;
      double vt;
      double vo;
      slip(p, r * c, r * s, vt, vo);
      if (r > 0.0 && opposes(c, s, vt, vo)) {
        add_unique(out, p.boundary_impulse(r, c, s), ContactCase::degenerate);
      }
    }
    return out;
  }

  // b_n > 0: on the boundary x_to = r̄(α) u, the slip Âx_to − b̂ is parallel to u iff
  //   G(α) = μ b_n (u × Âu) − f_r(α) (u × b̂) = 0,
  // a trigonometric polynomial of degree two (expand f_r (u × b̂) with double angles).
  const double a1 = p.Ant;
  const double a2 = p.Ano;
  const double mbn = mu * bn;
  TrigPoly2 G;
  G.k0 = -0.5 * mu * (a1 * p.bh2 - a2 * p.bh1);
  G.k1c = -p.Ann * p.bh2;
  G.k1s = p.Ann * p.bh1;
  G.k2c = mbn * p.h12 - 0.5 * mu * (a1 * p.bh2 + a2 * p.bh1);
  G.k2s = 0.5 * mbn * (p.h22 - p.h11) - 0.5 * mu * (a2 * p.bh2 - a1 * p.bh1);
  double c[4];
  double s[4];
  const int n = trig_poly_unit_roots(G, c, s);
  for (int i = 0; i < n; ++i) {
    const double fr = p.fr(c[i], s[i]);
    if (!(fr > 0.0)) {
      continue;  // no boundary point in this direction (outside 𝓘, Eq. 6)
    }
    const double r = mbn / fr;
    double vt;
    double vo;
    slip(p, r * c[i], r * s[i], vt, vo);
    if (opposes(c[i], s[i], vt, vo)) {
      add_unique(out, p.boundary_impulse(r, c[i], s[i]), ContactCase::sliding);
    }
  }
  return out;
}

}  // namespace granite::contact
