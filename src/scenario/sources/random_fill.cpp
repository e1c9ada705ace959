// Random sequential addition in a box or cylinder (see random_fill.hpp). Overlaps are found in a
// hash grid of cells 2 r_max wide: a new sphere can touch only spheres in its own and the 26
// neighbouring cells.
#include "granite/scenario/sources/random_fill.hpp"

#include "granite/scenario/sources/source_particle.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace granite::scenario {

SphereGrid::SphereGrid(double cell) : cell_(cell) {}

void SphereGrid::insert(const Sphere& s) {
  spheres_.push_back(s);
  cells_[key(index(s.centre))].push_back(spheres_.size() - 1);
}

bool SphereGrid::clear(const Vec3& x, double r) const {
  const std::array<long, 3> c = index(x);
  for (long i = -1; i <= 1; ++i)
    for (long j = -1; j <= 1; ++j)
      for (long k = -1; k <= 1; ++k) {
        const auto found = cells_.find(key({c[0] + i, c[1] + j, c[2] + k}));
        if (found == cells_.end()) continue;
        for (const std::size_t n : found->second) {
          const Sphere& s = spheres_[n];
          if ((s.centre - x).norm() < s.radius + r) return false;
        }
      }
  return true;
}

bool SphereGrid::clear(const Sphere& candidate, ShapeOverlap* overlap) const {
  if (!overlap) return clear(candidate.centre, candidate.radius);
  const std::array<long, 3> c = index(candidate.centre);
  for (long i = -1; i <= 1; ++i)
    for (long j = -1; j <= 1; ++j)
      for (long k = -1; k <= 1; ++k) {
        const auto found = cells_.find(key({c[0] + i, c[1] + j, c[2] + k}));
        if (found == cells_.end()) continue;
        for (const std::size_t n : found->second)
          if ((*overlap)(candidate, spheres_[n])) return false;
      }
  return true;
}

std::array<long, 3> SphereGrid::index(const Vec3& x) const {
  return {long(std::floor(x[0] / cell_)), long(std::floor(x[1] / cell_)),
          long(std::floor(x[2] / cell_))};
}

std::uint64_t SphereGrid::key(const std::array<long, 3>& c) {
  return mix64(std::uint64_t(c[0]) ^ mix64(std::uint64_t(c[1]) ^ mix64(std::uint64_t(c[2]))));
}

namespace {

bool clear_of_bodies(const body::GlobalBodies& bodies, const Vec3& x, double r) {
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    if (!bodies[b].active) continue;
    for (const auto& part : bodies[b].parts)
      if (body::signed_distance(part, x, r) < r) return false;
  }
  return true;
}

}  // namespace

void region_bounds(const config::RegionSettings& region, Vec3& low, Vec3& high) {
  if (!region.cylinder) {
    low = region.min;
    high = region.max;
    return;
  }
  const Vec3 reach = Vec3::Constant(std::hypot(region.radius, region.half_length));
  low = region.center - reach;
  high = region.center + reach;
}

std::vector<const Sphere*> spheres_near(const config::RegionSettings& region, double reach,
                                        const std::vector<Sphere>& spheres) {
  Vec3 low, high;
  region_bounds(region, low, high);
  std::vector<const Sphere*> near;
  for (const Sphere& s : spheres) {
    const double r = s.radius + reach;
    if (((s.centre.array() > low.array() - r) && (s.centre.array() < high.array() + r)).all())
      near.push_back(&s);
  }
  return near;
}

bool place_sphere(const config::RegionSettings& region, const Sphere& candidate, int attempts,
                  CounterStream& tries, const body::GlobalBodies& bodies, const SphereGrid& grid,
                  ShapeOverlap* overlap, Vec3& x) {
  const double r = candidate.radius;
  Sphere at = candidate;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    if (!random_centre(region, r, tries, x) || !clear_of_bodies(bodies, x, r)) continue;
    at.centre = x;
    if (grid.clear(at, overlap)) return true;
  }
  return false;
}

bool random_centre(const config::RegionSettings& region, double r, CounterStream& stream,
                   Vec3& centre) {
  if (!region.cylinder) {
    if (((region.max - region.min).array() < 2.0 * r).any()) return false;
    for (int a = 0; a < 3; ++a) centre[a] = stream.uniform(region.min[a] + r, region.max[a] - r);
    return true;
  }
  const double reach = region.radius - r, half = region.half_length - r;
  if (reach < 0.0 || half < 0.0) return false;
  // An orthonormal frame (e1, e2, axis); uniform in the disc: ρ = reach √u.
  const Vec3& n = region.axis;
  const Vec3 e1 = (std::abs(n[0]) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).cross(n).normalized();
  const Vec3 e2 = n.cross(e1);
  const double rho = reach * std::sqrt(stream.uniform()), phi = 2.0 * M_PI * stream.uniform();
  const double along = stream.uniform(-half, half);
  centre = region.center + along * n + rho * (std::cos(phi) * e1 + std::sin(phi) * e2);
  return true;
}

FillResult random_fill(const config::RandomFillSettings& settings, const SizeSampler& sizes,
                       std::uint64_t seed, BodyId first_id, const body::GlobalBodies& bodies,
                       const std::vector<Sphere>& existing, ShapeOverlap* overlap) {
  FillResult result;
  result.requested = settings.count;
  result.requested_fraction = settings.solid_fraction;
  const double volume = settings.region.volume();
  double largest = sizes.largest();  // grows to the largest sphere the grid holds
  const std::vector<const Sphere*> near = spheres_near(settings.region, sizes.largest(), existing);
  for (const Sphere* s : near) largest = std::max(largest, s->radius);
  SphereGrid grid(2.0 * largest);
  for (const Sphere* s : near) grid.insert(*s);
  double filled = 0.0;  // sphere volume placed
  auto done = [&] {
    return settings.count > 0 ? result.spheres.size() >= settings.count
                              : filled >= settings.solid_fraction * volume;
  };
  while (!done()) {
    const BodyId id = first_id + BodyId(result.spheres.size());
    const SizeDraw size = sizes.draw(seed, id);
    CounterStream tries(seed, StreamTag::position, std::uint64_t(id));
    Vec3 x;
    const Sphere candidate{Vec3::Zero(), size.radius, size.material,
                           id,           size.shape,  source_orientation(settings.size, seed, id)};
    if (!place_sphere(settings.region, candidate, settings.attempts, tries, bodies, grid, overlap,
                      x)) {
      result.short_of_target = true;
      break;
    }
    Sphere s = candidate;
    s.centre = x;
    grid.insert(s);
    result.spheres.push_back(s);
    filled += sizes.volume(size);
  }
  result.reached_fraction = filled / volume;
  return result;
}

}  // namespace granite::scenario
