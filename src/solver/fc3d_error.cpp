// Siconos' fc3d_compute_error (see include/granite/solver/fc3d_error.hpp).
#include "granite/solver/fc3d_error.hpp"

#include <algorithm>
#include <cmath>

namespace granite::solver {

Vec3 project_onto_cone(const Vec3& z, double mu) {
  const double zt = z.tail<2>().norm();
  if (zt <= mu * z[0]) return z;
  if (mu * zt <= -z[0]) return Vec3::Zero();
  Vec3 projected;
  const double rn = (mu * zt + z[0]) / (1.0 + mu * mu);
  projected[0] = rn;
  projected.tail<2>() = mu * rn * z.tail<2>() / zt;
  return projected;
}

double fc3d_contact_residual2(const Vec3& r, const Vec3& u, double mu) {
  Vec3 z = r - u;
  z[0] -= mu * u.tail<2>().norm();
  return (r - project_onto_cone(z, mu)).squaredNorm();
}

double Fc3dSums::error() const {
  const double norm = std::sqrt(std::max({q2, r2, u2}));
  const double absolute = std::sqrt(residual2);
  return norm > 0.0 ? absolute / norm : absolute;
}

double fc3d_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& mu, const Eigen::VectorXd& r) {
  const Eigen::VectorXd u = W * r + q;
  Fc3dSums sums;
  for (Eigen::Index a = 0; a < mu.size(); ++a)
    sums.residual2 += fc3d_contact_residual2(r.segment<3>(3 * a), u.segment<3>(3 * a), mu[a]);
  sums.q2 = q.squaredNorm();
  sums.r2 = r.squaredNorm();
  sums.u2 = u.squaredNorm();
  return sums.error();
}

}  // namespace granite::solver
