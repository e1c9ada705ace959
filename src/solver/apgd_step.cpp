// Matrix-free APGD on a time step (see include/granite/solver/apgd_step.hpp).
#include "granite/solver/apgd_step.hpp"

#include "granite/solver/contact_kinematics.hpp"
#include "granite/solver/rolling_ccp.hpp"

namespace granite::solver {
namespace {

// The unknowns: 3 per contact (its impulse), then 3 per torque block (τ/R*, its joint block's
// rolling variables, solver/rolling_ccp.hpp).
class StepCcp {
public:
  StepCcp(const std::vector<SolverContact>& contacts, std::vector<BodyState>& bodies,
          Exchange& exchange, const RollingBlocks* rolling) :
      contacts_(contacts),
      bodies_(bodies), exchange_(exchange), rolling_(rolling),
      impulses_(3 * Eigen::Index(contacts.size())),
      p_(impulses_ + 3 * Eigen::Index(rolling ? rolling->contacts.size() : 0)) {
    for (std::size_t j = 0; j < contacts.size(); ++j) {
      const SolverContact& c = contacts[j];
      Vec3 pj = c.frame().transpose() * predicted_velocity(c, bodies[c.body1], bodies[c.body2]);
      pj[0] += c.gap_term;
      p_.segment<3>(3 * Eigen::Index(j)) = pj;
    }
    for (std::size_t k = 0; rolling_ && k < rolling_->contacts.size(); ++k) {
      const RollingContact& r = rolling_->contacts[k];
      const SolverContact& c = contacts[r.contact];
      p_.segment<3>(torque_row(k)) =
          r.radius * (c.frame().transpose() * (bodies[c.body1].w - bodies[c.body2].w));
    }
  }
  Eigen::Index size() const { return p_.size(); }
  const Eigen::VectorXd& linear_term() const { return p_; }
  Eigen::Index torque_row(std::size_t k) const { return impulses_ + 3 * Eigen::Index(k); }
  void project(Eigen::VectorXd& x) const {
    for_each_block(x, [&](auto&& block, const auto& cone) { block = project_onto(block, cone); });
  }
  double residual2(const Eigen::VectorXd& x, const Eigen::VectorXd& u) const {
    double sum = 0.0;
    for (std::size_t j = 0; j < contacts_.size(); ++j) {
      const std::int32_t k = block_of(j);
      const Eigen::Index row = 3 * Eigen::Index(j);
      if (k < 0) {
        sum += ccp_contact_residual2(x.segment<3>(row), u.segment<3>(row), contacts_[j].mu);
        continue;
      }
      const Eigen::Index trow = torque_row(std::size_t(k));
      contact::Vec6 z, y;
      z << x.segment<3>(row), x.segment<3>(trow);
      y << u.segment<3>(row), u.segment<3>(trow);
      sum += contact::rolling_ccp_residual2(z, y, cone(j, std::size_t(k)));
    }
    return sum;
  }
  /// Leaves the corrections of x in the bodies.
  void apply(const Eigen::VectorXd& x) {
    for (BodyState& b : bodies_) b.dv.setZero(), b.dw.setZero();
    exchange_.reset_corrections(bodies_);
    for (std::size_t j = 0; j < contacts_.size(); ++j) {
      const SolverContact& c = contacts_[j];
      const Vec3 xj = x.segment<3>(3 * Eigen::Index(j));
      apply_impulse(c, c.frame() * xj, bodies_[c.body1], bodies_[c.body2]);
    }
    for (std::size_t k = 0; rolling_ && k < rolling_->contacts.size(); ++k) {
      const RollingContact& r = rolling_->contacts[k];
      const SolverContact& c = contacts_[r.contact];
      const Vec3 torque = r.radius * x.segment<3>(torque_row(k));
      apply_couple(c.frame() * torque, bodies_[c.body1], bodies_[c.body2]);
    }
    exchange_.exchange_corrections(bodies_);
  }
  void product(const Eigen::VectorXd& x, Eigen::VectorXd& Nx) {
    apply(x);
    Nx.resize(x.size());
    for (std::size_t j = 0; j < contacts_.size(); ++j) {
      const SolverContact& c = contacts_[j];
      Nx.segment<3>(3 * Eigen::Index(j)) =
          c.frame().transpose() * relative_correction(c, bodies_[c.body1], bodies_[c.body2]);
    }
    for (std::size_t k = 0; rolling_ && k < rolling_->contacts.size(); ++k) {
      const RollingContact& r = rolling_->contacts[k];
      const SolverContact& c = contacts_[r.contact];
      const BodyState &b1 = bodies_[c.body1], &b2 = bodies_[c.body2];
      Nx.segment<3>(torque_row(k)) = r.radius * (c.frame().transpose() * (b1.dw - b2.dw));
    }
  }
  template <std::size_t K>
  void sum(std::array<double, K>& partial) {
    exchange_.sum(partial.data(), K);
  }

private:
  std::int32_t block_of(std::size_t j) const {
    return rolling_ && !rolling_->block_of.empty() ? rolling_->block_of[j] : -1;
  }
  contact::RollingCone cone(std::size_t j, std::size_t k) const {
    return rolling_cone(contacts_[j], rolling_->contacts[k]);
  }
  // f(block, cone) for every contact: its impulse rows with μ (a double), or its six joint rows
  // with Υ (a RollingCone), as writable Eigen expressions.
  template <class F>
  void for_each_block(Eigen::VectorXd& x, F&& f) const {
    for (std::size_t j = 0; j < contacts_.size(); ++j) {
      const std::int32_t k = block_of(j);
      const Eigen::Index row = 3 * Eigen::Index(j);
      if (k < 0) {
        f(x.segment<3>(row), contacts_[j].mu);
        continue;
      }
      const Eigen::Index trow = torque_row(std::size_t(k));
      contact::Vec6 z;
      z << x.segment<3>(row), x.segment<3>(trow);
      f(z, cone(j, std::size_t(k)));
      x.segment<3>(row) = z.head<3>();
      x.segment<3>(trow) = z.tail<3>();
    }
  }
  static Vec3 project_onto(const Vec3& x, double mu) {
    return contact::project_onto_friction_cone(x, mu);
  }
  static contact::Vec6 project_onto(const contact::Vec6& z, const contact::RollingCone& cone) {
    return contact::project_onto_rolling_cone(z, cone);
  }

