#pragma once
// Where a granular load will lie, for choosing the subdomain counts (parallel::choose_dims,
// docs/load_balance.md). Under gravity the particles settle into a bed on the bottom of the
// domain, about V / (φ A) deep: V the volume of the particles the configuration makes, A the
// domain's cross-section normal to gravity, φ = kBedPacking. Cuts normal to gravity would
// split such a bed through its depth (or leave a rank above it empty), while cuts along it
// cross only the bed's height: counts chosen by the domain's extent cut a tall, nearly empty
// box across gravity (configs/brick_pile.yaml at 2 ranks: a z-cut, every grain on one rank).
#include "granite/config/settings.hpp"

#include <optional>

namespace granite::scenario {

/// A loose random packing (random close packing is 0.64): the bed is rather over- than
/// under-estimated, which leans towards the domain's own extent.
inline constexpr double kBedPacking = 0.6;

/// The volume of the particles the sources make, each at most as large as its source's
/// largest (a shape's own volume; a pour's count over its window [start, end], whatever
/// run.end_time is, which a restart may change); none when it is not known before the run
/// (an inflow).
std::optional<double> predicted_particle_volume(const config::Settings& settings);

/// The extent the load occupies: `extent`, with the axis gravity mostly points along reduced
/// to the settled bed's depth when that is less. `extent` itself without gravity, without a
/// predicted volume, or when `from_sources` is false (particles from a checkpoint by --from).
Vec3 load_extent(const config::Settings& settings, const Vec3& extent, bool from_sources);

}  // namespace granite::scenario
