#include "granite/solver/compatible_forces.hpp"

#include "granite/collision/shape_contacts.hpp"
#include "granite/solver/contact_kinematics.hpp"

#include <cmath>
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
                                   const body::Particles& particles, const body::ShapeTable& shapes,
                                   const body::GlobalBodies& globals,
                                   const std::vector<double>& youngs_by_material) {
  Eigen::VectorXd k(Eigen::Index(contacts.size()));
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const auto b1 = contacts.body1[j], b2 = contacts.body2[j];
    const bool wall = contacts.involves_global(j);
    const double e1 = youngs_by_material[particles.material[b1]];
    const double e2 = youngs_by_material[wall ? globals[contacts.global_index(j)].material
                                              : particles.material[b2]];
    if (law == ContactLaw::hooke) {
      k[Eigen::Index(j)] = hooke_stiffness(e1, e2);
      continue;
    }
    const double r1 = collision::surface_radius(particles, shapes, b1, contacts.witness1(j));
    const double r2 = wall ? std::numeric_limits<double>::infinity()
                           : collision::surface_radius(particles, shapes, b2, contacts.witness2(j));
    k[Eigen::Index(j)] = hertz_stiffness(e1, e2, r1, r2);
  }
  return k;
}

StepCompatibleOperator::StepCompatibleOperator(const std::vector<SolverContact>& contacts,
                                               const std::vector<BodyState>& bodies,
                                               Exchange& exchange, std::size_t ghost_begin,
                                               std::size_t ghost_end) :
    contacts_(&contacts),
    exchange_(&exchange), body_rows_(bodies.size()), scratch_(bodies.size()) {
  int next = 0;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    scratch_[b] = BodyState{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1.0, 1.0};
    if (b >= ghost_begin && b < ghost_end) continue;  // the owner holds the rows
    auto& rows = body_rows_[b];
    const BodyState& body = bodies[b];
    if (body.inverse_mass > 0.0) {
      rows.force = next;
      next += 3;
    }
    const double inverse_inertia = body.inverse_inertia().trace() / 3.0;
    if (body.inverse_inertia().cwiseAbs().maxCoeff() > 0.0) {
      rows.moment = next;
      next += 3;
      // ℓ² = (5/2) I/m: the radius of a solid sphere (I = (2/5) m r²), from the mean inverse
      // moment of inertia (trace / 3, frame-independent).
      const double length2 = body.inverse_mass > 0.0 && inverse_inertia > 0.0
                                 ? 2.5 * body.inverse_mass / inverse_inertia
                                 : 1.0;
      rows.moment_scale = 1.0 / std::sqrt(length2);
    }
  }
  rows_ = next;
}

void StepCompatibleOperator::clear_scratch() {
  for (BodyState& b : scratch_) b.dv.setZero(), b.dw.setZero();
}

void StepCompatibleOperator::exchange_scratch() { exchange_->exchange_sums(scratch_); }

void StepCompatibleOperator::transpose(const Eigen::VectorXd& f, Eigen::VectorXd& r) {
  // Unit inverse mass and inertia: apply_impulse sums forces into dv and moments into dw. The
  // ghosts' sums are increments over zero, which the exchange adds to their owners.
  clear_scratch();
  for (std::size_t i = 0; i < contacts_->size(); ++i) {
    const auto& c = (*contacts_)[i];
    apply_impulse(c, f[Eigen::Index(i)] * c.normal, scratch_[c.body1], scratch_[c.body2]);
  }
  exchange_scratch();
  r.resize(rows_);
  for (std::size_t b = 0; b < body_rows_.size(); ++b) {
    const auto& rows = body_rows_[b];
    if (rows.force >= 0) r.segment<3>(rows.force) = scratch_[b].dv;
    if (rows.moment >= 0) r.segment<3>(rows.moment) = rows.moment_scale * scratch_[b].dw;
  }
}

void StepCompatibleOperator::apply(const Eigen::VectorXd& y, Eigen::VectorXd& g) {
  // The owners' rows as a force-like dv and a moment-like dw (unscaled: (r × n)·(s y) is the
  // scaled row's entry), sent to the ghosts by the exchange (ghost increments are zero).
  clear_scratch();
  for (std::size_t b = 0; b < body_rows_.size(); ++b) {
    const auto& rows = body_rows_[b];
    if (rows.force >= 0) scratch_[b].dv = y.segment<3>(rows.force);
    if (rows.moment >= 0) scratch_[b].dw = rows.moment_scale * y.segment<3>(rows.moment);
  }
  exchange_scratch();
  g.resize(Eigen::Index(contacts_->size()));
  for (std::size_t i = 0; i < contacts_->size(); ++i) {
    const auto& c = (*contacts_)[i];
    // n·(dv1 + dw1 × r1 − dv2 − dw2 × r2) = n·y_F1 + (r1 × n)·y_M1 − (the same for body 2)
    g[Eigen::Index(i)] = c.normal.dot(relative_correction(c, scratch_[c.body1], scratch_[c.body2]));
  }
}

Eigen::VectorXd
StepCompatibleOperator::net_contact_impulse(const std::vector<BodyState>& bodies) const {
  Eigen::VectorXd r = Eigen::VectorXd::Zero(rows_);
  for (std::size_t b = 0; b < body_rows_.size(); ++b) {
    const auto& rows = body_rows_[b];
    if (rows.force >= 0) r.segment<3>(rows.force) = bodies[b].dv / bodies[b].inverse_mass;
    if (rows.moment >= 0)
      r.segment<3>(rows.moment) =
          rows.moment_scale * bodies[b].inverse_inertia().inverse() * bodies[b].dw;
  }
  return r;
}

CompatibleResult compatible_impulses(const std::vector<SolverContact>& contacts,
                                     const std::vector<BodyState>& bodies, ContactLaw law,
                                     const Eigen::VectorXd& stiffness,
                                     const CompatibleSettings& settings,
                                     Eigen::VectorXd& normal_impulses, Exchange& exchange,
                                     std::size_t ghost_begin, std::size_t ghost_end) {
  StepCompatibleOperator op(contacts, bodies, exchange, ghost_begin, ghost_end);
  const Eigen::VectorXd net = op.net_contact_impulse(bodies);
  return compatible_forces(op, law, stiffness, net, settings, normal_impulses);
}

}  // namespace granite::solver
