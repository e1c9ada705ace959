#include "granite/solver/relaxation.hpp"

#include "granite/solver/check_schedule.hpp"

#include "granite/contact/max_dissipation_detail.hpp"
#include "granite/solver/contact_kinematics.hpp"
#include "granite/solver/rolling_ccp.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace granite::solver {

namespace {

constexpr double kTiny = 1e-300;

// `joint(j, b1, b2, impulse, max_change2, max_impulse2)` may take contact j over (true: it did
// the update, solver/rolling_ccp.hpp); without joint blocks it is `no_joint`, inlined away.
constexpr auto no_joint = [](std::size_t, BodyState&, BodyState&, Vec3&, double&, double&) {
  return false;
};

// Any model's single-contact solve, for the sweep below (mdp has its inlined form).
auto model_solve(const contact::ModelSettings& model) {
  return [&model](const SymmetricBlock& A, const contact::BlockReduction& r, const Vec3& b,
                  double mu) { return contact::solve(model, A.full(), r, b, mu); };
}

// What a sweep has done so far: max ‖Δλ_j‖², max ‖λ_j‖², contacts whose model failed.
struct Tally {
  double max_change2 = 0.0, max_impulse2 = 0.0;
  std::size_t failures = 0;
  double relative_change() const {
    return std::sqrt(max_change2) / std::max(std::sqrt(max_impulse2), kTiny);
  }
};

// The contacts at visiting positions [begin, end) of a sweep: position k is contact
// indices[k'] (k' = m - 1 - k backwards), or k' itself without indices.
struct Visit {
  const std::uint32_t* indices = nullptr;
  std::size_t m = 0;
  bool backward = false;
  std::size_t operator()(std::size_t k) const {
    const std::size_t position = backward ? m - 1 - k : k;
    return indices != nullptr ? indices[position] : position;
  }
};

template <bool kNormalRowAtZeroFriction, class Solve, class Joint>
void sweep(const contact::ModelSettings& model, const std::vector<SolverContact>& contacts,
           std::vector<Vec3>& impulses, std::vector<BodyState>& bodies, const Visit& visit,
           std::size_t begin, std::size_t end, Tally& tally, Solve&& solve, Joint&& joint) {
  double max_change2 = tally.max_change2, max_impulse2 = tally.max_impulse2;
  std::size_t failures = tally.failures;
  const bool skip_open = contact::zero_when_separating(model.model);
  for (std::size_t k = begin; k < end; ++k) {
    const std::size_t j = visit(k);
    const SolverContact& c = contacts[j];
    BodyState& b1 = bodies[c.body1];
    BodyState& b2 = bodies[c.body2];
    if (joint(j, b1, b2, impulses[j], max_change2, max_impulse2)) continue;
    const Vec3 old = impulses[j];
    const Vec3 velocity = relative_velocity(c, b1, b2);
    // An open contact (λ = 0) whose b_n < 0 stays open: λ and the bodies are unchanged, so the
    // tangential components and the model are not needed (about half the contacts of a flow).
    if (skip_open && old[0] == 0.0 && old[1] == 0.0 && old[2] == 0.0 &&
        -c.normal.dot(velocity) - c.gap_term < 0.0)
      continue;
    // μ = 0 under mdp (its structogram's first two branches, x = (max(b_n, 0)/A_nn, 0, 0)):
    // only the normal row of Eq. (5) is formed and n alone carries the impulse; bit-identical
    // to the general path below (the floor contacts of the channel). Its bookkeeping is scalar
    // and it leaves early: the general path's Vec3 tail is slower here (docs/performance.md).
    if (kNormalRowAtZeroFriction && c.mu == 0.0 && old[1] == 0.0 && old[2] == 0.0) {
      const double bn = c.A(0, 0) * old[0] - c.normal.dot(velocity) - c.gap_term;
      const double solved_n = bn < 0.0 ? 0.0 : bn / c.A(0, 0);
      double x_n = solved_n;
      if (c.weight != 1.0) x_n = old[0] + c.weight * (solved_n - old[0]);
      const double dn = x_n - old[0];
      impulses[j] = Vec3(x_n, 0.0, 0.0);
      if (dn != 0.0) apply_impulse(c, Vec3(c.normal * dn), b1, b2);
      max_change2 = std::max(max_change2, dn * dn);
      max_impulse2 = std::max(max_impulse2, x_n * x_n);
      continue;
    }
    // u in the contact frame; b = −(u without this contact's impulse) − g e_n (§3.1, Eq. 5).
    const Mat3 frame = c.frame();
    const Vec3 u = frame.transpose() * velocity;
    Vec3 b = c.A * old - u;
    b[0] -= c.gap_term;
    const contact::Impulse solved = solve(c.A, c.reduction, b, c.mu);
    failures += solved.kind == contact::ContactCase::failed ? 1 : 0;
    Vec3 x = solved.x;
    if (c.weight != 1.0) x = old + c.weight * (x - old);  // branch keeps w = 1 bit-exact
    const Vec3 change = x - old;
    impulses[j] = x;
    // Most contacts of a flow stay open (λ = 0 before and after): nothing to apply.
    if (change[0] != 0.0 || change[1] != 0.0 || change[2] != 0.0)
      apply_impulse(c, frame * change, b1, b2);
    max_change2 = std::max(max_change2, change.squaredNorm());
    max_impulse2 = std::max(max_impulse2, x.squaredNorm());
  }
  tally = {max_change2, max_impulse2, failures};
}

// Positions [begin, end) of a sweep without joint blocks, under any model.
void sweep_range(const contact::ModelSettings& model, const std::vector<SolverContact>& contacts,
                 std::vector<Vec3>& impulses, std::vector<BodyState>& bodies, const Visit& visit,
                 std::size_t begin, std::size_t end, Tally& tally) {
  // The mdp model's prologue (open, frictionless, sticking) is inlined into the loop: only a
  // sliding contact makes a call (docs/performance.md).
  if (model.model == contact::Model::mdp)
    sweep<true>(
        model, contacts, impulses, bodies, visit, begin, end, tally,
        [](const SymmetricBlock& A, const contact::BlockReduction& r, const Vec3& b, double mu) {
          return contact::max_dissipation_inline(A, r, b, mu);
        },
        no_joint);
  else
    sweep<false>(model, contacts, impulses, bodies, visit, begin, end, tally, model_solve(model),
                 no_joint);
}

Visit visit_of(const SweepOrder& order, std::size_t m, bool backward) {
  return {order.indices.empty() ? nullptr : order.indices.data(), m, backward};
}

}  // namespace

