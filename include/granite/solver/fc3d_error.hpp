#pragma once
// The error of an approximate solution of a local 3D frictional contact problem u = W r + q
// (FCLIB convention, contact frames (n, t1, t2)): Siconos' fc3d_compute_error, the measure the
// FCLIB reference solutions, the matrix relaxation and (solver.convergence: fc3d) the time
// step's relaxation use, and the cone complementarity (CCP) error of the same problem.
#include "granite/contact/friction_cone.hpp"
#include "granite/contact/single_contact.hpp"
#include "granite/core/types.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cmath>

namespace granite::solver {

/// ‖r − P_K(r − u − shift · μ‖u_T‖ e_N)‖²: shift = 1 is Siconos' Coulomb (fc3d) term, shift = 0
/// the natural map of the cone complementarity problem. Inline: the relaxation's convergence
/// test evaluates it for every contact.
inline double natural_map_residual2(const Vec3& r, const Vec3& u, double mu, double shift) {
  Vec3 z = r - u;
  z[0] -= shift * mu * u.tail<2>().norm();
  const double zt = std::sqrt(z[1] * z[1] + z[2] * z[2]);
  return (r - contact::project_onto_friction_cone(z, mu, zt)).squaredNorm();
}

/// One contact's term of Siconos' natural-map residual:
///   ‖r − P_K(r − u − μ ‖u_T‖ e_N)‖²  (contact-frame impulse r, relative velocity u).
inline double fc3d_contact_residual2(const Vec3& r, const Vec3& u, double mu) {
  return natural_map_residual2(r, u, mu, 1.0);
}
/// The same for the cone complementarity problem (no Coulomb shift): ‖r − P_K(r − u)‖².
inline double ccp_contact_residual2(const Vec3& r, const Vec3& u, double mu) {
  return natural_map_residual2(r, u, mu, 0.0);
}

/// The sums over contacts from which the error follows; summing them over processes gives the
/// error of the whole (distributed) problem.
struct Fc3dSums {
  double residual2 = 0.0;  // Σ fc3d_contact_residual2
  double q2 = 0.0;         // ‖q‖²
  double r2 = 0.0;         // ‖r‖²
  double u2 = 0.0;         // ‖u‖²
  /// sqrt(residual2) / max(‖q‖, ‖r‖, ‖u‖) (the absolute value if the normalisation is 0).
  double error() const;
};

/// Siconos fc3d_compute_error: with u = W r + q,
///   e² = Σ_α ‖r_α − P_Kα(r_α − u_α − μ_α ‖u_α,T‖ e_N)‖²,  error = e / max(‖q‖, ‖r‖, ‖u‖)
/// (0 if the normalisation is 0).
double fc3d_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

/// The error a model's solution is measured by: ccp_error for the cone complementarity model
/// (its solutions are not Coulomb solutions), fc3d_error for every other model.
double model_error(contact::Model model, const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

/// The cone complementarity problem's natural-map residual (r ∈ K ⊥ u ∈ K*, no Coulomb shift
/// of the normal velocity), normalised as fc3d_error:
///   e² = Σ_α ‖r_α − P_Kα(r_α − u_α)‖²,  error = e / max(‖q‖, ‖r‖, ‖u‖).
/// Zero exactly at the minimiser of ½rᵀWr + qᵀr over the friction cones.
double ccp_error(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W, const Eigen::VectorXd& q,
                 const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

/// The error a model's solution is measured by: ccp_error for the cone complementarity model
/// (its solutions are not Coulomb solutions), fc3d_error for every other model.
double model_error(contact::Model model, const Eigen::SparseMatrix<double, Eigen::RowMajor>& W,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& mu, const Eigen::VectorXd& r);

}  // namespace granite::solver
