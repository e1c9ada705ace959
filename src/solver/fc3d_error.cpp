// The Coulomb (fc3d) and CCP errors of a local contact problem (see
// include/granite/solver/fc3d_error.hpp).
#include "granite/solver/fc3d_error.hpp"

#include "granite/contact/friction_cone.hpp"

#include <algorithm>
#include <cmath>

namespace granite::solver {

namespace {

double natural_map_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                         const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                         const Eigen::VectorXd& r, double shift) {
  const Eigen::VectorXd u = W * r + q;
  Fc3dSums sums;
  for (Eigen::Index a = 0; a < mu.size(); ++a)
    sums.residual2 += natural_map_residual2(r.segment<3>(3 * a), u.segment<3>(3 * a), mu[a], shift);
  sums.q2 = q.squaredNorm();
  sums.r2 = r.squaredNorm();
  sums.u2 = u.squaredNorm();
  return sums.error();
}

}  // namespace

double Fc3dSums::error() const {
  const double norm = std::sqrt(std::max({q2, r2, u2}));
  const double absolute = std::sqrt(residual2);
  return norm > 0.0 ? absolute / norm : absolute;
}

double fc3d_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& mu, const Eigen::VectorXd& r) {
  return natural_map_error(W, q, mu, r, 1.0);
}

double ccp_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                 const Eigen::VectorXd& mu, const Eigen::VectorXd& r) {
  return natural_map_error(W, q, mu, r, 0.0);
}

double model_error(contact::Model model, const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& mu, const Eigen::VectorXd& r) {
  return model == contact::Model::ccp ? ccp_error(W, q, mu, r) : fc3d_error(W, q, mu, r);
}

}  // namespace granite::solver
