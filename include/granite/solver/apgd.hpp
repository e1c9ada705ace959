#pragma once
// Accelerated projected gradient descent (APGD) for the cone complementarity problem
//   min f(γ) = ½γᵀNγ + pᵀγ  over  γ ∈ K = Π_i K_μi   (seed: Tasora & Anitescu's CCP),
// Nesterov's method as in Mazhar, Heyn, Negrut & Tasora, ACM TOG 34(3) 2015, Alg. 1 (Chrono's
// APGDREF): backtracking on the Lipschitz estimate L (×2 while the quadratic upper bound fails),
// a per-iteration decrease (×0.9), an adaptive restart of the momentum when
// gᵀ(γ_{k+1} − γ_k) > 0, and the best iterate (least CCP error) kept. The full gradient
// g = N y + p is used in every test.
//
// The algorithm is written once against a Problem, so that the same code runs on an assembled
// FCLIB matrix and, matrix-free, on a distributed time step:
//   Eigen::Index size() const;                         local unknowns (3 per contact, and 3 per
//                                                      torque block with rolling resistance)
//   const Eigen::VectorXd& linear_term() const;         p
//   void project(Eigen::VectorXd& x) const;             x ← P_K(x), block by block
//   double residual2(const Eigen::VectorXd& x, const Eigen::VectorXd& u) const;
//                                                      Σ ‖x_i − P_Ki(x_i − u_i)‖² (local)
//   void product(const Eigen::VectorXd& x, Eigen::VectorXd& Nx);   N x (collective if distributed)
//   template <std::size_t K> void sum(std::array<double, K>& partial);  global sums (one reduction)
// For friction cones alone, project_onto_cones and cones_residual2 below are the last two.
// Each trial point costs one product and one fused reduction of all the scalars of the step.
#include "granite/contact/friction_cone.hpp"
#include "granite/solver/fc3d_error.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

