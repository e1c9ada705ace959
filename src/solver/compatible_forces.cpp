#include "granite/solver/compatible_forces.hpp"

#include <limits>

namespace granite::solver {

std::string to_string(CompatibleStatus status) {
  switch (status) {
  case CompatibleStatus::converged:
    return "converged";
  case CompatibleStatus::max_outer_iterations:
    return "not converged (maximum outer iterations)";
  case CompatibleStatus::infeasible:
    return "infeasible (a net contact force but no contact to carry it)";
  }
  return "unknown";
}

Eigen::VectorXd relative_stiffness(ContactLaw law, const collision::ContactList& contacts,
                                   const body::Particles& particles,
                                   const body::GlobalBodies& globals,
                                   const std::vector<double>& youngs_by_material) {
  Eigen::VectorXd k(Eigen::Index(contacts.size()));
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const auto b1 = contacts.body1[j], b2 = contacts.body2[j];
    const bool wall = contacts.involves_global(j);
    const double e1 = youngs_by_material[particles.material[b1]];
    const double e2 = youngs_by_material[wall ? globals[contacts.global_index(j)].material
                                              : particles.material[b2]];
    const double r2 = wall ? std::numeric_limits<double>::infinity() : particles.radius[b2];
    k[Eigen::Index(j)] = law == ContactLaw::hooke
                             ? hooke_stiffness(e1, e2)
                             : hertz_stiffness(e1, e2, particles.radius[b1], r2);
  }
  return k;
}

SerialCompatibleOperator::SerialCompatibleOperator(const std::vector<SolverContact>& contacts,
                                                   const std::vector<BodyState>& bodies) :
    contacts_(&contacts),
    body_rows_(bodies.size()) {
  std::vector<double> lever(bodies.size(), 0.0);
  for (const auto& c : contacts) {
    lever[c.body1] = std::max(lever[c.body1], c.r1.norm());
    lever[c.body2] = std::max(lever[c.body2], c.r2.norm());
  }
  int next = 0;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    auto& rows = body_rows_[b];
    if (bodies[b].inverse_mass > 0.0) {
      rows.force = next;
      next += 3;
    }
    if (bodies[b].inverse_inertia.cwiseAbs().maxCoeff() > 0.0) {
      rows.moment = next;
      next += 3;
      rows.moment_scale = lever[b] > 0.0 ? 1.0 / lever[b] : 1.0;
    }
  }
  rows_ = next;
}

void SerialCompatibleOperator::transpose(const Eigen::VectorXd& f, Eigen::VectorXd& r) const {
  r.setZero(rows_);
  const auto add = [&](const BodyRows& rows, const Vec3& force, const Vec3& lever) {
    if (rows.force >= 0) r.segment<3>(rows.force) += force;
    if (rows.moment >= 0) r.segment<3>(rows.moment) += rows.moment_scale * lever.cross(force);
  };
  for (std::size_t i = 0; i < contacts_->size(); ++i) {
    const auto& c = (*contacts_)[i];
    const Vec3 force = f[Eigen::Index(i)] * c.frame.col(0);
    add(body_rows_[c.body1], force, c.r1);
    add(body_rows_[c.body2], -force, c.r2);
  }
}

void SerialCompatibleOperator::apply(const Eigen::VectorXd& y, Eigen::VectorXd& g) const {
  g.resize(Eigen::Index(contacts_->size()));
  const auto read = [&](const BodyRows& rows, const Vec3& n, const Vec3& lever) {
    double v = 0.0;
    if (rows.force >= 0) v += n.dot(y.segment<3>(rows.force));
    if (rows.moment >= 0) v += rows.moment_scale * lever.cross(n).dot(y.segment<3>(rows.moment));
    return v;
  };
  for (std::size_t i = 0; i < contacts_->size(); ++i) {
    const auto& c = (*contacts_)[i];
    const Vec3 n = c.frame.col(0);
    g[Eigen::Index(i)] = read(body_rows_[c.body1], n, c.r1) - read(body_rows_[c.body2], n, c.r2);
  }
}

Eigen::VectorXd
SerialCompatibleOperator::net_contact_impulse(const std::vector<BodyState>& bodies) const {
  Eigen::VectorXd r = Eigen::VectorXd::Zero(rows_);
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const auto& rows = body_rows_[b];
    if (rows.force >= 0) r.segment<3>(rows.force) = bodies[b].dv / bodies[b].inverse_mass;
    if (rows.moment >= 0)
      r.segment<3>(rows.moment) =
          rows.moment_scale * bodies[b].inverse_inertia.inverse() * bodies[b].dw;
  }
  return r;
}

CompatibleResult compatible_impulses(const std::vector<SolverContact>& contacts,
                                     const std::vector<BodyState>& bodies, ContactLaw law,
                                     const Eigen::VectorXd& stiffness,
                                     const CompatibleSettings& settings,
                                     Eigen::VectorXd& normal_impulses) {
  SerialCompatibleOperator op(contacts, bodies);
  const Eigen::VectorXd net = op.net_contact_impulse(bodies);
  return compatible_forces(op, law, stiffness, net, settings, normal_impulses);
}

}  // namespace granite::solver
