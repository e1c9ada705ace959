#pragma once
// Radii drawn from a generator's size distribution (config::SizeSettings, docs/
// particle_sources.md): monodisperse, uniform, truncated normal, truncated log-normal, or a
// discrete mixture of radii and materials, each by number or by mass. A particle's radius is a
// pure function of (seed, id) through a counter-based stream (core/counter_random.hpp), so it
// does not depend on the decomposition nor on the order in which ranks draw.
#include "granite/body/material.hpp"
#include "granite/core/counter_random.hpp"
#include "granite/config/settings.hpp"

#include <vector>

namespace granite::scenario {

struct SizeDraw {
  double radius = 0.0;  // a shaped particle's: its bounding radius
  body::MaterialIndex material = 0;
  body::ShapeIndex shape = body::kSphere;
  double shape_volume = 0.0;  // m³, of `shape`
};

class SizeSampler {
public:
  /// `material`: the source's (fixed and continuous kinds); `materials`: the densities a
  /// mixture by mass converts its mass fractions with.
  SizeSampler(const config::SizeSettings& size, body::MaterialIndex material,
              const body::MaterialTable& materials);

  /// The radius and material of the particle `id` (stream StreamTag::size of `seed`).
  SizeDraw draw(std::uint64_t seed, BodyId id) const;
  /// The same from a stream the caller owns (it advances it).
  SizeDraw draw(CounterStream& stream) const;
  double largest() const { return size_.largest(); }
  /// The volume of a drawn particle: a sphere's, or the shape's.
  double volume(const SizeDraw& draw) const;

private:
  double continuous(CounterStream& stream) const;
  config::SizeSettings size_;
  body::MaterialIndex material_;
  std::vector<double> cumulative_;  // mixture: cumulative number fractions, last = 1
};

/// Standard normal z in [a, b] with probability Φ(z) − Φ(a) ∝ u: the inverse of the truncated
/// normal distribution function at u ∈ (0, 1), by bisection (a < b).
double truncated_normal_quantile(double a, double b, double u);

}  // namespace granite::scenario