double relaxation_sweep(const contact::ModelSettings& model,
                        const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                        std::vector<BodyState>& bodies, const SweepOrder& order, bool backward,
                        std::size_t* failed) {
  Tally tally;
  const std::size_t m = contacts.size();
  sweep_range(model, contacts, impulses, bodies, visit_of(order, m, backward), 0, m, tally);
  if (failed) *failed = tally.failures;
  return tally.relative_change();
}

namespace {

// The sweep order with the contacts that touch a boundary body (Exchange::mark_boundary)
// first, each part in the order's own sequence, and where the boundary part ends. A backward
// sweep walks each part in reverse. Without boundary bodies the order is the given one.
struct OverlapOrder {
  std::vector<std::uint32_t> indices;
  std::size_t boundary = 0;  // contacts in the first part
};

OverlapOrder overlap_order(const std::vector<SolverContact>& contacts, const SweepOrder& order,
                           const std::vector<std::uint8_t>& boundary_body) {
  OverlapOrder o;
  const std::size_t m = contacts.size();
  const Visit visit = visit_of(order, m, false);
  o.indices.reserve(m);
  std::vector<std::uint32_t> interior;
  interior.reserve(m);
  for (std::size_t k = 0; k < m; ++k) {
    const std::uint32_t j = std::uint32_t(visit(k));
    const SolverContact& c = contacts[j];
    const bool touches = boundary_body[c.body1] != 0 || boundary_body[c.body2] != 0;
    (touches ? o.indices : interior).push_back(j);
  }
  o.boundary = o.indices.size();
  o.indices.insert(o.indices.end(), interior.begin(), interior.end());
  return o;
}

// One sweep in the overlap order: the boundary contacts, the ghosts' increments sent; half the
// interior, the owners' totals sent back; the other half, the ghosts' totals received.
double overlapped_sweep(const contact::ModelSettings& model,
                        const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                        std::vector<BodyState>& bodies, const OverlapOrder& order, bool backward,
                        Exchange& exchange, std::size_t* failed) {
  Tally tally;
  const std::size_t m = contacts.size(), b = order.boundary, half = (m - b) / 2;
  const Visit boundary{order.indices.data(), b, backward};
  const Visit interior{order.indices.data() + b, m - b, backward};
  sweep_range(model, contacts, impulses, bodies, boundary, 0, b, tally);
  exchange.send_increments(bodies);
  sweep_range(model, contacts, impulses, bodies, interior, 0, half, tally);
  exchange.return_totals(bodies);
  sweep_range(model, contacts, impulses, bodies, interior, half, m - b, tally);
  exchange.receive_totals(bodies);
  if (failed) *failed = tally.failures;
  return tally.relative_change();
}

// The ccp model with joint blocks (solver/rolling_ccp.hpp): a contact with a torque block is
// updated with its six unknowns at once, the others as in relaxation_sweep. Returns the
// relative impulse change; *torque_change the relative torque change.
double joint_sweep(const contact::ModelSettings& model, const std::vector<SolverContact>& contacts,
                   std::vector<Vec3>& impulses, std::vector<BodyState>& bodies,
                   const SweepOrder& order, bool backward, std::size_t* failed,
                   RollingBlocks& rolling, double& torque_change) {
  double max_torque_change2 = 0.0, max_torque2 = 0.0;
  Tally tally;
  const std::size_t m = contacts.size();
  sweep<false>(model, contacts, impulses, bodies, visit_of(order, m, backward), 0, m, tally,
               model_solve(model),
               [&](std::size_t j, BodyState& b1, BodyState& b2, Vec3& impulse, double& max_change2,
                   double& max_impulse2) {
                 const std::int32_t k = rolling.block_of[j];
                 if (k < 0) return false;
                 const JointChange d =
                     update_joint_block(contacts[j], rolling, std::size_t(k), impulse, b1, b2);
                 max_change2 = std::max(max_change2, d.impulse2);
                 max_impulse2 = std::max(max_impulse2, impulse.squaredNorm());
                 max_torque_change2 = std::max(max_torque_change2, d.torque2);
                 max_torque2 = std::max(max_torque2, rolling.torques[std::size_t(k)].squaredNorm());
                 return true;
               });
  if (failed) *failed = tally.failures;
  torque_change = std::sqrt(max_torque_change2) / std::max(std::sqrt(max_torque2), kTiny);
  return tally.relative_change();
}

}  // namespace

