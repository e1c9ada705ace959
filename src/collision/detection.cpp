#include "granite/collision/detection.hpp"

#include "granite/collision/narrow_phase.hpp"

#include <algorithm>

namespace granite::collision {

namespace {

// The narrow phase of one particle pair i < j.
void detect_pair(const body::Particles& particles, const body::MaterialTable& materials,
                 double threshold, std::uint32_t i, std::uint32_t j, ContactList& contacts) {
  const auto& x = particles.position;
  const auto& r = particles.radius;
  ContactGeometry g;
  if (sphere_sphere(x[i], r[i], x[j], r[j], threshold, g))
    contacts.push_back(i, j, g.point, g.normal, g.gap,
                       materials.pair_friction(particles.material[i], particles.material[j]));
}

// Particles against global bodies (few of them; every process knows all).
void detect_global(const body::Particles& particles, const body::GlobalBodies& globals,
                   const body::MaterialTable& materials, double threshold,
                   ContactList& contacts) {
  const std::size_t n = particles.size();
  constexpr std::size_t kMaxPerBody = 8;
  ContactGeometry found[kMaxPerBody];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < globals.size(); ++k) {
      const body::GlobalBody& gb = globals[k];
      if (!gb.active) continue;
      const std::size_t count =
          sphere_global(particles.position[i], particles.radius[i], gb, threshold, found,
                        kMaxPerBody);
      const double mu = materials.pair_friction(particles.material[i], gb.material);
      for (std::size_t c = 0; c < count; ++c)
        contacts.push_back(BodyIndex(i), BodyIndex(n + k), found[c].point, found[c].normal,
                           found[c].gap, mu);
    }
}

}  // namespace

void ContactDetection::detect(const body::Particles& particles, const body::GlobalBodies& globals,
                              const body::MaterialTable& materials, double threshold,
                              ContactList& contacts) {
  contacts.clear();
  contacts.num_particles = particles.size();
  if (particles.size() == 0) return;
  // Particle pairs: cells of edge ≥ largest diameter + threshold.
  cells_.build(particles.position, 2.0 * particles.max_radius() + threshold);
  cells_.for_each_candidate_pair([&](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t i = std::min(a, b), j = std::max(a, b);
    if (particles.fixed[i] != 0 && particles.fixed[j] != 0) return;  // neither can move
    detect_pair(particles, materials, threshold, i, j, contacts);
  });
  detect_global(particles, globals, materials, threshold, contacts);
}

void ContactDetection::detect(const NeighbourList& list, const body::Particles& particles,
                              const body::GlobalBodies& globals,
                              const body::MaterialTable& materials, double threshold,
                              ContactList& contacts) {
  contacts.clear();
  contacts.num_particles = particles.size();
  for (const auto& [i, j] : list.pairs()) detect_pair(particles, materials, threshold, i, j, contacts);
  detect_global(particles, globals, materials, threshold, contacts);
}

}  // namespace granite::collision
