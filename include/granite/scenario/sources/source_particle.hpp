#pragma once
// A generator's particle (lattice, random fill, pour, inflow layer) added to the simulation:
// a sphere of its drawn radius, or a body of the source's shape turned by its orientation.
#include "granite/config/settings.hpp"
#include "granite/scenario/build.hpp"
#include "granite/timestep/simulation.hpp"

namespace granite::scenario {

/// The orientation of a generator's particle `id`: with size.random_orientation uniform over
/// rotations, from three uniforms of the stream StreamTag::orientation of (seed, id) (Shoemake,
/// "Uniform random rotations", Graphics Gems III, 1992), so the same at every decomposition;
/// with size.orientation_axis, a turn about that axis by an angle uniform in [0, 2π) (the
/// first of the three); otherwise the identity.
Quat source_orientation(const config::SizeSettings& size, std::uint64_t seed, BodyId id);

/// Adds the generator's particle `s` with `velocity`: a sphere of s.radius, or a body of
/// size.shape turned by source_orientation(size, seed, s.id).
void add_source_particle(timestep::Simulation& sim, const config::SizeSettings& size,
                         std::uint64_t seed, const Sphere& s, const Vec3& velocity, int group,
                         bool fixed = false);

}  // namespace granite::scenario
