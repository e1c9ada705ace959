// The compatible pass of a step (Simulation::compatible_pass, see simulation.hpp): after the
// relaxation, before the integration, Olsen & Kamrin's compatible normal impulses (Eqs. 36–37,
// solver/compatible_forces.hpp) of the step's contacts. The bodies' states are only read: F̃ is
// their corrections M dv, I dw (complete on the owners after the relaxation's last exchange),
// and B, Bᵀ act on the operator's scratch bodies, so velocities and positions are exactly
// those of the plain step. Distributed: the scratch exchanges and the maxima and sums go
// through the step's exchange (solver/exchange.hpp), timed with the pass.
#include "granite/timestep/simulation.hpp"

namespace granite::timestep {

bool Simulation::compatible_pass(std::size_t owned) {
  compatible_impulses_.clear();
  const Parameters& p = parameters_;
  if (!p.compatible || (compatible_due_ && !compatible_due_(steps_ + 1))) return false;
  ScopedPhase t(timers_, Phase::compatible);
  std::vector<double> youngs(materials_.size());
  for (std::size_t m = 0; m < youngs.size(); ++m)
    youngs[m] = materials_[body::MaterialIndex(m)].youngs_modulus;
  const Eigen::VectorXd stiffness =
      solver::relative_stiffness(*p.compatible, contacts_, particles_, shapes_, globals_, youngs);
  // The plain step's normal impulses are a feasible start (Bᵀf_plain = F̃, f_plain ≥ 0).
  Eigen::VectorXd f(Eigen::Index(impulses_.size()));
  for (std::size_t j = 0; j < impulses_.size(); ++j) f[Eigen::Index(j)] = impulses_[j][0];
  compatible_result_ =
      solver::compatible_impulses(solver_contacts_, states_, *p.compatible, stiffness,
                                  p.compatible_settings, f, exchange(), owned, particles_.size());
  compatible_impulses_.assign(f.data(), f.data() + f.size());
  return true;
}

}  // namespace granite::timestep
