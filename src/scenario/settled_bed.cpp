// The settled bed's extent (granite/scenario/settled_bed.hpp).
#include "granite/scenario/settled_bed.hpp"

#include "granite/scenario/build.hpp"
#include "granite/scenario/sources/lattice.hpp"

#include <algorithm>
#include <cmath>

namespace granite::scenario {

namespace {

double sphere_volume(double r) { return 4.0 / 3.0 * M_PI * r * r * r; }

// The largest particle's volume of a size distribution: a shape's, or a sphere's.
double largest_volume(const config::SizeSettings& size) {
  return size.shape != body::kSphere ? size.shape_volume : sphere_volume(size.largest());
}

// The volume one source makes (none: not known before the run).
struct SourceVolume {
  const config::Settings& s;
  std::optional<double> operator()(const config::LatticeSettings& p) const {
    return double(LatticeGrid(p.min, p.max, p.spacing).size()) * largest_volume(p.size);
  }
  std::optional<double> operator()(const config::SphereSettings& p) const {
    return sphere_volume(p.radius);
  }
  std::optional<double> operator()(const config::BodySettings& p) const {
    return body::volume_of(s.shapes, p.shape, 0.0);
  }
  std::optional<double> operator()(const config::RandomFillSettings& p) const {
    if (p.count == 0) return p.solid_fraction * p.region.volume();
    return double(p.count) * largest_volume(p.size);
  }
  std::optional<double> operator()(const config::PourSettings& p) const {
    // Its whole window, not cut at run.end_time, which a restart may change: the counts must
    // not (a restart keeps its run's decomposition).
    const double duration = std::max(0.0, p.end - p.start);
    if (p.rate > 0.0) return p.rate * duration * largest_volume(p.size);
    return p.mass_rate * duration / s.materials[p.material].density;
  }
  std::optional<double> operator()(const config::FileSettings& p) const {
    const auto& measured = p.measured;
    if (!measured) return std::nullopt;
    return double(measured->rows) * sphere_volume(measured->largest_radius);
  }
};

}  // namespace

std::optional<double> predicted_particle_volume(const config::Settings& settings) {
  if (settings.inflow) return std::nullopt;
  double volume = 0.0;
  for (const config::ParticleSource& source : settings.particles) {
    const std::optional<double> v = std::visit(SourceVolume{settings}, source);
    if (!v) return std::nullopt;
    volume += *v;
  }
  return volume;
}

Vec3 load_extent(const config::Settings& settings, const Vec3& extent, bool from_sources) {
  const Vec3& g = settings.gravity;
  if (!from_sources || g == Vec3::Zero()) return extent;
  const std::optional<double> volume = predicted_particle_volume(settings);
  if (!volume) return extent;
  int axis = 0;
  g.cwiseAbs().maxCoeff(&axis);
  const double area = extent[(axis + 1) % 3] * extent[(axis + 2) % 3];
  Vec3 load = extent;
  if (area > 0.0) load[axis] = std::min(extent[axis], *volume / (kBedPacking * area));
  return load;
}

}  // namespace granite::scenario
