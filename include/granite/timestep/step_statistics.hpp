#pragma once
// What one step reports (thermo output, tests, benchmarks).
#include "granite/solver/exchange.hpp"

#include <cstddef>
#include <cstdint>

namespace granite::timestep {

struct StepStatistics {
  std::int64_t step = 0;  // number of completed steps after this one
  double time = 0.0;      // simulated time at the end of the step (s)
  std::size_t particles = 0;
  std::size_t contacts = 0;  // detected contacts, including open ones within the threshold
  int sweeps = 0;
  int convergence_checks = 0;  // convergence tests of the relaxation (solver.check_every)
  double residual = 0.0;       // relative impulse change of the last sweep
  double fc3d_error = 0.0;     // Siconos error of the step's contact problem after the relaxation
  bool converged = true;
  // Contacts whose single-contact model failed in the last sweep (solver::RelaxationResult)
  std::size_t failed_contacts = 0;
  bool neighbour_rebuild = true;  // the neighbour lists (and ghosts) were rebuilt this step
  double max_penetration = 0.0;   // max(0, −min ξ) over the step's contacts, before the step (m)
  double kinetic_energy = 0.0;    // translational + rotational, after the step (J)
  double normal_impulse_sum = 0.0;         // Σ_j λ_n over all contacts (N s)
  double global_normal_impulse_sum = 0.0;  // Σ λ_n over contacts with global bodies (N s)
  // The step's compatible pass (Simulation::compatible_impulses), if it had one; its figures
  // are global (the same on every process).
  bool compatible = false;
  bool compatible_converged = true;
  int compatible_outer_iterations = 0;
  int compatible_inner_iterations = 0;
  double compatible_violation = 0.0;     // ‖Bᵀf − F̃‖∞ / ‖F̃‖∞
  double compatible_stationarity = 0.0;  // projected gradient of the scaled problem
};

/// This process's statistics combined with the other processes' through the step's exchange:
/// counts and sums summed, the penetration and the residual maximised, converged on every
/// process. The compatible figures are global already.
void reduce(StepStatistics& stats, solver::Exchange& exchange);

}  // namespace granite::timestep
