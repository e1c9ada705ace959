#include "granite/solver/relaxation.hpp"

#include <algorithm>
#include <cmath>

namespace granite::solver {

namespace {

// Relative velocity of the contact's bodies at the contact point, u = v1 + ω1×r1 − v2 − ω2×r2,
// with the current corrections included.
inline Vec3 relative_velocity(const SolverContact& c, const BodyState& b1, const BodyState& b2) {
  return (b1.v + b1.dv) + (b1.w + b1.dw).cross(c.r1) - (b2.v + b2.dv) - (b2.w + b2.dw).cross(c.r2);
}

// Applies the world-frame impulse p (+ on body 1, − on body 2) to the corrections.
inline void apply(const SolverContact& c, const Vec3& p, BodyState& b1, BodyState& b2) {
  b1.dv += b1.inverse_mass * p;
  b1.dw += b1.inverse_inertia * c.r1.cross(p);
  b2.dv -= b2.inverse_mass * p;
  b2.dw -= b2.inverse_inertia * c.r2.cross(p);
}

constexpr double kTiny = 1e-300;

}  // namespace

double relaxation_sweep(const contact::ModelSettings& model,
                        const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                        std::vector<BodyState>& bodies) {
  double max_change2 = 0.0, max_impulse2 = 0.0;
  const std::size_t m = contacts.size();
  for (std::size_t j = 0; j < m; ++j) {
    const SolverContact& c = contacts[j];
    BodyState& b1 = bodies[c.body1];
    BodyState& b2 = bodies[c.body2];
    const Vec3 old = impulses[j];
    // u in the contact frame; b = −(u without this contact's impulse) − g e_n (§3.1, Eq. 5).
    const Vec3 u = c.frame.transpose() * relative_velocity(c, b1, b2);
    Vec3 b = c.A * old - u;
    b[0] -= c.gap_term;
    Vec3 x = contact::solve(model, c.A, b, c.mu).x;
    if (c.weight != 1.0) x = old + c.weight * (x - old);  // branch keeps w = 1 bit-exact
    const Vec3 change = x - old;
    impulses[j] = x;
    apply(c, c.frame * change, b1, b2);
    max_change2 = std::max(max_change2, change.squaredNorm());
    max_impulse2 = std::max(max_impulse2, x.squaredNorm());
  }
  return std::sqrt(max_change2) / std::max(std::sqrt(max_impulse2), kTiny);
}

RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies) {
  RelaxationResult result;
  if (contacts.empty()) return result;
  result.converged = false;
  while (result.sweeps < settings.max_sweeps) {
    result.residual = relaxation_sweep(settings.model, contacts, impulses, bodies);
    ++result.sweeps;
    if (result.residual < settings.tolerance) {
      result.converged = true;
      break;
    }
  }
  return result;
}

void apply_impulses(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                    std::vector<BodyState>& bodies) {
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const SolverContact& c = contacts[j];
    apply(c, c.frame * impulses[j], bodies[c.body1], bodies[c.body2]);
  }
}

}  // namespace granite::solver
