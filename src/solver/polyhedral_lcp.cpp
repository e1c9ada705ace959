// Stewart–Trinkle's LCP (29) for the whole step (see include/granite/solver/polyhedral_lcp.hpp).
#include "granite/solver/polyhedral_lcp.hpp"

#include "granite/contact/polyhedral.hpp"

#include <chrono>

namespace granite::solver {

PolyhedralLcpResult solve_polyhedral_lcp(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                                         const Eigen::VectorXd& q, const Eigen::VectorXd& mu, int k,
                                         Eigen::VectorXd& r) {
  const auto start = std::chrono::steady_clock::now();
  const Eigen::Index m = mu.size(), block = k + 2, n = m * block;
  PolyhedralLcpResult result;
  result.size = n;
  r.setZero(3 * m);
  if (W.rows() != 3 * m || W.cols() != 3 * m || q.size() != 3 * m || k < 1) return result;
  if (m == 0) {
    result.lemke.status = contact::LemkeStatus::solution;
    return result;
  }
  // Scaled by powers of two (exact): W' = sa W, q' = sb q (see the end for z).
  const double sa = contact::power_of_two_scale(
      W.nonZeros() > 0
          ? Eigen::Map<const Eigen::VectorXd>(W.valuePtr(), W.nonZeros()).cwiseAbs().maxCoeff()
          : 0.0);
  const double sb = contact::power_of_two_scale(q.cwiseAbs().maxCoeff());
  // G: block diagonal, G_j = polyhedral_basis(k) in rows 3j.., columns j (k + 2).. (the λ
  // column of each contact stays zero).
  const Eigen::Matrix<double, 3, Eigen::Dynamic> Gj = contact::polyhedral_basis(k);
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(std::size_t(m) * std::size_t(3 * (k + 1)));
  for (Eigen::Index j = 0; j < m; ++j)
    for (Eigen::Index a = 0; a < 3; ++a)
      for (Eigen::Index c = 0; c <= k; ++c)
        if (Gj(a, c) != 0.0) triplets.emplace_back(3 * j + a, j * block + c, Gj(a, c));
  Eigen::SparseMatrix<double> G(3 * m, n);
  G.setFromTriplets(triplets.begin(), triplets.end());
  const Eigen::SparseMatrix<double> WG = (sa * W) * G;
  const Eigen::SparseMatrix<double> GtWG = Eigen::SparseMatrix<double>(G.transpose()) * WG;
  thread_local Eigen::MatrixXd N;
  thread_local Eigen::VectorXd qq, z;
  thread_local contact::Lemke lemke;
  N = Eigen::MatrixXd(GtWG);
  for (Eigen::Index j = 0; j < m; ++j) contact::add_polyhedral_cone_rows(N, j * block, mu[j], k);
  qq.noalias() = G.transpose() * (sb * q);  // the λ rows get 0
  result.lemke = lemke.solve(N, qq, z);
  // If (x, β, λ) solves the original LCP, ((sb/sa) x, (sb/sa) β, sb λ) solves the scaled one
  // (the impulse rows are multiplied by sb, the cone rows by sb/sa): x = x' sa/sb.
  z *= sa / sb;
  for (Eigen::Index j = 0; j < m; ++j) r.segment<3>(3 * j) = Gj * z.segment(j * block, k + 1);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace granite::solver
