#pragma once
// The single-process step loop: detection -> setup -> relaxation -> integration, each phase
// timed in PhaseTimers.
//
// Usage:
//   granite::timestep::Simulation sim;
//   auto glass = sim.materials().add({2650.0, 0.5});            // density, μ
//   sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, glass);
//   sim.particles().add_sphere(sim.materials(), glass, {0, 0, 1e-3}, 0.235e-3);
//   auto& p = sim.parameters(); p.dt = 1e-5; p.gravity = {0, 0, -9.81}; p.model.model = Model::mdp;
//   for (int s = 0; s < 1000; ++s) { const auto& st = sim.step(); ... }
//   std::cout << timestep::timing_breakdown(sim.timers());
//
// Everything is owned by the Simulation and accessible by reference between steps: add or
// remove particles, move the piston (globals().move(i, d)), change parameters (then call
// validate(): step() checks them only on the first step).
#include "granite/body/global_body.hpp"
#include "granite/body/material.hpp"
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/collision/detection.hpp"
#include "granite/collision/neighbour_tracking.hpp"
#include "granite/contact/single_contact.hpp"
#include "granite/core/error.hpp"
#include "granite/core/timer.hpp"
#include "granite/parallel/step_domain.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/compatible_forces.hpp"
#include "granite/solver/contact_history.hpp"
#include "granite/solver/contact_setup.hpp"
#include "granite/solver/exchange.hpp"
#include "granite/solver/relaxation.hpp"
#include "granite/timestep/contact_record.hpp"
#include "granite/timestep/step_statistics.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace granite::timestep {

/// A step whose contact problem has no verified answer (solver.method lemke: Lemke's status is
/// not `solution`, or the step has more contacts than the solver takes). The bodies are not
/// advanced; the run stops with this line (exit 1).
class StepFailure : public RunFailure {
public:
  using RunFailure::RunFailure;
};

struct Parameters {
  double dt = 1e-4;                // s, > 0
  Vec3 gravity{0.0, 0.0, -9.81};   // m/s²
  double contact_threshold = 0.0;  // m, >= 0: contacts with gap < threshold are detected
  // Neighbour lists (collision/neighbour_list.hpp): 0 searches every step in full; > 0 (m)
  // searches candidates within threshold + skin, rebuilt when a particle has moved more than
  // skin/2, particles were inserted or deleted, request_rebuild() was called, or every
  // rebuild_every steps (0: no such limit).
  double skin = 0.0;
  int rebuild_every = 0;
  // Locality (body/locality_sort.hpp): on every step that rebuilds the lists and ghosts (every
  // step with skin 0), before the migration, the owned particles are sorted along the Z-order
  // curve over cells of 2 r_max + threshold + skin, so that the halo plan, the lists and the
  // contacts follow that order; with overlapped_sweeps(), the bodies the halo sends first. A
  // caller that indexes particles across steps turns it off.
  bool locality_sort = true;
  double error_reduction = 0.2;    // ε ∈ [0, 1]: fraction of a penetration removed per step
  contact::ModelSettings model{};  // single-contact model (default mdp)
  int max_sweeps = 100;            // >= 1
  double tolerance = 1e-4;         // value of the convergence measure that ends the relaxation
  solver::Convergence convergence = solver::Convergence::fc3d;
  int check_every = 0;  // sweeps between convergence tests (one reduction each); 0: predicted
  // Across ranks, each sweep's exchange under way while the interior contacts are relaxed
  // (solver::RelaxationSettings::overlap_exchange).
  bool overlap_exchange = true;
  solver::Ordering ordering = solver::Ordering::detection;  // solver/sweep_order.hpp
  std::uint64_t ordering_seed = 1;                          // for Ordering::random (run.seed)
  // Warm start: each contact starts from this fraction ([0, 1]) of its previous impulse
  // (solver/contact_history.hpp); 0 = from zero impulses.
  double warm_start = 1.0;
  // ω ∈ (0, 1]: the impulse-update weight of contacts with a ghost body, the Jacobi part of the
  // hybrid relaxation (parallel/contact_ownership.hpp; no effect on one rank).
  double relaxation_weight = 1.0;
  // Gauss–Seidel, or APGD on the CCP (requires model ccp; then max_sweeps counts iterations and
  // tolerance is the CCP error).
  solver::Method method = solver::Method::gauss_seidel;
  // Method lemke: a step with more contacts than this throws StepFailure (the dense LCP has
  // (k + 2) unknowns per contact).
  int lemke_max_contacts = 200;
  // Compatible contact forces (Olsen & Kamrin; solver/compatible_forces.hpp) after the
  // relaxation of the steps Simulation::set_compatible_steps selects (every step by default):
  // the contact law, or none. Frictionless contacts only: contact.model frictionless, or every
  // material's friction 0 (validate() refuses anything else). Relative stiffness from the
  // materials' Young's moduli.
  std::optional<solver::ContactLaw> compatible;
  solver::CompatibleSettings compatible_settings{};

