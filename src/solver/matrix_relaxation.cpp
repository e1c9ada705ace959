// Block Gauss–Seidel on an assembled W (see include/granite/solver/matrix_relaxation.hpp).
#include "granite/solver/matrix_relaxation.hpp"

#include "granite/solver/fc3d_error.hpp"

#include <chrono>
#include <limits>
#include <stdexcept>
#include <vector>

namespace granite::solver {

void MatrixRelaxationResult::record(int sweep, double error, double elapsed) {
  sweeps = sweep;
  this->error = error;
  if (error < best_error) {
    best_error = error;
    best_sweep = sweep;
  }
  if (sweeps_to_1e4 < 0 && error <= 1e-4) {
    sweeps_to_1e4 = sweep;
    seconds_to_1e4 = elapsed;
  }
  if (sweeps_to_1e8 < 0 && error <= 1e-8) {
    sweeps_to_1e8 = sweep;
    seconds_to_1e8 = elapsed;
  }
}

MatrixRelaxationResult relax_matrix(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                                    const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                                    const contact::ModelSettings& settings, double tolerance,
                                    int max_sweeps, Eigen::VectorXd& r) {
  const Eigen::Index nc = mu.size();
  if (W.rows() != 3 * nc || W.cols() != 3 * nc || q.size() != 3 * nc)
    throw std::invalid_argument("relax_matrix: W, q and mu sizes disagree");
  if (r.size() != 3 * nc) r = Eigen::VectorXd::Zero(3 * nc);

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();

  // Diagonal blocks: W_jj as stored (to remove from the row product) and its symmetric part.
  std::vector<Mat3> diagonal(static_cast<std::size_t>(nc), Mat3::Zero());
  for (Eigen::Index row = 0; row < W.rows(); ++row) {
    const Eigen::Index j = row / 3;
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(W, row); it; ++it)
      if (it.col() / 3 == j)
        diagonal[static_cast<std::size_t>(j)](row % 3, it.col() % 3) = it.value();
  }
  std::vector<Mat3> symmetric(diagonal.size());
  for (std::size_t j = 0; j < diagonal.size(); ++j)
    symmetric[j] = 0.5 * (diagonal[j] + diagonal[j].transpose());

  MatrixRelaxationResult result;
  result.best_error = std::numeric_limits<double>::infinity();
  for (int sweep = 1; sweep <= max_sweeps; ++sweep) {
    for (Eigen::Index j = 0; j < nc; ++j) {
      Vec3 coupling;
      for (int k = 0; k < 3; ++k) {
        double sum = 0.0;
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(W, 3 * j + k); it; ++it)
          sum += it.value() * r[it.col()];
        coupling[k] = sum;
      }
      const Vec3 rj = r.segment<3>(3 * j);
      const auto jj = static_cast<std::size_t>(j);
      // The antisymmetric part of W_jj is lagged (see the header).
      const Vec3 b = -(q.segment<3>(3 * j) + coupling - symmetric[jj] * rj);
      r.segment<3>(3 * j) = contact::solve(settings, symmetric[jj], b, mu[j]).x;
    }
    const double error = model_error(settings.model, W, q, mu, r);
    result.record(sweep, error, std::chrono::duration<double>(Clock::now() - start).count());
    if (error <= tolerance) {
      result.converged = true;
      break;
    }
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace granite::solver
