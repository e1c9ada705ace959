#include "granite/scenario/sources/source_particle.hpp"

#include "granite/core/counter_random.hpp"

#include <cmath>
#include <numbers>

namespace granite::scenario {

Quat source_orientation(const config::SizeSettings& size, std::uint64_t seed, BodyId id) {
  if (!size.random_orientation) return Quat::Identity();
  CounterStream stream(seed, StreamTag::orientation, std::uint64_t(id));
  const double u1 = stream.uniform(), u2 = stream.uniform(), u3 = stream.uniform();
  if (!size.orientation_axis.isZero(0.0))  // about one axis: the angle uniform in [0, 2π)
    return Quat(Eigen::AngleAxisd(2.0 * std::numbers::pi * u1, size.orientation_axis));
  // Shoemake: (√(1−u1) sin 2πu2, √(1−u1) cos 2πu2, √u1 sin 2πu3, √u1 cos 2πu3) is uniform on
  // the unit 3-sphere, so uniform (Haar) over rotations.
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  const double t2 = 2.0 * std::numbers::pi * u2, t3 = 2.0 * std::numbers::pi * u3;
  return Quat(b * std::cos(t3), a * std::sin(t2), a * std::cos(t2), b * std::sin(t3));
}

void add_source_particle(timestep::Simulation& sim, const config::SizeSettings& size,
                         std::uint64_t seed, const Sphere& s, const Vec3& velocity, int group,
                         bool fixed) {
  if (s.shape == body::kSphere) {
    sim.particles().add_sphere(sim.materials(), s.material, s.centre, s.radius, velocity, s.id,
                               group, fixed);
    return;
  }
  sim.particles().add_shaped(sim.materials(), sim.shapes(), s.shape, s.material, s.centre,
                             source_orientation(size, seed, s.id), velocity, s.id, group, fixed);
}

}  // namespace granite::scenario