  /// Whether the relaxation overlaps its exchange: only Gauss–Seidel sweeps (APGD and Lemke
  /// exchange whole products).
  bool overlapped_sweeps() const {
    return overlap_exchange && method == solver::Method::gauss_seidel;
  }
};

class Simulation {
public:
  Simulation() = default;
  explicit Simulation(const Parameters& parameters) : parameters_(parameters) {}

  Parameters& parameters() { return parameters_; }
  const Parameters& parameters() const { return parameters_; }
  body::Particles& particles() { return particles_; }
  const body::Particles& particles() const { return particles_; }
  body::GlobalBodies& globals() { return globals_; }
  const body::GlobalBodies& globals() const { return globals_; }
  body::MaterialTable& materials() { return materials_; }
  const body::MaterialTable& materials() const { return materials_; }
  /// The particles' shapes (body/shape.hpp); empty when every particle is a sphere.
  body::ShapeTable& shapes() { return shapes_; }
  const body::ShapeTable& shapes() const { return shapes_; }

  /// Advances by one step of parameters().dt. The first step (and the first after
  /// set_domain()) calls validate() and so throws InputError on invalid parameters.
  const StepStatistics& step();
  /// Throws InputError if a parameter is out of range or a particle or global body refers to
  /// an undefined material. step() checks only once, so call validate() after changing
  /// parameters() between steps, or after adding particles with Particles::add (add_sphere
  /// checks the material itself).
  void validate() const;
  /// Called after contact setup, before the relaxation, with the step's contacts and the
  /// bodies' predicted states (no corrections yet), e.g. to export the contact problem.
  using ContactProblemObserver = std::function<void(const std::vector<solver::SolverContact>&,
                                                    const std::vector<solver::BodyState>&)>;
  void set_contact_problem_observer(ContactProblemObserver observer) {
    contact_problem_observer_ = std::move(observer);
  }
  /// The step's domain (parallel/step_domain.hpp): a distributed run's DistributedDomain,
  /// which holds the communicator and the halo plan, or with nullptr the one-rank LocalDomain;
  /// not owned by the Simulation. The next step() validates again (the domain is set once the
  /// simulation is assembled).
  void set_domain(parallel::StepDomain* domain) {
    domain_ = domain;
    validated_ = false;
  }
  /// Particles [0, owned_count()) are owned by this process: during a step those the
  /// synchronisation kept, between steps all of them (the ghosts are dropped at its end).
  std::size_t owned_count() const { return stepping_ ? owned_ : particles_.size(); }

  /// With a skin: rebuild the neighbour lists (and ghosts) at the next step.
  void request_rebuild() { neighbours_.request_rebuild(); }
  /// What a checkpoint keeps of the neighbour lists (with the particles' neighbour_reference):
  /// the step of the last build, its ghost width, and whether the lists are still valid for
  /// the present particles on this process (not stale; deletions are fine).
  using NeighbourState = collision::NeighbourTracking::RestartState;
  NeighbourState neighbour_state() const;
  /// A restart on the same decomposition from a state with valid lists: the next step decides
  /// from the references whether to rebuild, as the uninterrupted run does; if not, it takes
  /// back the ghosts and lists of the last build (parallel::StepDomain::restore_ghosts, lists built at
  /// the references), so the continuation is bit for bit the uninterrupted run.
  void restore_neighbour_lists(const NeighbourState& state);
  /// The state restore_neighbour_lists() took, until the next step uses it.
  const std::optional<NeighbourState>& restoring_neighbour_lists() const {
    return neighbours_.restoring();
  }
  /// Neighbour-list builds so far (with a skin; every step without).
  std::uint64_t rebuilds() const { return neighbours_.rebuilds(); }
  /// The contact detection (its counters).
  const collision::ContactDetection& detection() const { return detection_; }

  /// Statistics of the last step (zeros before the first).
  const StepStatistics& statistics() const { return stats_; }

  /// Removes particles for which predicate(particles, index) is true (e.g. outflow); returns
  /// the number removed. Call between steps.
  std::size_t
  remove_particles(const std::function<bool(const body::Particles&, std::size_t)>& predicate);

  /// Simulated time, steps() × dt: derived from the step count rather than accumulated, so
  /// output times are exact multiples of dt (no drift from repeated addition).
  double time() const { return time_at(steps_); }
  /// The simulated time after `step` steps of parameters().dt.
  double time_at(std::int64_t step) const { return double(step) * parameters_.dt; }
  std::int64_t steps() const { return steps_; }
  /// Sets the step counter (restart from a checkpoint); the time follows from it.
  void set_clock(std::int64_t steps) { steps_ = steps; }
  const PhaseTimers& timers() const { return timers_; }
  PhaseTimers& timers() { return timers_; }

