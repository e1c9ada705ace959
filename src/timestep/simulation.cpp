#include "granite/timestep/simulation.hpp"

#include "granite/core/error.hpp"
#include "granite/solver/relaxation.hpp"
#include "granite/timestep/integrator.hpp"

#include <algorithm>
#include <string>

namespace granite::timestep {

void Simulation::validate() const {
  const Parameters& p = parameters_;
  if (!(p.dt > 0.0)) throw InputError("time step dt must be > 0 s, got " + std::to_string(p.dt));
  if (!(p.contact_threshold >= 0.0))
    throw InputError("contact threshold must be >= 0 m, got " +
                     std::to_string(p.contact_threshold));
  if (!(p.error_reduction >= 0.0 && p.error_reduction <= 1.0))
    throw InputError("error reduction parameter epsilon must be in [0, 1], got " +
                     std::to_string(p.error_reduction));
  if (p.max_sweeps < 1)
    throw InputError("max sweeps must be >= 1, got " + std::to_string(p.max_sweeps));
  if (!(p.tolerance >= 0.0))
    throw InputError("relaxation tolerance must be >= 0, got " + std::to_string(p.tolerance));
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
  validate();
  const Parameters& p = parameters_;
  {
    ScopedPhase t(timers_, Phase::detection);
    detection_.detect(particles_, globals_, materials_, p.contact_threshold, contacts_);
  }
  {
    ScopedPhase t(timers_, Phase::setup);
    solver::predict_velocities(particles_, globals_, p.gravity, p.dt, states_);
    solver::setup_contacts(contacts_, particles_, states_, p.dt, p.error_reduction,
                           solver_contacts_);
    impulses_.assign(contacts_.size(), Vec3::Zero());
  }
  solver::RelaxationResult relaxation;
  {
    ScopedPhase t(timers_, Phase::relaxation);
    relaxation = solver::relax({p.model, p.max_sweeps, p.tolerance}, solver_contacts_,
                               impulses_, states_);
  }
  {
    ScopedPhase t(timers_, Phase::integration);
    integrate(particles_, globals_, states_, p.dt);
  }
  time_ += p.dt;
  ++steps_;

  ScopedPhase t(timers_, Phase::other);
  StepStatistics s;
  s.step = steps_;
  s.time = time_;
  s.particles = particles_.size();
  s.contacts = contacts_.size();
  s.sweeps = relaxation.sweeps;
  s.residual = relaxation.residual;
  s.converged = relaxation.converged;
  for (std::size_t j = 0; j < contacts_.size(); ++j) {
    s.max_penetration = std::max(s.max_penetration, -contacts_.gap[j]);
    s.normal_impulse_sum += impulses_[j][0];
    if (contacts_.involves_global(j)) s.global_normal_impulse_sum += impulses_[j][0];
  }
  s.kinetic_energy = particles_.total_kinetic_energy();
  stats_ = s;
  return stats_;
}

std::size_t Simulation::remove_particles(
    const std::function<bool(const body::Particles&, std::size_t)>& predicate) {
  const std::size_t removed =
      particles_.remove_if([&](std::size_t i) { return predicate(particles_, i); });
  if (removed > 0) {  // the last step's contact indices no longer match the particles
    contacts_.clear();
    impulses_.clear();
  }
  return removed;
}

} // namespace granite::timestep
