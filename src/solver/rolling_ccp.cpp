// Rolling and spinning resistance in the cone complementarity model (see
// include/granite/solver/rolling_ccp.hpp).
#include "granite/solver/rolling_ccp.hpp"

#include "granite/solver/contact_kinematics.hpp"

namespace granite::solver {

namespace {

// The inexact block update's forcing term (contact::solve_rolling_ccp): its error at most a
// tenth of its change, so the sweep's change measures the convergence as for exact updates.
constexpr double kForcing = 0.1;

// (u, R* w) from a relative velocity and angular velocity (world frame), gap term on u_n.
contact::Vec6 joint_vector(const SolverContact& c, const RollingContact& r, const Vec3& velocity,
                           const Vec3& angular) {
  contact::Vec6 y;
  const Mat3 frame = c.frame();
  y.head<3>() = frame.transpose() * velocity;
  y[0] += c.gap_term;
  y.tail<3>() = r.radius * (frame.transpose() * angular);
  return y;
}

}  // namespace

contact::Mat6 rolling_delassus(const SolverContact& c, const RollingContact& r, const BodyState& s1,
                               const BodyState& s2) {
  const Mat3 frame = c.frame();
  Mat3 coupling;  // C, column by column: the relative angular velocity of a unit impulse
  for (int k = 0; k < 3; ++k) {
    const Vec3 q = frame.col(k);
    coupling.col(k) = s1.angular_response(cross(c.r1, q)) + s2.angular_response(cross(c.r2, q));
  }
  coupling = frame.transpose() * coupling;
  contact::Mat6 G;
  G.topLeftCorner<3, 3>() = c.A.full();
  G.bottomLeftCorner<3, 3>() = r.radius * coupling;
  G.topRightCorner<3, 3>() = r.radius * coupling.transpose();
  G.bottomRightCorner<3, 3>() = r.radius * r.radius * r.W;
  return G;
}

contact::RollingCone rolling_cone(const SolverContact& c, const RollingContact& r) {
  return {c.mu, r.spinning_arm / r.radius, r.rolling_arm / r.radius};
}

contact::Vec6 joint_unknowns(const Vec3& impulse, const Vec3& torque, const RollingContact& r) {
  contact::Vec6 z;
  z << impulse, torque / r.radius;
  return z;
}

contact::Vec6 joint_velocity(const SolverContact& c, const RollingContact& r, const BodyState& b1,
                             const BodyState& b2) {
  return joint_vector(c, r, relative_velocity(c, b1, b2), relative_angular_velocity(b1, b2));
}

JointChange update_joint_block(const SolverContact& c, RollingBlocks& rolling, std::size_t k,
                               Vec3& impulse, BodyState& b1, BodyState& b2) {
  const RollingContact& r = rolling.contacts[k];
  const contact::RollingCcpBlock& block = rolling.joint[k];
  Vec3& torque = rolling.torques[k];
  const contact::Vec6 old = joint_unknowns(impulse, torque, r);
  // The block's CCP with the others fixed: ½ zᵀGz − cᵀz, c = G z_old − y (y the current
  // velocity, which contains z_old's own contribution), as b = A λ_old − u for the impulse.
  const contact::Vec6 y = joint_velocity(c, r, b1, b2);
  const contact::Vec6 inverse = block.scale.cwiseInverse();  // G = S⁻¹ G' S⁻¹
  const contact::Vec6 G_old = inverse.cwiseProduct(block.G * inverse.cwiseProduct(old));
  contact::Vec6 z = contact::solve_rolling_ccp(block, G_old - y, old, kForcing).z;
  if (c.weight != 1.0) z = old + c.weight * (z - old);  // inside Υ: it is convex
  const Vec3 d_impulse = z.head<3>() - impulse;
  const Vec3 d_torque = r.radius * z.tail<3>() - torque;
  impulse = z.head<3>();
  torque = r.radius * z.tail<3>();
  const Mat3 frame = c.frame();
  if (!d_impulse.isZero(0.0)) apply_impulse(c, frame * d_impulse, b1, b2);
  if (!d_torque.isZero(0.0)) apply_couple(frame * d_torque, b1, b2);
  return {d_impulse.squaredNorm(), d_torque.squaredNorm()};
}

void add_joint_sums(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                    const RollingBlocks& rolling, const std::vector<BodyState>& bodies,
                    Fc3dSums& sums) {
  for (std::size_t k = 0; k < rolling.contacts.size(); ++k) {
    const RollingContact& r = rolling.contacts[k];
    const SolverContact& c = contacts[r.contact];
    const BodyState& b1 = bodies[c.body1];
    const BodyState& b2 = bodies[c.body2];
    const contact::Vec6 z = joint_unknowns(impulses[r.contact], rolling.torques[k], r);
    const contact::Vec6 y = joint_velocity(c, r, b1, b2);
    const contact::Vec6 q = joint_vector(c, r, predicted_velocity(c, b1, b2), b1.w - b2.w);
    sums.residual2 += contact::rolling_ccp_residual2(z, y, rolling_cone(c, r));
    sums.r2 += z.squaredNorm();
    sums.u2 += y.squaredNorm();
    sums.q2 += q.squaredNorm();
  }
}

}  // namespace granite::solver
