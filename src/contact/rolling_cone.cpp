// The cone of rolling and spinning resistance and its single-contact CCP (see
// include/granite/contact/rolling_cone.hpp).
#include "granite/contact/rolling_cone.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>

namespace granite::contact {

namespace {

// The three blocks of z after its normal component: first index and size.
constexpr int kFirst[3] = {1, 3, 4};
constexpr int kSize[3] = {2, 1, 2};

// A plain root, not std::hypot (a third of the solver's time): the solver's variables are
// scaled to order one, and impulses of 1e-150 N s are far below any contact's.
double block_norm(const Vec6& z, int k) {
  const double a = z[kFirst[k]];
  if (kSize[k] == 1) return std::abs(a);
  const double b = z[kFirst[k] + 1];
  return std::sqrt(a * a + b * b);
}

// y's slack in Υ*: y_n − μ ‖y_to‖ − μ_s |y_s| − μ_r ‖y_r‖ (>= 0 inside).
double dual_slack(const Vec6& y, const RollingCone& cone) {
  return y[0] - cone.mu * block_norm(y, 0) - cone.spinning * block_norm(y, 1) -
         cone.rolling * block_norm(y, 2);
}

bool inside(const Vec6& z, const RollingCone& cone) {
  return z[0] >= 0.0 && block_norm(z, 0) <= cone.mu * z[0] &&
         block_norm(z, 1) <= cone.spinning * z[0] && block_norm(z, 2) <= cone.rolling * z[0];
}

double objective(const Mat6& G, const Vec6& c, const Vec6& z) {
  return 0.5 * z.dot(G * z) - c.dot(z);
}

}  // namespace

Vec6 project_onto_rolling_cone(const Vec6& z, const RollingCone& cone, Mat6* jacobian) {
  const double mu[3] = {cone.mu, cone.spinning, cone.rolling};
  double a[3];
  bool inside = z[0] >= 0.0;
  for (int k = 0; k < 3; ++k) {
    a[k] = block_norm(z, k);
    inside = inside && a[k] <= mu[k] * z[0];
  }
  if (inside) {
    if (jacobian) jacobian->setIdentity();
    return z;
  }
  // The root of h'(ν) = ν (1 + Σ_S μ_k²) − z_n − Σ_S μ_k a_k on the active set S = {k : a_k >
  // μ_k ν}: start with every block that can be active and drop the one of least breakpoint
  // a_k/μ_k while the root lies beyond it (h' is increasing, so the first consistent root is
  // the root). A block with μ_k = 0 projects to 0 and does not move ν.
  bool active[3];
  for (int k = 0; k < 3; ++k) active[k] = mu[k] > 0.0 && a[k] > 0.0;
  double nu = 0.0, den = 1.0;
  for (int pass = 0; pass < 4; ++pass) {
    double num = z[0];
    den = 1.0;
    int least = -1;
    for (int k = 0; k < 3; ++k) {
      if (!active[k]) continue;
      num += mu[k] * a[k];
      den += mu[k] * mu[k];
      if (least < 0 || a[k] * mu[least] < a[least] * mu[k]) least = k;
    }
    nu = std::max(num / den, 0.0);  // h'(0) >= 0: the polar cone, z projects to 0
    if (least < 0 || nu * mu[least] <= a[least]) break;
    active[least] = false;
  }
  Vec6 x = z;
  x[0] = nu;
  for (int k = 0; k < 3; ++k) {
    const double radius = mu[k] * nu;
    if (a[k] <= radius) continue;
    x.segment(kFirst[k], kSize[k]) *= radius / a[k];  // a[k] > radius >= 0
  }
  if (jacobian) {
    // Where the projection is differentiable: ν = (z_n + Σ_S μ_k ‖z_k‖)/D has the gradient g
    // (g_n = 1/D, g_k = μ_k u_k/D, u_k = z_k/‖z_k‖); a projected block x_k = μ_k ν u_k has
    // μ_k (u_k gᵀ + ν (I − u_k u_kᵀ)/‖z_k‖); a block left alone, the identity.
    Mat6& J = *jacobian;
    J.setIdentity();
    if (!(nu > 0.0)) {
      J.setZero();
      return x;
    }
    Vec6 g = Vec6::Zero();
    g[0] = 1.0 / den;
    for (int k = 0; k < 3; ++k)
      if (active[k])
        g.segment(kFirst[k], kSize[k]) = mu[k] / (den * a[k]) * z.segment(kFirst[k], kSize[k]);
    J.row(0) = g.transpose();
    for (int k = 0; k < 3; ++k) {
      const int f = kFirst[k], n = kSize[k];
      if (a[k] <= mu[k] * nu) continue;
      J.middleRows(f, n).setZero();
      if (!active[k]) continue;  // μ_k = 0: the block is 0
      using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 2, 2>;  // no heap
      const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 2, 1> u = z.segment(f, n) / a[k];
      J.middleRows(f, n) = mu[k] * u * g.transpose();
      J.block(f, f, n, n) += mu[k] * nu / a[k] * (Small::Identity(n, n) - u * u.transpose());
    }
  }
  return x;
}

double rolling_ccp_residual2(const Vec6& z, const Vec6& y, const RollingCone& cone) {
  return (z - project_onto_rolling_cone(z - y, cone)).squaredNorm();
}

RollingCcpBlock prepare_rolling_ccp(const Mat6& G, const RollingCone& cone) {
  RollingCcpBlock b;
  // One factor per block, 1/√(mean diagonal), so that the scaled diagonal is about 1 and the
  // cone keeps its form: ‖z_k‖ <= μ_k z_n becomes ‖z'_k‖ <= μ_k (s_n/s_k) z'_n.
  const auto factor = [](double mean) { return mean > 0.0 ? 1.0 / std::sqrt(mean) : 1.0; };
  const double sn = factor(G(0, 0)), st = factor(0.5 * (G(1, 1) + G(2, 2))), ss = factor(G(3, 3)),
               sr = factor(0.5 * (G(4, 4) + G(5, 5)));
  b.scale << sn, st, st, ss, sr, sr;
  b.G = b.scale.asDiagonal() * (0.5 * (G + G.transpose())) * b.scale.asDiagonal();
  b.cone = {cone.mu * sn / st, cone.spinning * sn / ss, cone.rolling * sn / sr};
  b.inverse = b.G.llt().solve(Mat6::Identity());
  const Eigen::SelfAdjointEigenSolver<Mat6> eigen(b.G, Eigen::EigenvaluesOnly);
  b.largest = eigen.eigenvalues()[5];
  b.least = std::max(eigen.eigenvalues()[0], 0.0);
  return b;
}

namespace {

// Nesterov's accelerated projected gradient for an L-smooth, m-strongly convex objective
// (Nesterov 2004, scheme 2.2.19: constant momentum β = (√L − √m)/(√L + √m)), restarted when
// the objective rises (O'Donoghue & Candès 2015), in the block's scaled variables from the
// feasible x. Stops when the gradient mapping's step falls below 1e-14 ‖x‖.
void accelerated_gradient(const RollingCcpBlock& block, const Vec6& c, Vec6 x, int max_iterations,
                          RollingCcpResult& result) {
  const double L = block.largest;
  const double rl = std::sqrt(L), rm = std::sqrt(block.least);
  const double beta = (rl - rm) / (rl + rm);
  Vec6 y = x, best = x;
  double f_best = objective(block.G, c, x), f_x = f_best;
  for (int k = 0; k < max_iterations; ++k) {
    const Vec6 next = project_onto_rolling_cone(y - (block.G * y - c) / L, block.cone);
    ++result.iterations;
    const double f_next = objective(block.G, c, next);
    if (f_next < f_best) {
      f_best = f_next;
      best = next;
    }
    const double step = (next - y).norm();  // zero exactly at the minimiser
    y = f_next > f_x ? next : Vec6(next + beta * (next - x));
    x = next;
    f_x = f_next;
    if (step <= 1e-14 * x.norm() || step == 0.0) {
      result.converged = true;
      break;
    }
  }
  // Converged: the last iterate, accurate to its step (an objective compared at rounding
  // would only pick an iterate to √ε). Otherwise the best one seen.
  result.z = result.converged ? x : best;
}

}  // namespace

RollingCcpResult solve_rolling_ccp(const RollingCcpBlock& block, const Vec6& c, const Vec6& start,
                                   double forcing, int max_iterations) {
  RollingCcpResult result;
  const Vec6 cs = block.scale.cwiseProduct(c);
  Vec6 z = project_onto_rolling_cone(block.scale.cwiseInverse().cwiseProduct(start), block.cone);
  const double L = block.largest;
  if (!(L > 0.0) || !std::isfinite(L)) {
    result.z = block.scale.cwiseProduct(z);
    return result;
  }
  // z = 0 is the minimiser iff −c ∈ Υ* (the contact stays open: most of a flow's contacts);
  // the unconstrained minimiser G⁻¹c is it if it lies in Υ (the contact sticks and rolls
  // without its bounds: a packing at rest).
  if (dual_slack(-cs, block.cone) >= 0.0) {
    result.converged = true;
    result.z = Vec6::Zero();
    return result;
  }
  if (const Vec6 free = block.inverse * cs; inside(free, block.cone)) {
    result.converged = true;
    result.z = block.scale.cwiseProduct(free);
    return result;
  }
  // Semismooth Newton on the natural map F(z) = z − Π(z − α(Gz − c)), α = 1/L (zero exactly at
  // the minimiser; Π's Jacobian from project_onto_rolling_cone), with backtracking on ‖F‖. The
  // line search checks each solve of the Newton system: a step that does not reduce ‖F‖ is
  // halved, and after 20 halvings the accelerated gradient takes over.
  const double alpha = 1.0 / L;
  const auto natural = [&](const Vec6& x, Vec6& w, Vec6& projected) {
    w = x - alpha * (block.G * x - cs);
    projected = project_onto_rolling_cone(w, block.cone);
    return Vec6(x - projected);
  };
  Vec6 w, p;
  Vec6 F = natural(z, w, p);
  const Vec6 z0 = z;
  for (int it = 0; it < 30 && result.iterations < max_iterations; ++it) {
    ++result.iterations;
    const double norm = F.norm();
    if (norm <= std::max(1e-14 * (z.norm() + alpha * cs.norm()), forcing * (z - z0).norm())) {
      result.converged = true;
      result.z = block.scale.cwiseProduct(p);  // feasible, within rounding of z
      return result;
    }
    Mat6 JP;
    project_onto_rolling_cone(w, block.cone, &JP);
    const Mat6 J = Mat6::Identity() - JP * (Mat6::Identity() - alpha * block.G);
    const Vec6 step = J.partialPivLu().solve(-F);
    if (!step.allFinite()) break;
    bool accepted = false;
    for (double t = 1.0; t > 1e-6; t *= 0.5) {
      Vec6 w_try, p_try;
      const Vec6 z_try = z + t * step;
      const Vec6 F_try = natural(z_try, w_try, p_try);
      if (F_try.norm() <= (1.0 - 1e-4 * t) * norm) {
        z = z_try, w = w_try, p = p_try, F = F_try;
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
  }
  // Newton stalled (a kink of Π it cannot cross): the accelerated gradient from Π's point.
  accelerated_gradient(block, cs, p, max_iterations - result.iterations, result);
  result.z = block.scale.cwiseProduct(result.z);
  return result;
}

}  // namespace granite::contact
