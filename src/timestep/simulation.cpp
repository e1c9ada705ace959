// The serial time step (see include/granite/timestep/simulation.hpp): parameter validation and
// the phases of step().
#include "granite/timestep/simulation.hpp"

#include "granite/body/locality_sort.hpp"
#include "granite/solver/method.hpp"
#include "granite/parallel/contact_ownership.hpp"
#include "granite/core/error.hpp"
#include "granite/solver/apgd_step.hpp"
#include "granite/solver/contact_problem_export.hpp"
#include "granite/solver/polyhedral_lcp.hpp"
#include "granite/solver/relaxation.hpp"
#include "granite/solver/surface_velocity.hpp"
#include "granite/timestep/integrator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace granite::timestep {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs a whole-step solve: the time its exchanges took (the exchange times itself) is booked as
// communication, the rest as relaxation.
template <class Solve>
auto timed_relaxation(PhaseTimers& timers, const solver::Exchange& exchange, Solve&& solve) {
  const double exchanged = exchange.seconds();
  const auto start = std::chrono::steady_clock::now();
  auto result = solve();
  const double exchange_seconds = exchange.seconds() - exchanged;
  timers.add(Phase::relaxation, seconds_since(start) - exchange_seconds);
  timers.add(Phase::communication, exchange_seconds);
  return result;
}
}  // namespace

void Simulation::validate() const {
  const Parameters& p = parameters_;
  if (!(p.dt > 0.0)) throw InputError("time step dt must be > 0 s, got " + std::to_string(p.dt));
  if (!(p.contact_threshold >= 0.0))
    throw InputError("contact threshold must be >= 0 m, got " +
                     std::to_string(p.contact_threshold));
  if (!(p.error_reduction >= 0.0 && p.error_reduction <= 1.0))
    throw InputError("error reduction parameter epsilon must be in [0, 1], got " +
                     std::to_string(p.error_reduction));
  if (!(p.skin >= 0.0))
    throw InputError("neighbour-list skin must be >= 0 m, got " + std::to_string(p.skin));
  if (p.rebuild_every < 0)
    throw InputError("neighbour-list rebuild interval must be >= 0 steps, got " +
                     std::to_string(p.rebuild_every));
  if (p.max_sweeps < 1)
    throw InputError("max sweeps must be >= 1, got " + std::to_string(p.max_sweeps));
  if (p.check_every < 0)
    throw InputError("check_every must be >= 0 sweeps, got " + std::to_string(p.check_every));
  if (!(p.tolerance >= 0.0))
    throw InputError("relaxation tolerance must be >= 0, got " + std::to_string(p.tolerance));
  if (const std::string why = solver::model_mismatch(p.method, p.model.model); !why.empty())
    throw InputError("solver.method " + why);
  if (p.method == solver::Method::lemke && p.lemke_max_contacts < 1)
    throw InputError("solver.lemke.max_contacts must be >= 1, got " +
                     std::to_string(p.lemke_max_contacts));
  if (p.compatible && p.model.model != contact::Model::frictionless)
    for (std::size_t m = 0; m < materials_.size(); ++m)
      if (materials_[body::MaterialIndex(m)].friction > 0.0)
        throw InputError("compatible contact forces are defined for frictionless contacts "
                         "(Olsen & Kamrin): they need contact.model frictionless or friction 0 "
                         "for every material, got contact.model " +
                         std::string(contact::model_name(p.model.model)) + " and material " +
                         std::to_string(m) + " with friction " +
                         std::to_string(materials_[body::MaterialIndex(m)].friction));
  if (materials_.has_rolling_resistance()) {
    if (const std::string why =
            solver::rolling_mismatch(p.method, p.model.model, p.compatible.has_value());
        !why.empty())
      throw InputError("rolling and spinning friction " + why);
  }
  if (!(p.warm_start >= 0.0 && p.warm_start <= 1.0))
    throw InputError("warm start fraction must be in [0, 1], got " + std::to_string(p.warm_start));
  if (!(p.relaxation_weight > 0.0 && p.relaxation_weight <= 1.0))
    throw InputError("relaxation weight must be in (0, 1], got " +
                     std::to_string(p.relaxation_weight));
  for (auto m : particles_.material)
    if (m >= materials_.size())
      throw InputError("a particle refers to material " + std::to_string(m) + " but only " +
                       std::to_string(materials_.size()) + " are defined");
  for (std::size_t k = 0; k < globals_.size(); ++k)
    if (globals_[k].material >= materials_.size())
      throw InputError("global body " + std::to_string(k) + " refers to material " +
                       std::to_string(globals_[k].material) + " but only " +
                       std::to_string(materials_.size()) + " are defined");
}

