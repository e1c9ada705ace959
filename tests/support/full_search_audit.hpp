#pragma once
// Test support for one process: a step's contacts keyed independently of the particles' order,
// and FullSearchAudit, an observer that compares every step's contacts of a simulation with a
// full search (linked cells, no skin) of the same particles.
#include "granite/collision/detection.hpp"
#include "granite/timestep/simulation.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

namespace granite::test_support {

// (lower body id, other id or -1 - global index, ordinal of a repeated pair) -> gap: a drum, a
// union or a manifold may give several contacts per pair.
using ContactKey = std::tuple<BodyId, BodyId, int>;
inline std::map<ContactKey, double> keyed_gaps(const collision::ContactList& c,
                                               const body::Particles& p) {
  std::map<ContactKey, double> out;
  std::map<std::pair<BodyId, BodyId>, int> seen;
  for (std::size_t j = 0; j < c.size(); ++j) {
    BodyId a = p.id[c.body1[j]];
    BodyId b = c.involves_global(j) ? -1 - BodyId(c.global_index(j)) : p.id[c.body2[j]];
    if (b >= 0 && b < a) std::swap(a, b);
    out[{a, b, seen[{a, b}]++}] = c.gap[j];
  }
  return out;
}

// Compares every step's contacts of `sim` with a full search's (after the contact setup the
// particles are still where detection saw them): the steps that differ (any key or gap), the
// contacts, and those with global body `wall` (none: no wall counted).
struct FullSearchAudit {
  std::size_t contacts = 0, mismatches = 0, wall_contacts = 0;
  explicit FullSearchAudit(timestep::Simulation& sim,
                           std::size_t wall = std::numeric_limits<std::size_t>::max()) {
    sim.set_contact_problem_observer([this, &sim, wall](const auto&, const auto&) {
      collision::ContactDetection full;
      collision::ContactList all;
      full.detect(sim.particles(), sim.globals(), sim.shapes(), sim.parameters().contact_threshold,
                  all);
      const auto ka = keyed_gaps(all, sim.particles());
      const auto kb = keyed_gaps(sim.contacts(), sim.particles());
      mismatches += ka == kb ? 0 : 1;
      contacts += kb.size();
      for (const auto& [key, gap] : kb) wall_contacts += std::get<1>(key) == -1 - BodyId(wall);
    });
  }
};

}  // namespace granite::test_support
