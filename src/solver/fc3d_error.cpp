// The Coulomb (fc3d) and CCP errors of a local contact problem (see
// include/granite/solver/fc3d_error.hpp).
#include "granite/solver/fc3d_error.hpp"

#include "granite/contact/friction_cone.hpp"

#include <algorithm>
#include <cmath>

namespace granite::solver {

namespace {

// ‖r − P_K(r − u − shift · μ‖u_T‖ e_N)‖ / max(‖q‖, ‖r‖, ‖u‖) with u = W r + q: shift = 1 is
// Siconos' Coulomb (fc3d) error, shift = 0 the natural map of the cone complementarity problem.
double natural_map_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                         const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                         const Eigen::VectorXd& r, double shift) {
  const Eigen::VectorXd u = W * r + q;
  double squared = 0.0;
  for (Eigen::Index a = 0; a < mu.size(); ++a) {
    const Eigen::Vector3d ra = r.segment<3>(3 * a);
    const Eigen::Vector3d ua = u.segment<3>(3 * a);
    Eigen::Vector3d z = ra - ua;
    z[0] -= shift * mu[a] * ua.tail<2>().norm();
    squared += (ra - contact::project_onto_friction_cone(z, mu[a])).squaredNorm();
  }
  const double norm = std::max({q.norm(), r.norm(), u.norm()});
  const double absolute = std::sqrt(squared);
  return norm > 0.0 ? absolute / norm : absolute;
}

}  // namespace

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
