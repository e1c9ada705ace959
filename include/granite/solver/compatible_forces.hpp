#pragma once
// Compatible contact forces (Olsen & Kamrin, seed `olsen-kamrin_compatible-contact-dynamics`):
// among all non-negative normal contact impulses f with Bᵀf = F̃ (Eq. 37: the net contact
// impulse on every body from the plain, frictionless step) choose the one minimising the
// complementary energy of a no-tension truss (Eq. 36, Eq. 34 per contact)
//     Φ(f) = Σ_i ((p−1)/p) k̃_i^{1/(1−p)} f_i^{p/(p−1)},   p = 2 (Hooke), p = 5/2 (Hertz).
// The pass changes forces only, never velocities. Frictionless contacts only (as the paper).
//
// Method: augmented Lagrangian (Nocedal & Wright, Numerical Optimization, 2nd ed., Alg. 17.4)
//     L_A(f; λ, μ) = Φ(f) − λᵀ(Bᵀf − F̃) + (μ/2)‖Bᵀf − F̃‖²,   f ≥ 0,
// each bound-constrained subproblem solved by an accelerated projected gradient (Nesterov /
// FISTA with backtracking on the Lipschitz estimate and adaptive restart, the scheme of
// solver/apgd.hpp). At the solution λ are the bodies' compatible (negative) displacements:
// Φ'(f_i) = (f_i/k̃_i)^{1/(p−1)} = (Bλ)_i is the contact's overlap wherever f_i > 0.
//
// The algorithm is written once against an Operator, so that it can run distributed:
//   Eigen::Index contacts() const;   local contacts (one unknown f_i each)
//   Eigen::Index rows() const;       local constraint rows (owned bodies' free directions)
//   void transpose(const Eigen::VectorXd& f, Eigen::VectorXd& r);  r = Bᵀf (distributed:
//       ghost contributions summed into their owners' rows, as the halo exchange does)
//   void apply(const Eigen::VectorXd& y, Eigen::VectorXd& g);      g = B y (distributed: the
//       owners' rows sent back to the ghosts first)
//   template <std::size_t K> void sum(std::array<double, K>& partial);   global sums
//   template <std::size_t K> void max(std::array<double, K>& partial);   global maxima
// StepCompatibleOperator below is the form on a time step's contacts and bodies (serial or
// distributed).
#include "granite/core/names.hpp"
#include "granite/solver/apgd_step.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace granite::solver {

enum class ContactLaw { hooke, hertz };
/// The names of contact.compatible (besides "off").
inline constexpr std::array<Named<ContactLaw>, 2> kContactLawNames{{
    {ContactLaw::hooke, "hooke"},
    {ContactLaw::hertz, "hertz"},
}};

/// The exponent p of the contact law f = k c^{p−1} (Eq. 34): 2 for Hooke, 5/2 for Hertz.
inline double contact_law_exponent(ContactLaw law) { return law == ContactLaw::hooke ? 2.0 : 2.5; }
inline std::string_view contact_law_name(ContactLaw law) { return name_of(kContactLawNames, law); }

/// Relative Hooke stiffness of a contact between materials with Young's moduli E_a, E_b: two
/// springs in series, k ∝ (1/E_a + 1/E_b)⁻¹ (issue 17; gives the paper's §8.2.2 ratios 1/5,
/// 1/3, 1 for E₁/E₀ = 5). A wall's modulus is its material's.
inline double hooke_stiffness(double youngs_a, double youngs_b) {
  return 1.0 / (1.0 / youngs_a + 1.0 / youngs_b);
}

/// Relative Hertz stiffness of two spheres (or a sphere and a wall, radius_b = ∞): the Hertz law
/// f = (4/3) E* √R* c^{3/2} (K. L. Johnson, Contact Mechanics, 1985, Eq. 4.22–4.23) with
/// 1/E* = 1/E_a + 1/E_b (equal Poisson ratios, whose factor (1−ν²) is common to all contacts
/// and drops out of relative stiffnesses) and 1/R* = 1/R_a + 1/R_b.
inline double hertz_stiffness(double youngs_a, double youngs_b, double radius_a, double radius_b) {
  const double inverse_radius = 1.0 / radius_a + (std::isinf(radius_b) ? 0.0 : 1.0 / radius_b);
  return 4.0 / 3.0 * hooke_stiffness(youngs_a, youngs_b) * std::sqrt(1.0 / inverse_radius);
}

