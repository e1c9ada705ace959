#pragma once
// Rolling and spinning resistance (docs/solvers.md, "Rolling and spinning resistance"; the model
// of Tasora & Anitescu, Meccanica 48, 2013, for complementarity contacts). A contact whose
// materials have μ_r or μ_s > 0 carries, besides its impulse λ = (λ_n, λ_t, λ_o), a torque
// impulse τ = (τ_s, τ_t, τ_o) in its frame [n t o]: +τ on body 1, −τ on body 2, a pure couple.
// τ_s (about n) resists spinning, |τ_s| <= μ_s R* λ_n; (τ_t, τ_o) resists rolling,
// |(τ_t, τ_o)| <= μ_r R* λ_n. R* is the contact's effective radius, 1/(1/r₁ + 1/r₂), r₂ = ∞ for
// a global body; a shaped body's r is its surface radius at the contact
// (collision::surface_radius: a clump's part, a capsule's radius, 1/√K on an ellipsoid, the
// sphere of equal volume for a polyhedron).
//
// The torque block. The relative angular velocity in the contact frame after the update is
// w' = W τ − b, with W = Qᵀ (I₁⁻¹ + I₂⁻¹) Q and b = W τ_old − w (w the current one). The torque
// that dissipates most within the bounds minimises the kinetic energy ½ w'ᵀ W⁻¹ w', that is
// f(τ) = ½ τᵀ W τ − bᵀ τ over the product of the interval and the disk (convex, W SPD: one
// minimiser). Because the disk's outward normal at τ is τ itself, its optimality conditions
// say that a rolling torque on the rim opposes the rolling velocity it leaves, which is also
// the Coulomb-like law: at a fixed λ_n both friction models give this τ (they differ in the
// sliding block, where λ_n moves with the impulse). It is found by block coordinate descent
// (the spin row, then the rolling disk, until neither moves; one pass when W is diagonal, as
// for a sphere), the disk's part by disk_minimum.
//
// mdp and coulomb: after each Gauss–Seidel sweep of the contacts' impulses, one sweep of the
// torque blocks with the bounds of the current λ_n (solver::relax). The cone complementarity
// model instead treats (λ, τ/R*) as one block of six in a joint cone (solver/rolling_ccp.hpp),
// in Gauss–Seidel and in APGD. The torques are warm-started with the impulses
// (solver/contact_history.hpp) and kept in the checkpoint's contact history.
#include "granite/body/global_body.hpp"
#include "granite/body/material.hpp"
#include "granite/body/particles.hpp"
#include "granite/body/shape.hpp"
#include "granite/collision/contact.hpp"
#include "granite/contact/rolling_cone.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"

#include <cstdint>
#include <vector>

namespace granite::solver {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;

/// One contact with rolling or spinning resistance.
struct RollingContact {
  std::uint32_t contact;      // index into the SolverContact array
  Mat3 W;                     // Qᵀ (I₁⁻¹ + I₂⁻¹) Q, the torque block
  double radius = 0.0;        // R*, the effective radius (m)
  double rolling_arm = 0.0;   // μ_r R*: the rolling bound per unit λ_n (m)
  double spinning_arm = 0.0;  // μ_s R*: the spinning bound per unit λ_n (m)
};

/// The step's torque blocks and their torque impulses (N m s), one per entry.
struct RollingBlocks {
  std::vector<RollingContact> contacts;
  std::vector<Vec3> torques;
  // The cone complementarity model's joint blocks (setup_rolling with cone_complementarity):
  // per entry its prepared 6-variable problem, per contact its entry or −1.
  std::vector<contact::RollingCcpBlock> joint;
  std::vector<std::int32_t> block_of;
  bool empty() const { return contacts.empty(); }
};

/// The torque blocks of the contacts whose pair has μ_r or μ_s > 0 (their torques zero); with
/// `cone_complementarity` also their joint blocks (solver/rolling_ccp.hpp).
void setup_rolling(const collision::ContactList& contacts, const body::Particles& particles,
                   const body::GlobalBodies& globals, const body::MaterialTable& materials,
                   const body::ShapeTable& shapes, const std::vector<BodyState>& states,
                   const std::vector<SolverContact>& solver_contacts, bool cone_complementarity,
                   RollingBlocks& out);

/// The minimiser of ½ xᵀ A x − cᵀ x over the disk |x| <= r (A symmetric positive definite,
/// r >= 0): A⁻¹c if inside, else x = (A + ν I)⁻¹ c with ν > 0 and |x| = r, ν by Newton's method
/// on 1/r − 1/|x(ν)| (concave and increasing in ν: monotone convergence from ν = 0; Moré &
/// Sorensen 1983).
Vec2 disk_minimum(const Mat2& A, const Vec2& c, double r);

/// The minimiser of ½ τᵀ W τ − bᵀ τ over |τ_0| <= spin_bound, |(τ_1, τ_2)| <= rolling_bound, by
/// block coordinate descent from `start` (header).
Vec3 torque_block_minimum(const Mat3& W, const Vec3& b, double spin_bound, double rolling_bound,
                          const Vec3& start);

/// τ clamped to the bounds: |τ_0| <= spin_bound, (τ_1, τ_2) scaled into the disk of
/// rolling_bound.
Vec3 clamp_torque(Vec3 tau, double spin_bound, double rolling_bound);

/// Adds the angular velocity corrections of the blocks' torques to the bodies (warm starts).
void apply_torques(const std::vector<SolverContact>& contacts, const RollingBlocks& rolling,
                   std::vector<BodyState>& bodies);

/// One Gauss–Seidel sweep over the torque blocks (λ_n from `impulses`); returns the relative
/// torque change max |Δτ| / max |τ|.
double rolling_sweep(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                     RollingBlocks& rolling, std::vector<BodyState>& bodies);

}  // namespace granite::solver