Fc3dSums fc3d_sums(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                   const std::vector<BodyState>& bodies, bool cone_complementarity,
                   const RollingBlocks* rolling, const double* known_q2) {
  Fc3dSums s;
  const bool joint = cone_complementarity && rolling != nullptr && !rolling->joint.empty();
  if (joint) add_joint_sums(contacts, impulses, *rolling, bodies, s);
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    if (joint && rolling->block_of[j] >= 0) continue;  // all six rows above
    const SolverContact& c = contacts[j];
    const BodyState& b1 = bodies[c.body1];
    const BodyState& b2 = bodies[c.body2];
    // FCLIB form u = W r + q: q from the predicted velocities, u with the corrections, both
    // with the gap term on the normal component (as solver::export_contact_problem). Q is
    // orthonormal, so ‖Qᵀw + g e_n‖ = ‖w + g n‖: the norms need no frame.
    const Vec3& n = c.normal;
    const Vec3 velocity = relative_velocity(c, b1, b2);
    if (known_q2 == nullptr) s.q2 += (predicted_velocity(c, b1, b2) + c.gap_term * n).squaredNorm();
    s.u2 += (velocity + c.gap_term * n).squaredNorm();
    s.r2 += impulses[j].squaredNorm();
    // An open contact (r = 0) that does not approach (u_n ≥ 0) has no fc3d residual: r − u −
    // μ‖u_T‖e_N lies in the polar cone, whose projection is 0. About half the contacts of a flow.
    if (!cone_complementarity && impulses[j].isZero(0.0) && n.dot(velocity) + c.gap_term >= 0.0)
      continue;
    Vec3 u = c.frame().transpose() * velocity;
    u[0] += c.gap_term;
    s.residual2 += cone_complementarity ? ccp_contact_residual2(impulses[j], u, c.mu)
                                        : fc3d_contact_residual2(impulses[j], u, c.mu);
  }
  if (known_q2 != nullptr) s.q2 = *known_q2;
  return s;
}

void reduce(ConvergenceMeasure& m, Exchange& exchange) {
  if (m.kind == Convergence::impulse_change) {
    exchange.max(&m.impulse_change, 1);
    return;
  }
  double sums[4] = {m.fc3d.residual2, m.fc3d.q2, m.fc3d.r2, m.fc3d.u2};
  exchange.sum(sums, 4);  // one allreduce for the four sums
  m.fc3d = {sums[0], sums[1], sums[2], sums[3]};
}

RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies, const SweepOrder& order, Exchange& exchange,
                       RollingBlocks* rolling) {
  RelaxationResult result;
  const bool rolls = rolling != nullptr && !rolling->empty();
  double torque_change = 0.0;
  result.converged = false;
  bool fc3d_current = false;
  const bool ccp = settings.model.model == contact::Model::ccp;  // its own error (fc3d_sums)
  const bool joint = rolls && !rolling->joint.empty();           // ccp's joint blocks
  // check_every 0: the fc3d measure (a pass over the contacts per test) and, on several ranks,
  // the impulse change (an allreduce per test) are tested where next_check_sweep predicts; on
  // one rank the impulse change is free to test after every sweep.
  const bool fc3d = settings.convergence == Convergence::fc3d;
  const bool predicted = settings.check_every == 0 && (fc3d || !exchange.one_rank());
  const int every = std::max(1, settings.check_every);
  int next_check = 1, previous_check = 0, first_check = 0;
  double previous_value = 0.0, first_value = 0.0;
  // This rank's ‖q‖², from the relaxation's first fc3d pass on (fc3d_sums' known_q2).
  std::optional<double> q2;
  const auto sums = [&] {
    Fc3dSums s = fc3d_sums(contacts, impulses, bodies, ccp, rolling, q2 ? &*q2 : nullptr);
    q2 = s.q2;
    return s;
  };
  // The overlapped exchange (solver.exchange): not with torque blocks, whose sweep follows
  // the impulses' and touches the boundary bodies after them.
  OverlapOrder overlap;
  bool overlapped = false;
  if (settings.overlap_exchange && !rolls) {
    std::vector<std::uint8_t> boundary(bodies.size(), 0);
    overlapped = exchange.mark_boundary(boundary);
    if (overlapped) overlap = overlap_order(contacts, order, boundary);
  }
  while (result.sweeps < settings.max_sweeps) {
    const bool backward = order.alternate && result.sweeps % 2 == 1;
    if (overlapped) {
      result.residual = overlapped_sweep(settings.model, contacts, impulses, bodies, overlap,
                                         backward, exchange, &result.failed_contacts);
    } else if (joint) {
      result.residual = joint_sweep(settings.model, contacts, impulses, bodies, order, backward,
                                    &result.failed_contacts, *rolling, torque_change);
    } else {
      result.residual = relaxation_sweep(settings.model, contacts, impulses, bodies, order,
                                         backward, &result.failed_contacts);
      if (rolls) torque_change = rolling_sweep(contacts, impulses, *rolling, bodies);
    }
    ++result.sweeps;
    fc3d_current = false;
    if (!overlapped) exchange.exchange_corrections(bodies);
    if (predicted ? result.sweeps < next_check : result.sweeps % every != 0) continue;
    ++result.checks;
    ConvergenceMeasure m;
    m.kind = settings.convergence;
    m.impulse_change = result.residual;
    if (m.kind == Convergence::fc3d) m.fc3d = sums();
    reduce(m, exchange);
    if (m.kind == Convergence::fc3d) {
      result.fc3d = m.fc3d.error();
      fc3d_current = true;
    } else {
      result.residual = m.impulse_change;
    }
    // The torque blocks' change, combined over ranks only where some contact rolls (every
    // rank takes the same branch: rolling resistance is a material property).
    if (rolling != nullptr) exchange.max(&torque_change, 1);
    if (m.value() < settings.tolerance && torque_change < settings.tolerance) {
      result.converged = true;
      break;
    }
    if (predicted) {
      const double value = std::max(m.value(), torque_change);
      next_check =
          previous_check == 0
              ? next_check_sweep(result.sweeps, value, settings.prior.decay, settings.prior.span,
                                 settings.tolerance, settings.max_sweeps)
              : next_check_sweep(result.sweeps, value, previous_check, previous_value,
                                 settings.tolerance, settings.max_sweeps);
      if (first_check == 0) first_check = result.sweeps, first_value = value;
      previous_check = result.sweeps;
      previous_value = value;
    }
  }
  if (!fc3d_current) {
    ConvergenceMeasure m;
    m.fc3d = sums();
    reduce(m, exchange);
    result.fc3d = m.fc3d.error();
    if (predicted && fc3d) previous_check = result.sweeps, previous_value = result.fc3d;
  }
  // The decay between the first test and the last, for the next relaxation's schedule.
  if (predicted && first_check > 0 && previous_check > first_check && first_value > 0.0 &&
      previous_value > 0.0) {
    result.decay.span = previous_check - first_check;
    result.decay.decay = std::pow(previous_value / first_value, 1.0 / result.decay.span);
  }
  return result;
}

RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies, const SweepOrder& order) {
  if (contacts.empty()) return RelaxationResult{};
  return relax(settings, contacts, impulses, bodies, order, local_exchange());
}

void apply_impulses(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                    std::vector<BodyState>& bodies) {
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const SolverContact& c = contacts[j];
    apply_impulse(c, c.frame() * impulses[j], bodies[c.body1], bodies[c.body2]);
  }
}

}  // namespace granite::solver
