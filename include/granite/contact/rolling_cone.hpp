#pragma once
// The cone complementarity problem of one contact with rolling and spinning resistance (Tasora &
// Anitescu, Meccanica 48, 2013; docs/rolling_resistance.md). The unknowns are the impulse and
// the torque impulse divided by the contact's effective radius R*, so that all six are impulses
// (N s) and the cone is dimensionless:
//   z = (λ_n, λ_t, λ_o, ρ_s, ρ_t, ρ_o),  ρ = τ / R*,
//   Υ = {‖(λ_t, λ_o)‖ <= μ λ_n, |ρ_s| <= μ_s λ_n, ‖(ρ_t, ρ_o)‖ <= μ_r λ_n},
// a convex cone: the sliding cone of the CCP with two more cones that share its normal axis.
// Its dual is Υ* = {y : y_n >= μ ‖y_to‖ + μ_s |y_s| + μ_r ‖y_r‖}. The velocity conjugate to z is
// y = (u_n + gap term, u_t, u_o, R* w_s, R* w_t, R* w_o), u the relative velocity and w the
// relative angular velocity in the contact frame, so that a rolling torque on the rim lifts the
// contact at y_n = μ_r R* ‖w_r‖ (the CCP's artefact, as y_n = μ ‖u_to‖ for sliding).
#include "granite/core/types.hpp"

#include <Eigen/Core>

namespace granite::contact {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// Υ's three coefficients: sliding μ, spinning μ_s, rolling μ_r (all >= 0).
struct RollingCone {
  double mu = 0.0;
  double spinning = 0.0;
  double rolling = 0.0;
};

/// The Euclidean projection onto Υ. For a fixed normal component ν the three blocks project
/// independently (each onto its disk or interval of radius μ_k ν), so the projection minimises
///   h(ν) = ½ (ν − z_n)² + Σ_k ½ (a_k − μ_k ν)₊²,  a_k = ‖block k‖,
/// over ν >= 0: h is convex and piecewise quadratic, h'(ν) = ν − z_n − Σ_{k: a_k > μ_k ν}
/// μ_k (a_k − μ_k ν), whose root is found exactly by passing the breakpoints a_k/μ_k in order.
/// With the rolling and spinning coefficients 0 it is project_onto_friction_cone (the normal
/// component is never negative).
/// With `jacobian`, also ∂Π/∂z at z (one element of the generalized Jacobian where Π has a
/// kink), for the semismooth Newton method below.
Vec6 project_onto_rolling_cone(const Vec6& z, const RollingCone& cone, Mat6* jacobian = nullptr);

/// The CCP natural-map residual ‖z − Π_Υ(z − y)‖² of one contact (zero iff z ∈ Υ ⊥ y ∈ Υ*).
double rolling_ccp_residual2(const Vec6& z, const Vec6& y, const RollingCone& cone);

/// One contact's problem min ½ zᵀ G z − cᵀ z over Υ, prepared once per time step (G is the
/// contact's 6×6 Delassus block in the variables z): the blocks are scaled to unit mean diagonal
/// (z = S z', which maps Υ onto a cone of the same kind) and G's extreme eigenvalues are kept
/// for the accelerated projected gradient below.
struct RollingCcpBlock {
  Mat6 G;              // S G S
  Mat6 inverse;        // (S G S)⁻¹, for the unconstrained minimiser
  Vec6 scale;          // S's diagonal: one factor per block (n; t, o; s; r, r)
  RollingCone cone;    // Υ in the scaled variables
  double largest = 0;  // G's largest eigenvalue (the Lipschitz constant of the gradient)
  double least = 0;    // its least (the strong convexity)
};

RollingCcpBlock prepare_rolling_ccp(const Mat6& G, const RollingCone& cone);

struct RollingCcpResult {
  Vec6 z;                  // the minimiser (unconverged: the iterate of least objective)
  int iterations = 0;      // Newton steps and projected-gradient steps
  bool converged = false;  // the natural map or the gradient step below 1e-14 of the scale
                           // (or below the forcing term)
};

/// Minimises ½ zᵀ G z − cᵀ z over Υ from `start` (projected first): semismooth Newton on the
/// natural map F(z) = z − Π_Υ(z − (Gz − c)/L) with backtracking on ‖F‖ (quadratic near the
/// answer, a few steps from a warm start), and where it stalls at a kink of Π, Nesterov's
/// accelerated projected gradient (constant momentum (√κ − 1)/(√κ + 1), κ = largest/least,
/// restarted when the objective rises), in all at most `max_iterations` steps. The answer is
/// always in Υ. With `forcing` > 0 Newton also stops when ‖F‖ <= forcing ‖z − start‖ (an
/// inexact block update whose error shrinks with the change, as Gauss–Seidel converges:
/// usually one Newton step per sweep instead of three).
RollingCcpResult solve_rolling_ccp(const RollingCcpBlock& block, const Vec6& c, const Vec6& start,
                                   double forcing = 0.0, int max_iterations = 2000);

}  // namespace granite::contact
