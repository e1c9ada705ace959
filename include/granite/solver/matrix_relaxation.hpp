#pragma once
// Non-linear block Gauss–Seidel on an assembled local frictional contact problem u = W r + q
// (FCLIB convention, contact frames (n, t1, t2)): contacts are visited in order, and contact j
// is solved with the selected single-contact model for A = S_j = ½(W_jj + W_jjᵀ),
// b = −(q_j + Σ_k W_jk r_k − S_j r_j) = −(q_j + Σ_{k≠j} W_jk r_k + (W_jj − S_j) r_j), i.e. the
// antisymmetric part of an asymmetric diagonal block (Capsules: 3e-4) is lagged at the current
// r_j, so a fixed point satisfies the contact law for the true u = W r + q (with plain
// b = −(q_j + Σ_{k≠j} W_jk r_k) Capsules stalls at 2.5e-5; lagged, it reaches 1e-8 in 2302
// sweeps like Siconos NSGS). Convergence is decided after every sweep by the model's error
// (model_error: the CCP error for the cone complementarity model, fc3d_error otherwise).
#include "granite/contact/single_contact.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace granite::solver {

struct MatrixRelaxationResult {
  int sweeps = 0;           // sweeps done
  double error = 0.0;       // error after the last sweep
  double best_error = 0.0;  // smallest error seen (after any sweep)
  int best_sweep = 0;
  bool converged = false;  // error ≤ tolerance
  double seconds = 0.0;    // total wall time (including error evaluations)
  // First sweep at which the error was ≤ 1e-4 / ≤ 1e-8 and the time to get there; -1 if never.
  int sweeps_to_1e4 = -1;
  double seconds_to_1e4 = 0.0;
  int sweeps_to_1e8 = -1;
  double seconds_to_1e8 = 0.0;
  int products = 0;  // products W x (APGD; Gauss–Seidel does one row pass per sweep instead)

  /// Records the error after sweep (or iteration) `sweep`, `elapsed` seconds after the start.
  void record(int sweep, double error, double elapsed);
};

/// Relaxes from the given r (resized and zeroed if its size is not 3nc) for at most
/// `max_sweeps` sweeps, stopping once the error is ≤ tolerance; r holds the last iterate.
/// W must be 3nc x 3nc with nc = mu.size(), q of size 3nc.
MatrixRelaxationResult relax_matrix(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                                    const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                                    const contact::ModelSettings& settings, double tolerance,
                                    int max_sweeps, Eigen::VectorXd& r);

/// APGD (solver/apgd.hpp) on the same assembled problem, the cone complementarity model
/// (stops on the CCP error); r is the start (resized and zeroed if its size is not 3nc) and
/// returns the best iterate. `sweeps` counts iterations.
MatrixRelaxationResult apgd_matrix(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                                   double tolerance, int max_iterations, Eigen::VectorXd& r);

}  // namespace granite::solver
