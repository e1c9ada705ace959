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

}  // namespace granite::contact
