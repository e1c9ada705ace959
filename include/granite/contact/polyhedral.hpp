#pragma once
// The single-contact LCP of Stewart–Trinkle's polyhedral friction cone (their Eqs. 25–29 for one
// contact, in the form of single_contact.hpp). Unknowns z = (x_n, β_1..β_k, λ) ≥ 0, impulse
// x = G z with G = [[1, 0], [0, D]] (D the 2 × k matrix of the directions d_j), u = A x − b:
//   w_n = u_n                  ≥ 0 ⊥ x_n ≥ 0   (Signorini)
//   w_β = Dᵀu_to + λ e         ≥ 0 ⊥ β   ≥ 0   (friction opposes the slip, maximum dissipation)
//   w_λ = μ x_n − eᵀβ          ≥ 0 ⊥ λ   ≥ 0   (inside the polyhedral cone; λ = slip speed)
// i.e. w = N z + q with N = [[GᵀAG, (0, e)], [(μ, −eᵀ), 0]], q = (−Gᵀb, 0): the paper's matrix
// of Eqs. (17)–(18) with M⁻¹ → A.
#include "granite/core/types.hpp"

#include <Eigen/Core>

namespace granite::contact {

/// Fills N (size k + 2) and q of the LCP above.
void polyhedral_lcp(const Mat3& A, const Vec3& b, double mu, int directions, Eigen::MatrixXd& N,
                    Eigen::VectorXd& q);
/// The unit direction d_j (j = 0..k−1) of the tangential plane (t, o).
Eigen::Vector2d friction_direction(int j, int directions);
/// G = [[1, 0], [0, D]] (3 × (k + 1)): the impulse x = G (x_n, β) in the contact frame.
Eigen::Matrix<double, 3, Eigen::Dynamic> polyhedral_basis(int directions);
/// Writes the cone part of N for a contact whose unknowns (x_n, β, λ) start at `at`: the
/// column λ e in the rows w_β and the row w_λ = μ x_n − eᵀβ (the rest of those rows and column
/// is left as it is: zero in a zeroed N).
void add_polyhedral_cone_rows(Eigen::MatrixXd& N, Eigen::Index at, double mu, int directions);
/// 2^−e for the exponent e of `magnitude` (magnitude · 2^−e in [0.5, 1); 1 for 0): an exact
/// scale that brings entries of that size to order one before pivoting.
double power_of_two_scale(double magnitude);

}  // namespace granite::contact