/// The relative stiffness k̃ of every detected contact from the materials' Young's moduli
/// (`youngs_by_material[material index]`, > 0): hooke_stiffness, or hertz_stiffness with the
/// radii of the bodies' surfaces at the contact (collision::surface_radius: a clump's touching
/// part); a global body counts as flat (R = ∞) for Hertz.
Eigen::VectorXd relative_stiffness(ContactLaw law, const collision::ContactList& contacts,
                                   const body::Particles& particles, const body::ShapeTable& shapes,
                                   const body::GlobalBodies& globals,
                                   const std::vector<double>& youngs_by_material);

struct CompatibleSettings {
  // Stop when ‖Bᵀf − F̃‖∞ ≤ tolerance·‖F̃‖∞ and the Lagrangian's projected gradient (in the
  // scaled problem: F̃ and k̃ divided by their largest entries) is ≤ tolerance.
  double tolerance = 1e-8;
  int max_outer_iterations = 60;
  int max_inner_iterations = 20000;  // per subproblem
  double initial_penalty = 10.0;     // μ₀ (> 1, Alg. 17.4)
  double penalty_growth = 10.0;      // μ ← growth·μ when the violation does not drop enough
  double max_penalty = 1e5;          // μ never grows beyond (rounding, see the outer loop)
  double lipschitz_growth = 2.0;     // backtracking, as ApgdSettings
  double lipschitz_decay = 0.9;
};

enum class CompatibleStatus {
  converged,             // both tolerances reached
  max_outer_iterations,  // the augmented Lagrangian did not reach the tolerances
  infeasible,            // F̃ ≠ 0 but there is no contact to carry it
};

std::string to_string(CompatibleStatus status);

struct CompatibleResult {
  CompatibleStatus status = CompatibleStatus::max_outer_iterations;
  int outer_iterations = 0;
  int inner_iterations = 0;  // accelerated-gradient iterations over all subproblems
  double violation = 0.0;  // ‖Bᵀf − F̃‖∞ in the units of F̃ (scaled rows, see operator)
  double relative_violation = 0.0;  // violation / ‖F̃‖∞
  double stationarity = 0.0;  // ‖f − max(0, f − ∇_f L(f, λ))‖∞ of the scaled problem
  double penalty = 0.0;       // the final μ
  bool converged() const { return status == CompatibleStatus::converged; }
};

/// B on a time step's contacts: contact i pushes body1 with f_i n_i (moment r1 × n_i f_i) and
/// body2 with −f_i n_i (moment −r2 × n_i f_i). Rows exist for the free directions of the bodies
/// this process owns: three force rows for a body with inverse mass > 0, three moment rows for a
/// body with a non-zero inverse inertia; global and fixed bodies have none (they take any
/// force), and neither have ghosts, bodies [ghost_begin, ghost_end) of a distributed step.
/// Moment rows are divided by the body's radius of gyration-like length ℓ (ℓ = r for a
/// sphere), so that all rows carry forces (a row scaling: it changes neither the feasible set
/// nor the solution; it depends on the body alone, so owners and ghost holders agree).
///
/// Distributed (a parallel::HaloExchange, as for APGD's product): Bᵀf accumulates every local
/// contact's force and moment on scratch bodies and exchanges them like velocity corrections
/// (ghost contributions summed into their owners, totals sent back); By writes the owners' rows
/// into the scratch bodies and exchanges them (the owners' values reach the ghosts), then reads
/// each contact's n·(relative correction). Global sums and maxima go through the exchange.
class StepCompatibleOperator {
public:
  StepCompatibleOperator(const std::vector<SolverContact>& contacts,
                         const std::vector<BodyState>& bodies,
                         Exchange& exchange = local_exchange(), std::size_t ghost_begin = 0,
                         std::size_t ghost_end = 0);

  Eigen::Index contacts() const { return Eigen::Index(contacts_->size()); }
  Eigen::Index rows() const { return rows_; }
  void transpose(const Eigen::VectorXd& f, Eigen::VectorXd& r);
  void apply(const Eigen::VectorXd& y, Eigen::VectorXd& g);
  template <std::size_t K>
  void sum(std::array<double, K>& partial) {
    exchange_->sum(partial.data(), K);
  }
  template <std::size_t K>
  void max(std::array<double, K>& partial) {
    exchange_->max(partial.data(), K);
  }

  /// F̃ of Eq. (37) in impulse units: M dv and I dw (the bodies' contact corrections of the
  /// plain step, complete on the owners after its last exchange), in this operator's rows.
  Eigen::VectorXd net_contact_impulse(const std::vector<BodyState>& bodies) const;

private:
  struct BodyRows {
    int force = -1;             // first of three force rows, −1 if the body does not translate
    int moment = -1;            // first of three moment rows, −1 if it does not rotate
    double moment_scale = 1.0;  // 1 / ℓ
  };
  void clear_scratch();     // zero scratch corrections
  void exchange_scratch();  // ghost sums to owners, owners' values back (no-op serially)
  const std::vector<SolverContact>* contacts_;
  Exchange* exchange_;
  std::vector<BodyRows> body_rows_;
  std::vector<BodyState> scratch_;  // unit inverse mass and inertia: dv = Σ force, dw = Σ moment
  Eigen::Index rows_ = 0;
};

