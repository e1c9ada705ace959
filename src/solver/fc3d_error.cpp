// Siconos' fc3d_compute_error (see include/granite/solver/fc3d_error.hpp).
#include "granite/solver/fc3d_error.hpp"

#include <algorithm>
#include <cmath>

namespace granite::solver {

double fc3d_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& mu, const Eigen::VectorXd& r) {
  const Eigen::VectorXd u = W * r + q;
  double squared = 0.0;
  for (Eigen::Index a = 0; a < mu.size(); ++a) {
    const double m = mu[a];
    const Eigen::Vector3d ra = r.segment<3>(3 * a);
    const Eigen::Vector3d ua = u.segment<3>(3 * a);
    Eigen::Vector3d z = ra - ua;
    z[0] -= m * ua.tail<2>().norm();
    const double zt = z.tail<2>().norm();
    Eigen::Vector3d projected;
    if (zt <= m * z[0]) {
      projected = z;
    } else if (m * zt <= -z[0]) {
      projected.setZero();
    } else {
      const double rn = (m * zt + z[0]) / (1.0 + m * m);
      projected[0] = rn;
      projected.tail<2>() = m * rn * z.tail<2>() / zt;
    }
    squared += (ra - projected).squaredNorm();
  }
  const double norm = std::max({q.norm(), r.norm(), u.norm()});
  const double absolute = std::sqrt(squared);
  return norm > 0.0 ? absolute / norm : absolute;
}

}  // namespace granite::solver