  const std::vector<SolverContact>& contacts_;
  std::vector<BodyState>& bodies_;
  Exchange& exchange_;
  const RollingBlocks* rolling_;
  Eigen::Index impulses_;  // 3 per contact, the first rows
  Eigen::VectorXd p_;
};

}  // namespace

ApgdResult apgd_step(const ApgdSettings& settings, const std::vector<SolverContact>& contacts,
                     std::vector<Vec3>& impulses, std::vector<BodyState>& bodies,
                     Exchange& exchange, RollingBlocks* rolling) {
  if (rolling != nullptr && rolling->empty()) rolling = nullptr;
  StepCcp problem(contacts, bodies, exchange, rolling);
  Eigen::VectorXd gamma(problem.size());
  for (std::size_t j = 0; j < impulses.size(); ++j)
    gamma.segment<3>(3 * Eigen::Index(j)) = impulses[j];
  for (std::size_t k = 0; rolling && k < rolling->contacts.size(); ++k)
    gamma.segment<3>(problem.torque_row(k)) = rolling->torques[k] / rolling->contacts[k].radius;
  const ApgdResult result = apgd(problem, settings, gamma);
  problem.apply(gamma);  // the best iterate's corrections, for the integration
  for (std::size_t j = 0; j < impulses.size(); ++j)
    impulses[j] = gamma.segment<3>(3 * Eigen::Index(j));
  for (std::size_t k = 0; rolling && k < rolling->contacts.size(); ++k)
    rolling->torques[k] = rolling->contacts[k].radius * gamma.segment<3>(problem.torque_row(k));
  return result;
}

}  // namespace granite::solver
