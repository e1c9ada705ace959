// APGD on an assembled FCLIB problem (see include/granite/solver/matrix_relaxation.hpp).
#include "granite/solver/apgd.hpp"
#include "granite/solver/matrix_relaxation.hpp"

#include <chrono>
#include <limits>
#include <stdexcept>

namespace granite::solver {
namespace {

// The Problem of solver/apgd.hpp for N = W, p = q on one process.
class AssembledCcp {
public:
  AssembledCcp(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
               const Eigen::VectorXd& mu) :
      W_(W),
      q_(q), mu_(mu) {}
  Eigen::Index size() const { return q_.size(); }
  const Eigen::VectorXd& linear_term() const { return q_; }
  void project(Eigen::VectorXd& x) const { project_onto_cones(x, mu_); }
  double residual2(const Eigen::VectorXd& x, const Eigen::VectorXd& u) const {
    return cones_residual2(x, u, mu_);
  }
  void product(const Eigen::VectorXd& x, Eigen::VectorXd& Nx) { Nx.noalias() = W_ * x; }
  template <std::size_t K>
  void sum(std::array<double, K>&) {}  // one process: the partial sums are the sums

private:
  const Eigen::SparseMatrix<double, Eigen::RowMajor>& W_;
  const Eigen::VectorXd& q_;
  const Eigen::VectorXd& mu_;
};

}  // namespace

MatrixRelaxationResult apgd_matrix(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                                   double tolerance, int max_iterations, Eigen::VectorXd& r) {
  const Eigen::Index nc = mu.size();
  if (W.rows() != 3 * nc || W.cols() != 3 * nc || q.size() != 3 * nc)
    throw std::invalid_argument("apgd_matrix: W, q and mu sizes disagree");
  if (r.size() != 3 * nc) r = Eigen::VectorXd::Zero(3 * nc);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  MatrixRelaxationResult result;
  result.best_error = std::numeric_limits<double>::infinity();
  AssembledCcp problem(W, q, mu);
  ApgdSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = max_iterations;
  const ApgdResult apgd_result = apgd(problem, settings, r, [&](int iteration, double error) {
    result.record(iteration, error, std::chrono::duration<double>(Clock::now() - start).count());
  });
  result.error = apgd_result.error;  // of the returned (best) iterate
  result.converged = apgd_result.converged;
  result.products = apgd_result.products;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace granite::solver
