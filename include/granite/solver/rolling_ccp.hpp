#pragma once
// Rolling and spinning resistance in the cone complementarity model (contact/rolling_cone.hpp;
// docs/rolling_resistance.md). A contact with a torque block has six unknowns z = (λ, τ/R*) in
// the cone Υ, and its Delassus block couples them: an impulse at the lever arms turns the
// bodies, a couple moves the contact point. In the variables z,
//   G = [ A       R* Cᵀ  ]    C = Qᵀ (I₁⁻¹ [r₁]× + I₂⁻¹ [r₂]×) Q  (relative angular velocity
//       [ R* C    R*² W  ]                                       per unit impulse),
// with A the impulse block (solver/contact_setup.hpp) and W the torque block (solver/rolling.hpp).
// Gauss–Seidel minimises over each such block at once (solve_rolling_ccp): relaxing λ and τ in
// turn would stall, because τ's bound moves with λ_n and the cone is not a product of the two.
// APGD projects each block onto Υ (solver/apgd_step.cpp).
#include "granite/contact/rolling_cone.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"
#include "granite/solver/fc3d_error.hpp"
#include "granite/solver/rolling.hpp"

namespace granite::solver {

/// G above for the contact `c` of rolling contact `r` (`s1`, `s2` its bodies' states).
contact::Mat6 rolling_delassus(const SolverContact& c, const RollingContact& r, const BodyState& s1,
                               const BodyState& s2);

/// Υ's coefficients of a rolling contact: μ, μ_s = spinning_arm/R*, μ_r = rolling_arm/R*.
contact::RollingCone rolling_cone(const SolverContact& c, const RollingContact& r);

/// z = (λ, τ/R*) of a rolling contact.
contact::Vec6 joint_unknowns(const Vec3& impulse, const Vec3& torque, const RollingContact& r);

/// The velocity conjugate to z: (Qᵀu + gap term e_n, R* Qᵀ(ω₁ − ω₂)), corrections included.
contact::Vec6 joint_velocity(const SolverContact& c, const RollingContact& r, const BodyState& b1,
                             const BodyState& b2);

/// The squared changes of one joint update (for the sweep's relative changes).
struct JointChange {
  double impulse2 = 0.0;  // ‖Δλ‖²
  double torque2 = 0.0;   // ‖Δτ‖²
};

/// One Gauss–Seidel update of rolling contact k (its contact `c`): z minimises the block's CCP
/// with the other contacts fixed (c.weight < 1 under-relaxes it), the changes go to the bodies.
JointChange update_joint_block(const SolverContact& c, RollingBlocks& rolling, std::size_t k,
                               Vec3& impulse, BodyState& b1, BodyState& b2);

/// Adds the joint blocks' contacts to the CCP error sums with all six rows: the residual
/// rolling_ccp_residual2(z, y), r² += ‖z‖², u² += ‖y‖² and q² the same for y without the
/// corrections (fc3d_sums leaves these contacts out).
void add_joint_sums(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                    const RollingBlocks& rolling, const std::vector<BodyState>& bodies,
                    Fc3dSums& sums);

}  // namespace granite::solver
