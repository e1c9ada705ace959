// Matrix-free APGD on a time step (see include/granite/solver/apgd_step.hpp).
#include "granite/solver/apgd_step.hpp"

#include "granite/solver/contact_kinematics.hpp"

namespace granite::solver {
namespace {

class StepCcp {
public:
  StepCcp(const std::vector<SolverContact>& contacts, std::vector<BodyState>& bodies,
          Exchange& exchange) :
      contacts_(contacts),
      bodies_(bodies), exchange_(exchange), p_(3 * static_cast<Eigen::Index>(contacts.size())) {
    for (std::size_t j = 0; j < contacts.size(); ++j) {
      const SolverContact& c = contacts[j];
      Vec3 pj = c.frame.transpose() * predicted_velocity(c, bodies[c.body1], bodies[c.body2]);
      pj[0] += c.gap_term;
      p_.segment<3>(3 * static_cast<Eigen::Index>(j)) = pj;
    }
  }
  Eigen::Index size() const { return p_.size(); }
  const Eigen::VectorXd& linear_term() const { return p_; }
  double friction(Eigen::Index contact) const {
    return contacts_[static_cast<std::size_t>(contact)].mu;
  }
  /// Leaves the corrections of x in the bodies.
  void apply(const Eigen::VectorXd& x) {
    for (BodyState& b : bodies_) b.dv.setZero(), b.dw.setZero();
    exchange_.reset_corrections(bodies_);
    for (std::size_t j = 0; j < contacts_.size(); ++j) {
      const SolverContact& c = contacts_[j];
      const Vec3 xj = x.segment<3>(3 * static_cast<Eigen::Index>(j));
      apply_impulse(c, c.frame * xj, bodies_[c.body1], bodies_[c.body2]);
    }
    exchange_.exchange_corrections(bodies_);
  }
  void product(const Eigen::VectorXd& x, Eigen::VectorXd& Nx) {
    apply(x);
    Nx.resize(x.size());
    for (std::size_t j = 0; j < contacts_.size(); ++j) {
      const SolverContact& c = contacts_[j];
      Nx.segment<3>(3 * static_cast<Eigen::Index>(j)) =
          c.frame.transpose() * relative_correction(c, bodies_[c.body1], bodies_[c.body2]);
    }
  }
  template <std::size_t K>
  void sum(std::array<double, K>& partial) {
    exchange_.sum(partial.data(), K);
  }

private:
  const std::vector<SolverContact>& contacts_;
  std::vector<BodyState>& bodies_;
  Exchange& exchange_;
  Eigen::VectorXd p_;
};

}  // namespace

ApgdResult apgd_step(const ApgdSettings& settings, const std::vector<SolverContact>& contacts,
                     std::vector<Vec3>& impulses, std::vector<BodyState>& bodies,
                     Exchange& exchange) {
  StepCcp problem(contacts, bodies, exchange);
  Eigen::VectorXd gamma(problem.size());
  for (std::size_t j = 0; j < impulses.size(); ++j)
    gamma.segment<3>(3 * static_cast<Eigen::Index>(j)) = impulses[j];
  const ApgdResult result = apgd(problem, settings, gamma);
  problem.apply(gamma);  // the best iterate's corrections, for the integration
  for (std::size_t j = 0; j < impulses.size(); ++j)
    impulses[j] = gamma.segment<3>(3 * static_cast<Eigen::Index>(j));
  return result;
}

}  // namespace granite::solver
