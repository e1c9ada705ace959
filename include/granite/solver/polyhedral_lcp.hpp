#pragma once
// Stewart–Trinkle's LCP (29) for a whole step: the contact problem u = W r + q of m contacts
// (FCLIB convention, contact frames (n, t, o), W from solver::export_contact_problem) with every
// friction cone replaced by the polyhedral cone of k directions, solved by Lemke's method
// (contact/lemke.hpp). Unknowns z = (x_n, β_1..β_k, λ) per contact, contact after contact, and
// r_j = G z_j with G = [[1, 0], [0, D]] (D the 2 × k directions, contact/polyhedral.hpp):
//   w = N z + q̃,  N_jl = [[G_jᵀ W_jl G_l, 0], [0, 0]] + (on j = l) the cone rows of
//   contact::polyhedral_lcp (λ e in w_β, μ x_n − eᵀβ in w_λ),  q̃_j = (Gᵀ q_j, 0).
// N is copositive and Lemke's method cannot end on a ray (Eqs. 18–19, the argument in
// src/contact/polyhedral.cpp, for W positive semidefinite), but dense: O((m(k+2))²) memory and
// about m(k+2) pivots of O((m(k+2))²) each, so for small systems only.
#include "granite/contact/lemke.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace granite::solver {

struct PolyhedralLcpResult {
  contact::LemkeResult lemke;  // status, pivots, error and scale of the scaled LCP
  Eigen::Index size = 0;       // m (k + 2)
  double seconds = 0.0;        // assembly and pivoting
};

/// Solves LCP (29) for u = W r + q (W 3m × 3m, q 3m, μ m) with k directions; r (resized to 3m)
/// gets the contact-frame impulses of Lemke's last point (the solution iff lemke.status is
/// solution; zeros for invalid input). The problem is scaled by powers of two (exact) so that
/// W, q and the cone rows are of order one before pivoting.
PolyhedralLcpResult solve_polyhedral_lcp(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                                         const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                                         int directions, Eigen::VectorXd& r);

}  // namespace granite::solver