namespace detail {

/// The derivative a_i f^{1/(p−1)} of the per-contact complementary energy
/// Φ_i = ((p−1)/p) a_i f^{p/(p−1)}, with a_i = k̃_i^{1/(1−p)} (Eq. 34). Extended evenly to f < 0 (|f| in place
/// of f, a convex C¹ extension) because the extrapolated points of the momentum step may leave
/// f ≥ 0; the iterates themselves are projected.
struct ComplementaryEnergy {
  ContactLaw law;
  Eigen::VectorXd a;
  void gradient(const Eigen::VectorXd& f, Eigen::VectorXd& g) const {
    for (Eigen::Index i = 0; i < f.size(); ++i)
      g[i] = law == ContactLaw::hooke ? a[i] * f[i]
                                      : std::copysign(a[i] * std::cbrt(f[i] * f[i]), f[i]);
  }
};

}  // namespace detail

/// Solves Eq. (36) for the normal impulses f (one per contact of the operator; the input is the
/// start, projected onto f ≥ 0; a plain step's impulses are a feasible start) with stiffnesses
/// k̃ > 0 and net body impulses F̃ (the operator's rows). Returns what it reached: read status.
template <class Operator>
CompatibleResult compatible_forces(Operator& op, ContactLaw law, const Eigen::VectorXd& stiffness,
                                   const Eigen::VectorXd& net_impulse,
                                   const CompatibleSettings& settings, Eigen::VectorXd& f) {
  using Eigen::Index;
  using Eigen::VectorXd;
  const Index n = op.contacts(), m = op.rows();
  CompatibleResult result;
  if (f.size() != n) f = VectorXd::Zero(n);

  // Scale: F̃ by its largest entry, k̃ by its largest (Φ is homogeneous in both, so the
  // minimiser scales back exactly: f(αF̃) = αf(F̃), and a common factor of k̃ only scales Φ).
  std::array<double, 2> scales{m > 0 ? net_impulse.cwiseAbs().maxCoeff() : 0.0,
                               n > 0 ? stiffness.maxCoeff() : 0.0};
  op.max(scales);
  const double force_scale = scales[0], stiffness_scale = scales[1];
  if (!(force_scale > 0.0)) {  // nothing to carry: f = 0 is the unique minimiser
    f.setZero();
    result.status = CompatibleStatus::converged;
    return result;
  }
  if (!(stiffness_scale > 0.0)) {
    result.status = CompatibleStatus::infeasible;
    result.violation = force_scale;
    result.relative_violation = 1.0;
    return result;
  }
  const double p = contact_law_exponent(law);
  detail::ComplementaryEnergy energy{law, VectorXd(n)};
  for (Index i = 0; i < n; ++i)
    energy.a[i] = std::pow(stiffness[i] / stiffness_scale, 1.0 / (1.0 - p));
  const VectorXd target = net_impulse / force_scale;
  VectorXd x = (f / force_scale).cwiseMax(0.0);

  VectorXd lambda = VectorXd::Zero(m), r(m), z(n), grad(n);
  // c(x) = Bᵀx − F̃ and z(x) = B(μ c(x) − λ), so that ∇_x L_A = Φ'(x) + z(x).
  const auto constraint = [&](const VectorXd& xv, VectorXd& rv) {
    op.transpose(xv, rv);
    rv -= target;
  };
  VectorXd w(m);
  const auto multiplier_term = [&](const VectorXd& rv, double mu, VectorXd& zv) {
    w = mu * rv - lambda;
    op.apply(w, zv);
  };
  // ‖x − max(0, x − ∇)‖∞ of a point whose Φ' + z is grad.
  const auto projected_gradient = [&](const VectorXd& xv, const VectorXd& gv) {
    // (maxCoeff of an empty vector is undefined: a rank may have no contacts.)
    std::array<double, 1> s{n > 0 ? (xv - (xv - gv).cwiseMax(0.0)).cwiseAbs().maxCoeff() : 0.0};
    op.max(s);
    return s[0];
  };
  const auto violation_of = [&](const VectorXd& rv) {
    std::array<double, 1> s{m > 0 ? rv.cwiseAbs().maxCoeff() : 0.0};
    op.max(s);
    return s[0];
  };

  double mu = settings.initial_penalty;
  double omega = 1.0 / mu;  // subproblem tolerance (Alg. 17.4, line 1)
  const double omega_star = settings.tolerance, eta_star = settings.tolerance;
  double previous_violation = std::numeric_limits<double>::infinity();
  double L = 1.0;
  VectorXd y(n), z_y(n), x_prev(n), z_prev(n), trial(n), r_trial(m), z_trial(n), g_trial(n),
      phi_grad(n);

  for (int outer = 0; outer < settings.max_outer_iterations; ++outer) {
    ++result.outer_iterations;
    // Subproblem: min L_A(x; λ, μ) over x ≥ 0 to projected gradient ≤ ω (FISTA).
    constraint(x, r);
    multiplier_term(r, mu, z);
    y = x;
    z_y = z;
    x_prev = x;
    z_prev = z;
    double theta = 1.0;
    double stationarity = 0.0;
    for (int inner = 0; inner < settings.max_inner_iterations; ++inner) {
      energy.gradient(y, grad);
      grad += z_y;
      for (int backtrack = 0;; ++backtrack) {
        trial = (y - grad / L).cwiseMax(0.0);
        constraint(trial, r_trial);
        multiplier_term(r_trial, mu, z_trial);
        energy.gradient(trial, phi_grad);
        g_trial = phi_grad + z_trial;
        // Backtracking on L with the gradient form of the quadratic upper bound: for convex
        // L_A, (∇(trial) − ∇(y))·s ≤ (L/2)‖s‖² implies L_A(trial) ≤ L_A(y) + ∇(y)·s + (L/2)‖s‖²
        // (s = trial − y), and unlike the difference of function values it keeps its
        // precision down to the tolerance.
        const VectorXd step = trial - y;
        std::array<double, 2> s{(g_trial - grad).dot(step), step.squaredNorm()};
        op.sum(s);
        if (s[0] <= 0.5 * L * s[1] || backtrack >= 60) break;
        L *= settings.lipschitz_growth;
      }
      ++result.inner_iterations;
      stationarity = projected_gradient(trial, g_trial);
      // Momentum (Nesterov's θ, β as in apgd.hpp); restart when it points uphill.
      const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
      const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
      std::array<double, 1> uphill{grad.dot(trial - x)};
      op.sum(uphill);
      x_prev.swap(x);  // x_prev ← the previous iterate, x ← the new one
      z_prev.swap(z);
      x = trial;
      r = r_trial;
      z = z_trial;
      if (stationarity <= omega) break;
      if (uphill[0] > 0.0) {
        y = x;
        z_y = z;
        theta = 1.0;
      } else {
        // z is affine in the iterate: z(y) is extrapolated like y, without an application.
        y = x + beta * (x - x_prev);
        z_y = z + beta * (z - z_prev);
        theta = theta_next;
      }
      L *= settings.lipschitz_decay;
    }
    const double violation = violation_of(r);
    result.stationarity = stationarity;
    result.violation = violation * force_scale;
    result.relative_violation = violation;
    result.penalty = mu;
    // First-order multiplier update λ ← λ − μ c(x) (Alg. 17.4); the new multipliers make ∇_x L_A the
    // gradient of the Lagrangian at (x, λ_new), whose projected norm is `stationarity`.
    lambda -= mu * r;
    if (violation <= eta_star && stationarity <= omega_star) {
      result.status = CompatibleStatus::converged;
      break;
    }
    // The penalty grows only when the violation did not drop to a quarter of the last one
    // (Bertsekas' rule in place of Alg. 17.4's η_k schedule, which raised μ needlessly on
    // chains of soft contacts) and never beyond max_penalty: the gradient's μBᵀ(Bf − F̃)
    // carries rounding ~ μ·1e-16, which must stay below the tolerance.
    if (violation > eta_star && violation > 0.25 * previous_violation &&
        mu < settings.max_penalty) {
      const double grown = std::min(settings.penalty_growth * mu, settings.max_penalty);
      L *= grown / mu;
      mu = grown;
    }
    previous_violation = violation;
    omega = std::max(0.1 * omega, omega_star);  // tighten the subproblems towards ω*
  }
  f = force_scale * x;
  return result;
}

/// The pass on a step: F̃ from the bodies' corrections (Eq. 37), the compatible normal impulses
/// into `normal_impulses` (one per contact; the input, if sized, is the start). Distributed:
/// the exchange and the ghosts' index range, as StepCompatibleOperator.
CompatibleResult compatible_impulses(const std::vector<SolverContact>& contacts,
                                     const std::vector<BodyState>& bodies, ContactLaw law,
                                     const Eigen::VectorXd& stiffness,
                                     const CompatibleSettings& settings,
                                     Eigen::VectorXd& normal_impulses,
                                     Exchange& exchange = local_exchange(),
                                     std::size_t ghost_begin = 0, std::size_t ghost_end = 0);

}  // namespace granite::solver
