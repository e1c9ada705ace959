#pragma once
// The error of an approximate solution of a local 3D frictional contact problem u = W r + q
// (FCLIB convention, contact frames (n, t1, t2)): Siconos' fc3d_compute_error, the measure the
// FCLIB reference solutions and the matrix relaxation's convergence test use.
#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace granite::solver {

/// Siconos fc3d_compute_error: with u = W r + q,
///   e² = Σ_α ‖r_α − P_Kα(r_α − u_α − μ_α ‖u_α,T‖ e_N)‖²,  error = e / max(‖q‖, ‖r‖, ‖u‖)
/// (0 if the normalisation is 0).
double fc3d_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

}  // namespace granite::solver
