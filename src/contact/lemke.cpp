// Lemke's method with the lexicographic minimum-ratio rule (Cottle–Pang–Stone Alg. 4.4.1, 4.4.5);
// see include/granite/contact/lemke.hpp.
#include "granite/contact/lemke.hpp"

#include <algorithm>
#include <cmath>

namespace granite::contact {
namespace {

// Ratios equal to this relative tolerance (of the largest ratio compared) count as ties.
constexpr double kTie = 1e-11;

}  // namespace

std::string_view lemke_status_name(LemkeStatus status) {
  switch (status) {
  case LemkeStatus::solution:
    return "solution";
  case LemkeStatus::ray_termination:
    return "ray termination";
  case LemkeStatus::pivot_limit:
    return "pivot limit";
  case LemkeStatus::inaccurate:
    return "inaccurate";
  case LemkeStatus::invalid_input:
    return "invalid input";
  }
  return "unknown";
}

LemkeResult lcp_check(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z,
                      double tolerance, Eigen::VectorXd& w) {
  LemkeResult r;
  w.noalias() = M * z;
  w += q;
  const double zmax = z.size() ? z.cwiseAbs().maxCoeff() : 0.0;
  const double mnorm = M.size() ? M.cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
  r.scale = (q.size() ? q.cwiseAbs().maxCoeff() : 0.0) + mnorm * zmax;
  double error = 0.0, product = 0.0;
  bool nonnegative = true;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    error = std::max(error, std::fabs(std::min(z[i], w[i])));
    product = std::max(product, std::fabs(z[i] * w[i]));
    nonnegative = nonnegative && z[i] >= 0.0;
  }
  r.error = error;
  const double allowed = tolerance * r.scale;
  r.status = nonnegative && std::isfinite(error) && error <= allowed && product <= allowed * zmax
                 ? LemkeStatus::solution
                 : LemkeStatus::inaccurate;
  return r;
}

LemkeResult Lemke::solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, Eigen::VectorXd& z,
                         const LemkeOptions& options) {
  ones_.setOnes(q.size());
  return solve(M, q, ones_, z, options);
}

// Gauss–Jordan step as one rank-1 update T −= c pᵀ (c the pivot column with its pivot entry
// zeroed, p the scaled pivot row): column by column, which suits Eigen's column-major storage
// (row by row, the update strides through memory and is several times slower).
void Lemke::pivot(int row, int column) {
  pivot_row_ = tableau_.row(row) / tableau_(row, column);
  pivot_column_ = tableau_.col(column);
  pivot_column_[row] = 0.0;
  tableau_.noalias() -= pivot_column_ * pivot_row_;
  tableau_.row(row) = pivot_row_;
}

// The lexicographic minimum-ratio test on the entering column: among the rows with a positive
// entry a_i, the lexicographic minimum of (B⁻¹q, B⁻¹)_i / a_i (Cottle–Pang–Stone §4.4.5; the
// rows of B⁻¹ are independent, so exactly one row remains: no cycling). The first component is
// the ordinary ratio; the row of z0 wins a tie there (the pivoting then ends).
// Returns −1 if no entry is positive (ray termination).
int Lemke::leaving_row(int column, int z0) {
  const int n = static_cast<int>(tableau_.rows());
  const int rhs = 2 * n + 1;
  double amax = 0.0;
  for (int i = 0; i < n; ++i) amax = std::max(amax, std::fabs(tableau_(i, column)));
  int count = 0;
  for (int i = 0; i < n; ++i)
    if (tableau_(i, column) > 1e-13 * amax) candidates_[count++] = i;
  if (count == 0) return -1;
  // Component 0: the right-hand side; components 1..n: the columns of B⁻¹ (tableau columns 0..n−1).
  for (int component = 0; component <= n && count > 1; ++component) {
    const int col = component == 0 ? rhs : component - 1;
    double least = 0.0, largest = 0.0;
    for (int c = 0; c < count; ++c) {
      const int i = candidates_[c];
      ratio_[c] = tableau_(i, col) / tableau_(i, column);
      least = c == 0 ? ratio_[c] : std::min(least, ratio_[c]);
      largest = std::max(largest, std::fabs(ratio_[c]));
    }
    int kept = 0;
    for (int c = 0; c < count; ++c)
      if (ratio_[c] <= least + kTie * largest) candidates_[kept++] = candidates_[c];
    count = kept;
    if (component == 0)
      for (int c = 0; c < count; ++c)
        if (basis_[candidates_[c]] == z0) return candidates_[c];
  }
  return candidates_[0];
}

