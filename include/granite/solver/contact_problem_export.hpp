#pragma once
// Export of one step's contact problem as an assembled local frictional contact problem in the
// FCLIB convention u = W r + q (contact frames (n, t, o)), e.g. for io::write_fclib_local.
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

namespace granite::solver {

/// Assembles the Delassus matrix W (3m × 3m, 3×3 blocks in the contact frames), q and μ of the
/// m contacts:
///   W_jk = Σ_{bodies b shared by j and k} ± Q_jᵀ (m_b⁻¹E − [r_j]× I_b⁻¹ [r_k]×) Q_k
/// (+ if b is body 1 of both contacts or body 2 of both, − otherwise; r_j, r_k the lever arms of
/// b in j and k), so W_jj = SolverContact::A; bodies with zero inverse mass and inertia (global
/// bodies) couple nothing and are skipped. q_j = Q_jᵀ(v1 + ω1×r1 − v2 − ω2×r2) + gap_term e_n
/// from the predicted velocities v, w of `states` (the corrections dv, dw are ignored), so that
/// u = W r + q is the contact-frame relative velocity after the impulses r plus the gap term,
/// and the engine's right-hand side is b_j = −(q_j + Σ_{k≠j} W_jk r_k).
/// Cost O(m × contacts per body), using a contacts-per-body list.
void export_contact_problem(const std::vector<SolverContact>& contacts,
                            const std::vector<BodyState>& states,
                            Eigen::SparseMatrix<double, Eigen::RowMajor>& W, Eigen::VectorXd& q,
                            Eigen::VectorXd& mu);

}  // namespace granite::solver
