#pragma once
// Random sequential addition (`type: random`, docs/particle_sources.md): spheres with radii from
// the source's size distribution are put one after another at uniformly random positions in a
// box or a cylinder, each wholly inside it, clear of the global bodies and of every sphere
// placed before (of this and earlier sources); a sphere that finds no place in `attempts`
// tries ends the fill. Every rank runs the same fill: the k-th sphere's radius and tries are
// pure functions of (seed, id), so the particles do not depend on the decomposition.
#include "granite/body/global_body.hpp"
#include "granite/config/settings.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/sources/shape_overlap.hpp"
#include "granite/scenario/sources/size_distribution.hpp"

#include <array>
#include <unordered_map>
#include <vector>

namespace granite::scenario {

/// What a fill reached against what it was asked for.
struct FillResult {
  std::vector<Sphere> spheres;  // ids first_id, first_id + 1, ...
  std::uint64_t requested = 0;  // count (0 when a solid fraction was asked for)
  double requested_fraction = 0.0, reached_fraction = 0.0;
  bool short_of_target = false;  // a sphere found no place before the target was reached
};

/// The fill of `settings` with ids from `first_id`, avoiding the active `bodies` and `existing`:
/// by true geometry with `overlap` (shapes: their own surfaces, shape_overlap.hpp), else by
/// bounding spheres.
FillResult random_fill(const config::RandomFillSettings& settings, const SizeSampler& sizes,
                       std::uint64_t seed, BodyId first_id, const body::GlobalBodies& bodies,
                       const std::vector<Sphere>& existing, ShapeOverlap* overlap = nullptr);

// The pieces, shared with the pour (scenario/pour.hpp).

/// Spheres in a hash grid of cubic cells at least 2 r_max wide: clear() looks at the 27 cells
/// around a point.
class SphereGrid {
public:
  explicit SphereGrid(double cell);
  void insert(const Sphere& s);
  /// No sphere of the grid closer than its radius + r to x (touching is clear).
  bool clear(const Vec3& x, double r) const;
  /// No particle of the grid overlapping `candidate` by `overlap` (by bounding spheres without).
  bool clear(const Sphere& candidate, ShapeOverlap* overlap) const;

private:
  std::array<long, 3> index(const Vec3& x) const;
  static std::uint64_t key(const std::array<long, 3>& c);
  double cell_;
  std::vector<Sphere> spheres_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> cells_;
};

/// A uniformly random centre for a sphere of radius r wholly inside `region`, from `stream`;
/// false if the sphere does not fit.
bool random_centre(const config::RegionSettings& region, double r, CounterStream& stream,
                   Vec3& centre);
/// The box around a region.
void region_bounds(const config::RegionSettings& region, Vec3& low, Vec3& high);
/// The spheres that could touch a sphere of radius `reach` inside the region.
std::vector<const Sphere*> spheres_near(const config::RegionSettings& region, double reach,
                                        const std::vector<Sphere>& spheres);
/// Up to `attempts` random centres from `tries` for `candidate` (its radius, shape and
/// orientation): the first whose bounding sphere is clear of the active bodies and which is
/// clear of the grid's particles (SphereGrid::clear), in x (true), or false.
bool place_sphere(const config::RegionSettings& region, const Sphere& candidate, int attempts,
                  CounterStream& tries, const body::GlobalBodies& bodies, const SphereGrid& grid,
                  ShapeOverlap* overlap, Vec3& x);

}  // namespace granite::scenario