const StepStatistics& Simulation::step() {
  if (!validated_) {
    validate();
    validated_ = true;
  }
  // During the step owned_count() is what the synchronisation kept (also if a phase throws,
  // the flag is reset: between steps every particle is owned).
  struct Stepping {
    bool& flag;
    explicit Stepping(bool& f) : flag(f) { flag = true; }
    ~Stepping() { flag = false; }
  } stepping(stepping_);
  const std::size_t owned = synchronise();
  detect_contacts(owned);
  set_up_contacts(owned);
  const solver::RelaxationResult relaxation = relax_contacts(owned);
  const bool compatible = compatible_pass(owned);
  integrate_bodies();
  collect_statistics(relaxation, owned);
  if (compatible) {
    const solver::CompatibleResult& c = compatible_result_;
    stats_.compatible = true;
    stats_.compatible_converged = c.converged();
    stats_.compatible_outer_iterations = c.outer_iterations;
    stats_.compatible_inner_iterations = c.inner_iterations;
    stats_.compatible_violation = c.relative_violation;
    stats_.compatible_stationarity = c.stationarity;
  }
  if (record_contacts_) {
    record_contacts(contacts_, impulses_, particles_, parameters_.dt, contact_record_,
                    compatible ? &compatible_impulses_ : nullptr, rolling_blocks());
    if (compatible) {
      contact_record_.compatible_law = solver::contact_law_name(*parameters_.compatible);
      contact_record_.compatible_tolerance = parameters_.compatible_settings.tolerance;
      contact_record_.compatible_result = compatible_result_;
    }
  }
  end_step(owned);
  return stats_;
}

// Between steps every particle is owned (the domain drops the ghosts at the end of a step).
// With a skin the neighbour list survives deletions (remove_particles() keeps the index map)
// but not insertions.
std::size_t Simulation::synchronise() {
  const Parameters& p = parameters_;
  bool rebuild = true;
  if (p.skin > 0.0) {
    ScopedPhase t(timers_, Phase::detection);
    rebuild = neighbours_.wants_rebuild(particles_, p.skin, p.rebuild_every, steps_);
  }
  bool ghosts_deleted = false;
  if (p.skin > 0.0) {
    ScopedPhase t(timers_, Phase::communication);
    rebuild = domain().agree_on_rebuild(particles_, rebuild);
  }
  neighbours_.set_rebuilding(rebuild);
  if (rebuild && p.locality_sort) {  // every particle is owned here
    ScopedPhase t(timers_, Phase::detection);
    const double reach = 2.0 * particles_.max_radius() + p.contact_threshold + p.skin;
    // The overlapped sweep relaxes the contacts of the bodies near other ranks first: with
    // those bodies first in memory, in one run, instead of scattered through the order
    // (docs/solvers.md: 5-10 % of a sweep).
    std::vector<std::uint8_t> near;
    const bool first = p.overlapped_sweeps() && domain().mark_halo_bodies(particles_, near);
    body::sort_by_locality(particles_, particles_.size(), reach, first ? &near : nullptr);
  }
  {
    ScopedPhase t(timers_, Phase::communication);
    if (rebuild)
      owned_ = domain().synchronise(particles_);
    else if (const auto& restoring = neighbours_.restoring())
      owned_ = domain().restore_ghosts(particles_, restoring->ghost_width);
    else
      owned_ = domain().refresh_ghosts(particles_, neighbours_.deleted_map(),
                                       neighbours_.ghost_map(), ghosts_deleted);
  }
  {
    ScopedPhase t(timers_, Phase::detection);
    neighbours_.after_synchronise(owned_count(), ghosts_deleted);
  }
  return owned_count();
}

parallel::StepDomain& Simulation::domain() const {
  static parallel::LocalDomain local;  // stateless: shared by every Simulation without a domain
  return domain_ ? *domain_ : local;
}

Simulation::NeighbourState Simulation::neighbour_state() const {
  return neighbours_.restart_state(particles_, parameters_.skin, domain().ghost_width());
}

void Simulation::restore_neighbour_lists(const NeighbourState& state) {
  neighbours_.restore(state, parameters_.skin);
}

void Simulation::detect_contacts(std::size_t owned) {
  ScopedPhase t(timers_, Phase::detection);
  const Parameters& p = parameters_;
  if (p.skin > 0.0) {
    const collision::NeighbourList& list =
        neighbours_.list_for_step(particles_, owned, globals_, p.contact_threshold, p.skin, steps_);
    detection_.detect(list, particles_, globals_, shapes_, p.contact_threshold, contacts_);
  } else {
    detection_.detect(particles_, globals_, shapes_, p.contact_threshold, contacts_);
  }
  parallel::retain_responsible_contacts(contacts_, particles_, owned);
}

