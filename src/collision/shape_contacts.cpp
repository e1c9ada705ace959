#include "granite/collision/shape_contacts.hpp"

#include "granite/collision/narrow_phase.hpp"

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace granite::collision {

void shaped_pair_contacts(const body::Particles& particles, const body::ShapeTable& shapes,
                          double threshold, BodyIndex i, BodyIndex j, double mu,
                          ContactList& contacts) {
  // j's parts in the world once (not once per part of i); the candidates' reach test first.
  thread_local std::vector<std::pair<Vec3, double>> parts_j;
  parts_j.clear();
  for_each_part(particles, shapes, j, [&](const Vec3& x, double r) { parts_j.emplace_back(x, r); });
  const Vec3& xj = particles.position[j];
  const double bound_j = particles.radius[j] + threshold;
  for_each_part(particles, shapes, i, [&](const Vec3& xa, double ra) {
    // A part of i farther from j's bounding sphere than the threshold touches none of j's.
    const double reach = ra + bound_j;
    if ((xa - xj).squaredNorm() > reach * reach) return;
    for (const auto& [xb, rb] : parts_j) {
      ContactGeometry g;
      if (sphere_sphere(xa, ra, xb, rb, threshold, g))
        contacts.push_back(i, j, g.point, g.normal, g.gap, mu);
    }
  });
}

void shaped_global_contacts(const body::Particles& particles, const body::ShapeTable& shapes,
                            const body::GlobalBody& body, double threshold, BodyIndex i,
                            BodyIndex body2, double mu, ContactList& contacts) {
  constexpr std::size_t kMaxPerPart = 8;
  ContactGeometry found[kMaxPerPart];
  for_each_part(particles, shapes, i, [&](const Vec3& xa, double ra) {
    const std::size_t count = sphere_global(xa, ra, body, threshold, found, kMaxPerPart);
    for (std::size_t c = 0; c < count; ++c)
      contacts.push_back(i, body2, found[c].point, found[c].normal, found[c].gap, mu);
  });
}

double surface_radius(const body::Particles& particles, const body::ShapeTable& shapes,
                      std::size_t i, const Vec3& point) {
  if (particles.shape[i] == body::kSphere) return particles.radius[i];
  double nearest = std::numeric_limits<double>::infinity(), radius = particles.radius[i];
  for_each_part(particles, shapes, i, [&](const Vec3& centre, double r) {
    const double off = std::abs((point - centre).norm() - r);
    if (off < nearest) {
      nearest = off;
      radius = r;
    }
  });
  return radius;
}

}  // namespace granite::collision
