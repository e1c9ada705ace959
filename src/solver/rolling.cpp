#include "granite/solver/rolling.hpp"

#include "granite/collision/shape_contacts.hpp"
#include "granite/solver/contact_kinematics.hpp"
#include "granite/solver/rolling_ccp.hpp"

#include <algorithm>
#include <cmath>

namespace granite::solver {

namespace {

constexpr double kTiny = 1e-300;

// A particle's radius of curvature at its witness point `x` (a sphere: its radius).
double curvature_radius(const body::Particles& particles, const body::ShapeTable& shapes,
                        std::size_t i, const Vec3& x) {
  if (particles.shape[i] == body::kSphere) return particles.radius[i];
  return collision::surface_radius(particles, shapes, i, x);
}

// |x| without underflow or overflow of its square (hypot's accuracy, a fraction of its cost).
double length(const Vec2& x) {
  const double s = std::max(std::abs(x[0]), std::abs(x[1]));
  if (!(s > 0.0)) return 0.0;
  const double a = x[0] / s, b = x[1] / s;
  return s * std::sqrt(a * a + b * b);
}

}  // namespace

void setup_rolling(const collision::ContactList& contacts, const body::Particles& particles,
                   const body::GlobalBodies& globals, const body::MaterialTable& materials,
                   const body::ShapeTable& shapes, const std::vector<BodyState>& states,
                   const std::vector<SolverContact>& solver_contacts, bool cone_complementarity,
                   RollingBlocks& out) {
  out.contacts.clear();
  out.torques.clear();
  out.joint.clear();
  out.block_of.clear();
  if (!materials.has_rolling_resistance()) return;
  if (cone_complementarity) out.block_of.assign(solver_contacts.size(), -1);
  const std::size_t n = particles.size();
  for (std::size_t j = 0; j < solver_contacts.size(); ++j) {
    const SolverContact& c = solver_contacts[j];
    const body::MaterialIndex m1 = particles.material[c.body1];
    const body::MaterialIndex m2 = material_of(particles, globals, c.body2);
    const double mu_r = materials.pair_rolling_friction(m1, m2);
    const double mu_s = materials.pair_spinning_friction(m1, m2);
    if (mu_r == 0.0 && mu_s == 0.0) continue;
    // R* = 1/(1/r₁ + 1/r₂); a global body is flat (1/r₂ = 0).
    double curvature = 1.0 / curvature_radius(particles, shapes, c.body1, contacts.witness1(j));
    if (c.body2 < n)
      curvature += 1.0 / curvature_radius(particles, shapes, c.body2, contacts.witness2(j));
    const double radius = 1.0 / curvature;
    RollingContact r;
    r.contact = std::uint32_t(j);
    const BodyState &s1 = states[c.body1], &s2 = states[c.body2];
    if (s1.isotropic() && s2.isotropic()) {  // spheres, walls: (k₁ + k₂) I exactly (decoupled rows)
      r.W = (s1.inverse_inertia_k + s2.inverse_inertia_k) * Mat3::Identity();
    } else {
      const Mat3 frame = c.frame();
      Mat3 response;  // (I₁⁻¹ + I₂⁻¹) Q, column by column
      for (int k = 0; k < 3; ++k)
        response.col(k) = s1.angular_response(frame.col(k)) + s2.angular_response(frame.col(k));
      r.W = frame.transpose() * response;
    }
    r.radius = radius;
    r.rolling_arm = mu_r * radius;
    r.spinning_arm = mu_s * radius;
    if (cone_complementarity) {
      out.block_of[j] = std::int32_t(out.contacts.size());
      out.joint.push_back(
          contact::prepare_rolling_ccp(rolling_delassus(c, r, s1, s2), rolling_cone(c, r)));
    }
    out.contacts.push_back(r);
  }
  out.torques.assign(out.contacts.size(), Vec3::Zero());
}

Vec2 disk_minimum(const Mat2& A, const Vec2& c, double r) {
  if (!(r > 0.0) || !std::isfinite(1.0 / r)) return Vec2::Zero();  // 0 to rounding
  if (A(0, 1) == 0.0 && A(1, 0) == 0.0 && A(0, 0) == A(1, 1)) {    // α I: c/α, or r c/|c|
    const double norm = length(c);
    return norm <= r * A(0, 0) ? Vec2(c / A(0, 0)) : Vec2(c * (r / norm));
  }
  // (A + ν I)⁻¹ rhs by Cramer's rule on (A + ν I)/s, s = max(ν, trace A): its determinant
  // stays of order 1 for ν up to the largest double (tiny bounds r give ν ~ |c|/r).
  const auto solve = [&](double nu, const Vec2& rhs) {
    const double s = std::max(nu, A.trace());
    const double a = (A(0, 0) + nu) / s, d = (A(1, 1) + nu) / s, b = 0.5 * (A(0, 1) + A(1, 0)) / s;
    const double det = a * d - b * b;
    return Vec2((d * rhs[0] - b * rhs[1]) / det / s, (a * rhs[1] - b * rhs[0]) / det / s);
  };
  // Lengths scaled (length()): |x| ~ r can be far below the square root of the least double.
  Vec2 x = solve(0.0, c);
  if (length(x) <= r) return x;
  // Newton on ψ(ν) = 1/r − 1/|x(ν)|: ψ' = −xᵀ (A + ν I)⁻¹ x / |x|³ (dx/dν = −(A + νI)⁻¹ x),
  // written with u = x/|x| as uᵀ (A + ν I)⁻¹ u / |x| (|x|³ underflows for tiny bounds). From
  // ν = max(0, |c|/r − trace A), a lower bound of the root (|x(ν)| >= |c| / (λ_max + ν)).
  double nu = std::max(0.0, length(c) / r - A.trace());
  x = solve(nu, c);
  for (int k = 0; k < 100; ++k) {
    const double norm = length(x);
    const Vec2 u = x / norm;
    const double slope = u.dot(solve(nu, u)) / norm;
    const double step = (1.0 / r - 1.0 / norm) / slope;
    nu += step;
    x = solve(nu, c);
    // Monotone from the left: done when a step no longer moves ν beyond rounding.
    if (!(step > 4e-16 * (nu + A.trace()))) break;
  }
  return x * (r / length(x));  // on the rim, to rounding
}

Vec3 torque_block_minimum(const Mat3& W, const Vec3& b, double spin_bound, double rolling_bound,
                          const Vec3& start) {
  Vec3 tau = start;
  tau[0] = std::clamp(tau[0], -spin_bound, spin_bound);
  const Mat2 Wtt = W.bottomRightCorner<2, 2>();
  const bool coupled = W(0, 1) != 0.0 || W(0, 2) != 0.0;  // else one pass is exact
  for (int pass = 0; pass < 50; ++pass) {
    const Vec3 before = tau;
    // The spin row at fixed rolling torque, then the rolling disk at fixed spin torque.
    tau[0] = spin_bound > 0.0 ? std::clamp((b[0] - W(0, 1) * tau[1] - W(0, 2) * tau[2]) / W(0, 0),
                                           -spin_bound, spin_bound)
                              : 0.0;
    const Vec2 rhs = b.tail<2>() - W.block<2, 1>(1, 0) * tau[0];
    tau.tail<2>() = disk_minimum(Wtt, rhs, rolling_bound);
    if (!coupled || (tau - before).norm() <= 1e-14 * tau.norm()) break;
  }
  return tau;
}

Vec3 clamp_torque(Vec3 tau, double spin_bound, double rolling_bound) {
  tau[0] = std::clamp(tau[0], -spin_bound, spin_bound);
  const double r = length(tau.tail<2>());
  if (r > rolling_bound) tau.tail<2>() *= rolling_bound / r;
  return tau;
}

void apply_torques(const std::vector<SolverContact>& contacts, const RollingBlocks& rolling,
                   std::vector<BodyState>& bodies) {
  for (std::size_t k = 0; k < rolling.contacts.size(); ++k) {
    const SolverContact& c = contacts[rolling.contacts[k].contact];
    apply_couple(c.frame() * rolling.torques[k], bodies[c.body1], bodies[c.body2]);
  }
}

double rolling_sweep(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                     RollingBlocks& rolling, std::vector<BodyState>& bodies) {
  double max_change2 = 0.0, max_torque2 = 0.0;
  for (std::size_t k = 0; k < rolling.contacts.size(); ++k) {
    const RollingContact& r = rolling.contacts[k];
    const SolverContact& c = contacts[r.contact];
    BodyState& b1 = bodies[c.body1];
    BodyState& b2 = bodies[c.body2];
    const double normal = std::max(impulses[r.contact][0], 0.0);
    const Vec3 old = rolling.torques[k];
    const Vec3 w = c.frame().transpose() * relative_angular_velocity(b1, b2);
    const Vec3 b = r.W * old - w;
    Vec3 tau = Vec3::Zero();
    if (normal > 0.0)
      tau = torque_block_minimum(r.W, b, r.spinning_arm * normal, r.rolling_arm * normal, old);
    if (c.weight != 1.0) tau = old + c.weight * (tau - old);
    const Vec3 change = tau - old;
    rolling.torques[k] = tau;
    if (!change.isZero(0.0)) apply_couple(c.frame() * change, b1, b2);
    max_change2 = std::max(max_change2, change.squaredNorm());
    max_torque2 = std::max(max_torque2, tau.squaredNorm());
  }
  return std::sqrt(max_change2) / std::max(std::sqrt(max_torque2), kTiny);
}

}  // namespace granite::solver