void Simulation::set_up_contacts(std::size_t owned) {
  {
    ScopedPhase t(timers_, Phase::setup);
    const Parameters& p = parameters_;
    solver::predict_velocities(particles_, globals_, p.gravity, p.dt, states_);
    solver::setup_contacts(contacts_, particles_, globals_, materials_, states_, p.dt,
                           p.error_reduction, solver_contacts_);
    impulses_.assign(contacts_.size(), Vec3::Zero());
    solver::setup_rolling(contacts_, particles_, globals_, materials_, shapes_, states_,
                          solver_contacts_, p.model.model == contact::Model::ccp, rolling_);
    solver::add_surface_velocities(globals_, particles_.size(), solver_contacts_, states_);
    solver::build_sweep_order(p.ordering, contacts_.point, p.gravity, p.ordering_seed, steps_,
                              order_);
    parallel::weigh_ghost_contacts(solver_contacts_, owned, particles_.size(), p.relaxation_weight);
  }
  if (contact_problem_observer_) contact_problem_observer_(solver_contacts_, states_);
}

solver::RelaxationResult Simulation::relax_contacts(std::size_t owned) {
  const Parameters& p = parameters_;
  if (p.method == solver::Method::apgd) return relax_contacts_apgd();
  if (p.method == solver::Method::lemke) return relax_contacts_lemke(owned);
  const solver::RelaxationSettings settings{p.model,          p.max_sweeps,  p.tolerance,
                                            p.convergence,    p.check_every, p.overlapped_sweeps(),
                                            relaxation_prior_};
  solver::Exchange& exchange = this->exchange();
  // Before the warm start, so that the first exchange carries the warm impulses' ghost
  // corrections to the owners like any other increment.
  exchange.reset_corrections(states_);
  return timed_relaxation(timers_, exchange, [&] {
    warm_start();
    const solver::RelaxationResult relaxation = solver::relax(
        settings, solver_contacts_, impulses_, states_, order_, exchange, rolling_blocks());
    relaxation_prior_ = relaxation.decay;
    remember_impulses();
    return relaxation;
  });
}

// APGD on the step's cone complementarity problem (solver/apgd_step.hpp): every product
// exchanges the ghost corrections and every trial point's scalars are one reduction, both
// through the step's exchange and timed as communication. The statistics' residual and error are the CCP
// error APGD stops on (for the ccp model the step's error is its own problem's, see fc3d_sums).
solver::RelaxationResult Simulation::relax_contacts_apgd() {
  const Parameters& p = parameters_;
  solver::ApgdSettings settings;
  settings.max_iterations = p.max_sweeps;
  settings.tolerance = p.tolerance;
  solver::Exchange& exchange = this->exchange();
  const solver::ApgdResult apgd = timed_relaxation(timers_, exchange, [&] {
    warm_start();  // fills impulses_ (APGD recomputes the corrections from them)
    const solver::ApgdResult r = solver::apgd_step(settings, solver_contacts_, impulses_, states_,
                                                   exchange, rolling_blocks());
    remember_impulses();
    return r;
  });
  solver::RelaxationResult result;
  result.sweeps = apgd.iterations;
  result.residual = apgd.error;
  result.fc3d = apgd.error;
  result.converged = apgd.converged;
  return result;
}

