#pragma once
// The error of an approximate solution of a local 3D frictional contact problem u = W r + q
// (FCLIB convention, contact frames (n, t1, t2)): Siconos' fc3d_compute_error, the measure the
// FCLIB reference solutions and the matrix relaxation's convergence test use, and the cone
// complementarity (CCP) error of the same problem.
#include "granite/contact/single_contact.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace granite::solver {

/// Siconos fc3d_compute_error: with u = W r + q,
///   e² = Σ_α ‖r_α − P_Kα(r_α − u_α − μ_α ‖u_α,T‖ e_N)‖²,  error = e / max(‖q‖, ‖r‖, ‖u‖)
/// (0 if the normalisation is 0).
double fc3d_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

/// The error a model's solution is measured by: ccp_error for the cone complementarity model
/// (its solutions are not Coulomb solutions), fc3d_error for every other model.
double model_error(contact::Model model, const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

/// The cone complementarity problem's natural-map residual (r ∈ K ⊥ u ∈ K*, no Coulomb shift
/// of the normal velocity), normalised as fc3d_error:
///   e² = Σ_α ‖r_α − P_Kα(r_α − u_α)‖²,  error = e / max(‖q‖, ‖r‖, ‖u‖).
/// Zero exactly at the minimiser of ½rᵀWr + qᵀr over the friction cones.
double ccp_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                 const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

/// The error a model's solution is measured by: ccp_error for the cone complementarity model
/// (its solutions are not Coulomb solutions), fc3d_error for every other model.
double model_error(contact::Model model, const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

}  // namespace granite::solver