LemkeResult Lemke::solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& d, Eigen::VectorXd& z,
                         const LemkeOptions& options) {
  const Eigen::Index n = q.size();
  z.setZero(n);
  LemkeResult result;
  if (M.rows() != n || M.cols() != n || d.size() != n || !M.allFinite() || !q.allFinite() ||
      !d.allFinite() || (n > 0 && !(d.minCoeff() > 0.0)))
    return result;  // invalid_input
  // q ≥ 0: z = 0 solves it (w = q).
  if (n == 0 || q.minCoeff() >= 0.0) return lcp_check(M, q, z, options.tolerance, w_);

  const int ni = static_cast<int>(n);
  const int z0 = 2 * ni, rhs = 2 * ni + 1;
  tableau_.resize(n, 2 * n + 2);  // no allocation if the size is unchanged
  tableau_.leftCols(n).setIdentity();
  tableau_.middleCols(n, n) = -M;
  tableau_.col(z0) = -d;
  tableau_.col(rhs) = q;
  basis_.resize(n);
  for (int i = 0; i < ni; ++i) basis_[i] = i;
  candidates_.resize(n);
  ratio_.resize(n);
  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : 50 * (ni + 1);

  // z0 enters at the level making every w_i = q_i + d_i z0 ≥ 0: the row of the lexicographic
  // minimum of (q_i, e_iᵀ)/d_i, after which the tableau is lexicographically feasible.
  int row = 0;
  {
    int count = 0;
    for (int i = 0; i < ni; ++i) candidates_[count++] = i;
    for (int component = 0; component <= ni && count > 1; ++component) {
      double least = 0.0, largest = 0.0;
      for (int c = 0; c < count; ++c) {
        const int i = candidates_[c];
        const double v = component == 0 ? q[i] : (component - 1 == i ? 1.0 : 0.0);
        ratio_[c] = v / d[i];
        least = c == 0 ? ratio_[c] : std::min(least, ratio_[c]);
        largest = std::max(largest, std::fabs(ratio_[c]));
      }
      int kept = 0;
      for (int c = 0; c < count; ++c)
        if (ratio_[c] <= least + kTie * largest) candidates_[kept++] = candidates_[c];
      count = kept;
    }
    row = candidates_[0];
  }
  int entering = z0;
  LemkeStatus status = LemkeStatus::pivot_limit;
  while (true) {
    const int leaving = basis_[row];
    pivot(row, entering);
    basis_[row] = entering;
    ++result.pivots;
    if (leaving == z0) {
      status = LemkeStatus::solution;  // to be checked below
      break;
    }
    if (result.pivots >= max_pivots) break;
    entering = leaving < ni ? leaving + ni : leaving - ni;  // the complement enters
    row = leaving_row(entering, z0);
    if (row < 0) {
      status = LemkeStatus::ray_termination;
      break;
    }
  }
  for (int i = 0; i < ni; ++i)
    if (basis_[i] >= ni && basis_[i] < z0) z[basis_[i] - ni] = std::max(0.0, tableau_(i, rhs));
  const LemkeResult checked = lcp_check(M, q, z, options.tolerance, w_);
  result.error = checked.error;
  result.scale = checked.scale;
  result.status = status == LemkeStatus::solution ? checked.status : status;
  return result;
}

}  // namespace granite::contact
