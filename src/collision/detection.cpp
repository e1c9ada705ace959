#include "granite/collision/detection.hpp"

#include "granite/collision/narrow_phase.hpp"

#include <algorithm>

namespace granite::collision {

void ContactDetection::detect(const body::Particles& particles, const body::GlobalBodies& globals,
                              const body::MaterialTable& materials, double threshold,
                              ContactList& contacts) {
  contacts.clear();
  const std::size_t n = particles.size();
  contacts.num_particles = n;
  if (n == 0) return;
  const auto& x = particles.position;
  const auto& r = particles.radius;
  const auto& mat = particles.material;

  // Particle pairs: cells of edge ≥ largest diameter + threshold.
  cells_.build(x, 2.0 * particles.max_radius() + threshold);
  cells_.for_each_candidate_pair([&](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t i = std::min(a, b), j = std::max(a, b);
    if (particles.fixed[i] != 0 && particles.fixed[j] != 0) return;  // neither can move
    ContactGeometry g;
    if (sphere_sphere(x[i], r[i], x[j], r[j], threshold, g))
      contacts.push_back(i, j, g.point, g.normal, g.gap, materials.pair_friction(mat[i], mat[j]));
  });

  // Particles against global bodies (few of them; every process knows all).
  constexpr std::size_t kMaxPerBody = 8;
  ContactGeometry found[kMaxPerBody];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < globals.size(); ++k) {
      const body::GlobalBody& gb = globals[k];
      if (!gb.active) continue;
      const std::size_t count = sphere_global(x[i], r[i], gb, threshold, found, kMaxPerBody);
      const double mu = materials.pair_friction(mat[i], gb.material);
      for (std::size_t c = 0; c < count; ++c)
        contacts.push_back(BodyIndex(i), BodyIndex(n + k), found[c].point, found[c].normal,
                           found[c].gap, mu);
    }
}

}  // namespace granite::collision
