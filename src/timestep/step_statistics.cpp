// A step's statistics over the processes (see include/granite/timestep/step_statistics.hpp).
#include "granite/timestep/step_statistics.hpp"

namespace granite::timestep {

void reduce(StepStatistics& s, solver::Exchange& exchange) {
  // Counts travel as doubles: exact below 2^53.
  double counts[3] = {double(s.particles), double(s.contacts), double(s.failed_contacts)};
  exchange.sum(counts, 3);
  s.particles = std::size_t(counts[0]);
  s.contacts = std::size_t(counts[1]);
  s.failed_contacts = std::size_t(counts[2]);
  double sums[3] = {s.kinetic_energy, s.normal_impulse_sum, s.global_normal_impulse_sum};
  exchange.sum(sums, 3);
  s.kinetic_energy = sums[0];
  s.normal_impulse_sum = sums[1];
  s.global_normal_impulse_sum = sums[2];
  exchange.max(&s.max_penetration, 1);
  exchange.max(&s.residual, 1);  // local in fc3d mode
  double unconverged = s.converged ? 0.0 : 1.0;
  exchange.max(&unconverged, 1);
  s.converged = unconverged == 0.0;
}

}  // namespace granite::timestep