  /// The last step's contacts and their contact-frame impulses (λ_n, λ_t, λ_o) in N s, indexed
  /// alike. Valid until the next step() or particle removal.
  const collision::ContactList& contacts() const { return contacts_; }
  const std::vector<Vec3>& impulses() const { return impulses_; }
  /// The impulses kept for the next step's warm start (empty when parameters().warm_start is
  /// 0); part of the restart state.
  solver::ContactHistory& contact_history() { return history_; }
  const solver::ContactHistory& contact_history() const { return history_; }
  /// The last relaxation's decay of its convergence measure (RelaxationResult::decay), which
  /// schedules the next relaxation's tests; part of the restart state.
  solver::ConvergenceDecay& relaxation_prior() { return relaxation_prior_; }
  const solver::ConvergenceDecay& relaxation_prior() const { return relaxation_prior_; }
  /// With `on`, every step copies its contacts into contact_record() before the ghosts are
  /// dropped (for the snapshots' /contacts group); off by default. The record stays valid
  /// across particle removal until the next step.
  void set_record_contacts(bool on) { record_contacts_ = on; }
  const ContactRecord& contact_record() const { return contact_record_; }

  /// With parameters().compatible set: which steps run the compatible pass, by the step number
  /// after the step (StepStatistics::step); every step without a selector. The same answer on
  /// every process (the pass is collective).
  void set_compatible_steps(std::function<bool(std::int64_t)> due) {
    compatible_due_ = std::move(due);
  }
  /// The last step's compatible normal impulses (N s, one per contact, indexed like
  /// contacts()), empty if the last step had no compatible pass; the pass's figures are in
  /// statistics() and compatible_result(). Velocities and positions are never changed by it.
  const std::vector<double>& compatible_impulses() const { return compatible_impulses_; }
  const solver::CompatibleResult& compatible_result() const { return compatible_result_; }

private:
  // The phases of step(), in order, each timed under its core/timer.hpp Phase (the exchanges
  // between relaxation sweeps as communication).
  std::size_t synchronise();
  void detect_contacts(std::size_t owned);
  void set_up_contacts(std::size_t owned);
  solver::RelaxationResult relax_contacts(std::size_t owned);
  solver::RelaxationResult relax_contacts_apgd();
  solver::RelaxationResult relax_contacts_lemke(std::size_t owned);
  void warm_start();         // the history's impulses applied to the bodies (warm_start > 0)
  void remember_impulses();  // the relaxed impulses into the history (warm_start > 0)
  bool compatible_pass(std::size_t owned);  // true if the step had one (compatible_step.cpp)
  void integrate_bodies();
  void collect_statistics(const solver::RelaxationResult& relaxation, std::size_t owned);
  void end_step(std::size_t owned);
  /// The domain given, or the one-rank LocalDomain: one code path.
  parallel::StepDomain& domain() const;
  /// The exchange of the step's solvers.
  solver::Exchange& exchange() const { return domain().exchange(); }

  Parameters parameters_{};
  body::Particles particles_;
  body::GlobalBodies globals_;
  body::MaterialTable materials_;
  body::ShapeTable shapes_;

  collision::ContactDetection detection_;
  collision::NeighbourTracking neighbours_;  // the lists and their policy, with a skin
  collision::ContactList contacts_;
  solver::BodyStates states_;  // and the tensors of the bodies that are not isotropic
  std::vector<solver::SolverContact> solver_contacts_;
  solver::SweepOrder order_;
  solver::ContactHistory history_;  // the last relaxation's impulses (warm start)
  solver::ConvergenceDecay relaxation_prior_;
  std::vector<Vec3> impulses_;
  solver::RollingBlocks rolling_;  // torque blocks of rolling/spinning resistance (this step)
  /// The step's torque blocks, or nullptr without rolling or spinning resistance (the same on
  /// every rank: a property of the materials).
  solver::RollingBlocks* rolling_blocks() {
    return materials_.has_rolling_resistance() ? &rolling_ : nullptr;
  }
  bool record_contacts_ = false;
  ContactRecord contact_record_;
  std::function<bool(std::int64_t)> compatible_due_;
  std::vector<double> compatible_impulses_;
  solver::CompatibleResult compatible_result_;

  parallel::StepDomain* domain_ = nullptr;  // none: LocalDomain
  bool validated_ = false;
  bool stepping_ = false;  // inside step(): owned_ holds
  std::size_t owned_ = 0;
  ContactProblemObserver contact_problem_observer_;

  PhaseTimers timers_;
  StepStatistics stats_;
  std::int64_t steps_ = 0;
};

}  // namespace granite::timestep