namespace granite::solver {

/// P_K on every 3-block of x, with μ of block c = friction(c).
template <class Friction>
void project_onto_cones(Eigen::VectorXd& x, const Friction& friction) {
  for (Eigen::Index c = 0; 3 * c < x.size(); ++c)
    x.segment<3>(3 * c) = contact::project_onto_friction_cone(x.segment<3>(3 * c), friction(c));
}

/// Σ_c ccp_contact_residual2(x_c, u_c, friction(c)) over the 3-blocks (the CCP natural map).
template <class Friction>
double cones_residual2(const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                       const Friction& friction) {
  double sum = 0.0;
  for (Eigen::Index c = 0; 3 * c < x.size(); ++c)
    sum += ccp_contact_residual2(x.segment<3>(3 * c), u.segment<3>(3 * c), friction(c));
  return sum;
}

struct ApgdSettings {
  int max_iterations = 1000;
  double tolerance = 1e-6;        // CCP error (as ccp_error) that ends the iteration
  double lipschitz_growth = 2.0;  // L ← growth·L while the upper bound fails
  double lipschitz_decay = 0.9;   // L ← decay·L after every iteration
  int max_backtracking = 60;      // trials per iteration before the step is accepted anyway
};

struct ApgdResult {
  int iterations = 0;
  int products = 0;        // products N x, including the Lipschitz estimate
  double error = 0.0;      // CCP error of the returned (best) iterate
  bool converged = false;  // error ≤ tolerance
  int restarts = 0;        // adaptive restarts of the momentum
};

/// Minimises f over K from the start γ (projected first); returns in γ the iterate of least
/// CCP error. observer(iteration, error of that iteration's iterate) is called after each
/// iteration if given.
template <class Problem>
ApgdResult apgd(Problem& problem, const ApgdSettings& settings, Eigen::VectorXd& gamma,
                const std::function<void(int, double)>& observer = {}) {
  using Eigen::Index;
  using Eigen::VectorXd;
  const Index n = problem.size();
  const VectorXd& p = problem.linear_term();
  ApgdResult result;
  if (gamma.size() != n) gamma = VectorXd::Zero(n);
  problem.project(gamma);

  // L₀ = ‖N(γ₀ − γ̂)‖ / ‖γ₀ − γ̂‖ with γ̂ = γ₀ − 1 (Alg. 1, line 2): a product with the ones.
  VectorXd ones = VectorXd::Ones(n), Nx(n);
  problem.product(ones, Nx);
  VectorXd Ngamma(n);
  problem.product(gamma, Ngamma);
  result.products = 2;
  std::array<double, 5> start{Nx.squaredNorm(), double(n), gamma.dot(Ngamma), p.dot(gamma),
                              p.squaredNorm()};
  problem.sum(start);
  double L = start[1] > 0.0 ? std::sqrt(start[0] / start[1]) : 1.0;
  if (!(L > 0.0)) L = 1.0;
  const double p_norm = std::sqrt(start[4]);

  VectorXd y = gamma, Ny = Ngamma, g(n), trial(n), Ntrial(n), y_next(n), Ny_next(n), u(n);
  VectorXd best = gamma;
  double f_y = 0.5 * start[2] + start[3];
  double theta = 1.0;
  double best_error = std::numeric_limits<double>::infinity();
  for (int k = 0; k < settings.max_iterations; ++k) {
    g = Ny + p;
    // θ and β do not depend on the data, so the next y's scalars join this step's reduction.
    const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
    const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
    std::array<double, 11> s{};
    for (int trial_count = 0;; ++trial_count) {
      trial = y - g / L;
      problem.project(trial);
      problem.product(trial, Ntrial);
      ++result.products;
      y_next = trial + beta * (trial - gamma);
      Ny_next = Ntrial + beta * (Ntrial - Ngamma);
      const VectorXd step = trial - y;
      u = Ntrial + p;  // the CCP natural map at the trial point, as solver::ccp_error
      const double residual = problem.residual2(trial, u);
      const double u_norm = u.squaredNorm();
      s = {trial.dot(Ntrial),
           p.dot(trial),
           g.dot(step),
           step.squaredNorm(),
           residual,
           trial.squaredNorm(),
           u_norm,
           g.dot(trial - gamma),
           y_next.dot(Ny_next),
           p.dot(y_next),
           0.0};
      problem.sum(s);
      const double f_trial = 0.5 * s[0] + s[1];
      const double bound = f_y + s[2] + 0.5 * L * s[3];  // Alg. 1, line 8
      const double slack = 1e-14 * (std::fabs(f_y) + std::fabs(f_trial));
      if (f_trial <= bound + slack || trial_count + 1 >= settings.max_backtracking) {
        s[10] = f_trial;
        break;
      }
      L *= settings.lipschitz_growth;
    }
    ++result.iterations;
    const double scale = std::max({p_norm, std::sqrt(s[5]), std::sqrt(s[6])});
    const double error = scale > 0.0 ? std::sqrt(s[4]) / scale : std::sqrt(s[4]);
    if (error < best_error) {
      best_error = error;
      best = trial;
    }
    if (observer) observer(result.iterations, error);
    gamma.swap(trial);
    Ngamma.swap(Ntrial);
    if (s[7] > 0.0) {  // adaptive restart (Alg. 1, lines 17–19): momentum points uphill
      y = gamma;
      Ny = Ngamma;
      f_y = s[10];
      theta = 1.0;
      ++result.restarts;
    } else {
      y.swap(y_next);
      Ny.swap(Ny_next);
      f_y = 0.5 * s[8] + s[9];
      theta = theta_next;
    }
    if (best_error <= settings.tolerance) break;
    L *= settings.lipschitz_decay;
  }
  gamma = best;
  result.error = best_error;
  result.converged = best_error <= settings.tolerance;
  return result;
}

}  // namespace granite::solver