// Lemke's method on the step's LCP (29) (solver/polyhedral_lcp.hpp), assembled from the
// contacts as the FCLIB export does. One process and no periodic images: a run with more than
// one rank or a periodic axis is refused before it starts (config check_consistency,
// scenario/run.cpp), and a contact with a ghost here throws StepFailure (the LCP would take the
// image for a body of its own). No warm start (Lemke starts from its own basis). Anything but a
// verified solution throws StepFailure before the bodies move. The statistics' sweeps are Lemke's pivots; residual and fc3d are the fc3d error of the
// polyhedral solution against the circular cone.
solver::RelaxationResult Simulation::relax_contacts_lemke(std::size_t owned) {
  const Parameters& p = parameters_;
  if (solver_contacts_.size() > std::size_t(p.lemke_max_contacts))
    throw StepFailure(
        "solver.method lemke: the step has " + std::to_string(solver_contacts_.size()) +
        " contacts, more than solver.lemke.max_contacts = " + std::to_string(p.lemke_max_contacts) +
        " (Lemke's dense tableau is for small systems; use gauss_seidel)");
  const auto ghost = [&](std::uint32_t b) { return b >= owned && b < particles_.size(); };
  for (const solver::SolverContact& c : solver_contacts_)
    if (ghost(c.body1) || ghost(c.body2))
      throw StepFailure("solver.method lemke: a contact with a particle of another process or a "
                        "periodic image (one process, no periodic axes only)");
  solver::RelaxationResult result;
  {
    ScopedPhase t(timers_, Phase::relaxation);
    Eigen::SparseMatrix<double, Eigen::RowMajor> W;
    Eigen::VectorXd q, mu, r;
    solver::export_contact_problem(solver_contacts_, states_, W, q, mu);
    const solver::PolyhedralLcpResult lcp =
        solver::solve_polyhedral_lcp(W, q, mu, p.model.friction_directions, r);
    if (lcp.lemke.status != contact::LemkeStatus::solution) {
      char error[64];
      std::snprintf(error, sizeof error, "%.3g",
                    lcp.lemke.error / std::max(lcp.lemke.scale, 1e-300));
      throw StepFailure("Lemke's method on the step's LCP (29) (" +
                        std::to_string(solver_contacts_.size()) + " contacts, size " +
                        std::to_string(lcp.size) + ") ended with status " +
                        std::string(contact::lemke_status_name(lcp.lemke.status)) + " after " +
                        std::to_string(lcp.lemke.pivots) + " pivots (relative error " + error +
                        "): no verified solution");
    }
    for (std::size_t j = 0; j < impulses_.size(); ++j)
      impulses_[j] = r.segment<3>(Eigen::Index(3 * j));
    solver::apply_impulses(solver_contacts_, impulses_, states_);
    result.sweeps = lcp.lemke.pivots;
  }
  ScopedPhase t(timers_, Phase::relaxation);
  solver::ConvergenceMeasure m;
  m.fc3d = solver::fc3d_sums(solver_contacts_, impulses_, states_);
  solver::reduce(m, exchange());
  result.fc3d = result.residual = m.fc3d.error();
  result.converged = true;
  remember_impulses();
  return result;
}

void Simulation::warm_start() {
  if (parameters_.warm_start <= 0.0) return;
  const solver::ContactKeys keys(contacts_, particles_);
  // Contacts whose relaxing process changed take their history along.
  domain().hand_over_history(history_, keys, particles_, owned_);
  if (history_.size() == 0) return;
  solver::RollingBlocks* rolling = rolling_blocks();
  history_.warm_start(keys, solver_contacts_, parameters_.warm_start, impulses_, rolling, &states_);
  if (rolling != nullptr) solver::apply_torques(solver_contacts_, *rolling, states_);
}

void Simulation::remember_impulses() {
  if (parameters_.warm_start <= 0.0) {
    history_.clear();
    return;
  }
  history_.record(solver::ContactKeys(contacts_, particles_), solver_contacts_, impulses_,
                  rolling_blocks());
}

void Simulation::integrate_bodies() {
  {
    ScopedPhase t(timers_, Phase::integration);
    integrate(particles_, globals_, states_, parameters_.dt);
  }
  ++steps_;
}

void Simulation::collect_statistics(const solver::RelaxationResult& relaxation, std::size_t owned) {
  ScopedPhase t(timers_, Phase::other);
  StepStatistics s;
  s.step = steps_;
  s.time = time();
  s.particles = owned;
  s.contacts = contacts_.size();
  s.sweeps = relaxation.sweeps;
  s.convergence_checks = relaxation.checks;
  s.residual = relaxation.residual;
  s.fc3d_error = relaxation.fc3d;
  s.converged = relaxation.converged;
  s.failed_contacts = relaxation.failed_contacts;
  s.neighbour_rebuild = neighbours_.rebuilding();
  for (std::size_t j = 0; j < contacts_.size(); ++j) {
    s.max_penetration = std::max(s.max_penetration, -contacts_.gap[j]);
    s.normal_impulse_sum += impulses_[j][0];
    if (contacts_.involves_global(j)) s.global_normal_impulse_sum += impulses_[j][0];
  }
  for (std::size_t i = 0; i < owned; ++i) s.kinetic_energy += particles_.kinetic_energy(i);
  reduce(s, exchange());
  stats_ = s;
}

void Simulation::end_step(std::size_t owned) {
  ScopedPhase t(timers_, Phase::other);
  domain().end_step(particles_, owned);
}

std::size_t Simulation::remove_particles(
    const std::function<bool(const body::Particles&, std::size_t)>& predicate) {
  std::vector<char> gone(particles_.size(), 0);
  const std::size_t removed = particles_.remove_if([&](std::size_t i) {
    gone[i] = predicate(particles_, i) ? 1 : 0;
    return gone[i] != 0;
  });
  if (removed > 0 && parameters_.skin > 0.0) neighbours_.record_removal(gone);
  if (removed > 0) {  // the last step's contact indices no longer match the particles
    contacts_.clear();
    impulses_.clear();
    compatible_impulses_.clear();
  }
  return removed;
}

}  // namespace granite::timestep
