// A step's statistics over the processes (see include/granite/timestep/step_statistics.hpp).
#include "granite/timestep/step_statistics.hpp"

namespace granite::timestep {

void reduce(StepStatistics& s, solver::Exchange& exchange) {
  // One sum and one maximum. Counts travel as doubles: exact below 2^53.
  double sums[6] = {double(s.particles), double(s.contacts),   double(s.failed_contacts),
                    s.kinetic_energy,    s.normal_impulse_sum, s.global_normal_impulse_sum};
  exchange.sum(sums, 6);
  s.particles = std::size_t(sums[0]);
  s.contacts = std::size_t(sums[1]);
  s.failed_contacts = std::size_t(sums[2]);
  s.kinetic_energy = sums[3];
  s.normal_impulse_sum = sums[4];
  s.global_normal_impulse_sum = sums[5];
  // The residual is local where the relaxation did not test it last (fc3d mode, a predicted
  // schedule that ended between tests).
  double maxima[3] = {s.max_penetration, s.residual, s.converged ? 0.0 : 1.0};
  exchange.max(maxima, 3);
  s.max_penetration = maxima[0];
  s.residual = maxima[1];
  s.converged = maxima[2] == 0.0;
}

}  // namespace granite::timestep
