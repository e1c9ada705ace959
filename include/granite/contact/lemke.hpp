#pragma once
// Lemke's complementary pivoting method for the linear complementarity problem LCP(q, M):
//   find z with  w = M z + q ≥ 0,  z ≥ 0,  wᵀz = 0
// (Cottle–Pang–Stone, The Linear Complementarity Problem, Alg. 4.4.1 with the lexicographic
// minimum-ratio rule of §4.4.5 against degeneracy). Dense tableau; the workspace is kept in the
// Lemke object, so repeated solves of problems no larger than the last do not allocate.
//
// Lemke's method finds a solution whenever M is copositive-plus and the LCP is feasible, and more
// generally whenever M is copositive and [z ≥ 0, Mz ≥ 0, zᵀMz = 0] implies zᵀq ≥ 0
// (Cottle–Pang–Stone Thm. 4.4.13); otherwise it may end on a secondary ray. Every answer reported
// as a solution has been checked: see LemkeResult.
#include <Eigen/Core>

#include <string_view>

namespace granite::contact {

enum class LemkeStatus {
  solution,         // z solves the LCP to the tolerance (checked after the pivoting)
  ray_termination,  // the entering column has no positive entry: a secondary ray (no conclusion)
  pivot_limit,      // max_pivots reached without z0 leaving the basis
  inaccurate,       // the pivoting ended on a complementary basis, but its z fails the check
  invalid_input,    // sizes differ, an entry is not finite, or the covering vector is not > 0
};
std::string_view lemke_status_name(LemkeStatus status);

struct LemkeOptions {
  int max_pivots = 0;        // 0: 50 (n + 1), well above the few n pivots of the usual problem
  double tolerance = 1e-10;  // relative tolerance of the check, times scale (see LemkeResult)
  double pivot_tolerance = 1e-13;  // entries of the entering column at most this (relative) are 0
};

/// z is the last basic point (the solution when status == solution; for the other statuses the
/// point where the pivoting stopped, z0 dropped, clamped to z ≥ 0, or 0 for invalid input).
/// error = ‖min(z, w)‖_∞ with w = M z + q recomputed from z (not read from the tableau): zero
/// iff z solves the LCP; with z ≥ 0 it bounds the violation of w ≥ 0 and of complementarity.
/// scale = ‖q‖_∞ + ‖M‖_∞ ‖z‖_∞; a solution is reported iff z ≥ 0 exactly (clamped rounding)
/// and error ≤ tolerance · scale and max_i |z_i w_i| ≤ tolerance · scale · ‖z‖_∞ (a problem
/// whose rows differ widely in scale should be scaled first, as polyhedral_impulse does).
struct LemkeResult {
  LemkeStatus status = LemkeStatus::invalid_input;
  int pivots = 0;
  double error = 0.0;
  double scale = 0.0;
};

class Lemke {
public:
  /// Solves LCP(q, M) with the covering vector d = 1.
  LemkeResult solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, Eigen::VectorXd& z,
                    const LemkeOptions& options = {});
  /// With a covering vector d > 0.
  LemkeResult solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& d,
                    Eigen::VectorXd& z, const LemkeOptions& options = {});

private:
  Eigen::MatrixXd tableau_;  // [B⁻¹ | −B⁻¹M | −B⁻¹d | B⁻¹q], n × (2n + 2)
  Eigen::VectorXi basis_;    // basic variable of each row: w_i = i, z_i = n + i, z0 = 2n
  Eigen::VectorXd w_;
  Eigen::VectorXi candidates_;  // rows still tied in the lexicographic ratio test
  Eigen::VectorXd ratio_;
  Eigen::VectorXd ones_;          // the default covering vector
  Eigen::RowVectorXd pivot_row_;  // workspace of pivot()
  Eigen::VectorXd pivot_column_;

  int leaving_row(int column, int z0);
  void pivot(int row, int column);
};

/// The check of LemkeResult for any z (used by Lemke and by tests): error and scale.
LemkeResult lcp_check(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z,
                      double tolerance, Eigen::VectorXd& w);

}  // namespace granite::contact
