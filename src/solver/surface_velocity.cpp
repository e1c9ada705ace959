#include "granite/solver/surface_velocity.hpp"

namespace granite::solver {

void add_surface_velocities(const body::GlobalBodies& globals, std::size_t particle_count,
                            std::vector<SolverContact>& contacts, std::vector<BodyState>& states) {
  bool belts = false;  // most runs have none: no pass over the contacts then
  for (std::size_t k = 0; k < globals.size(); ++k)
    belts = belts || !globals[k].surface_velocity.isZero(0.0);
  if (!belts) return;
  for (SolverContact& c : contacts) {
    if (c.body2 < particle_count) continue;
    const Vec3& s = globals[c.body2 - particle_count].surface_velocity;
    if (s.isZero(0.0)) continue;
    const Vec3 n = c.normal;
    BodyState belt = states[c.body2];
    belt.v += s - n.dot(s) * n;  // s_t (header)
    states.push_back(belt);
    c.body2 = std::uint32_t(states.size() - 1);
  }
}

}  // namespace granite::solver
