// The pour (see pour.hpp).
#include "granite/scenario/sources/pour.hpp"

#include "granite/body/particles.hpp"
#include "granite/core/error.hpp"
#include "granite/scenario/sources/random_fill.hpp"
#include "granite/scenario/sources/source_particle.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace granite::scenario {

Pour::Pour(const config::PourSettings& settings, BodyId first_id, std::uint64_t seed) :
    settings_(settings), seed_(seed), next_id_(first_id) {}

double Pour::target(double t) const {
  const double elapsed = std::min(t, settings_.end) - settings_.start;
  if (elapsed <= 0.0) return 0.0;
  if (settings_.rate == 0.0) return settings_.mass_rate * elapsed;
  // The relative 1e-12 absorbs the round-off of t = step × dt (1000/s × 0.05 s is 50, not 49).
  const double due = settings_.rate * elapsed;
  return std::floor(due + 1e-12 * std::max(1.0, due));
}

double Pour::inserted_amount() const {
  return settings_.rate > 0.0 ? double(inserted_) : inserted_mass_;
}

bool Pour::due(double t) const { return t >= settings_.start && inserted_amount() < target(t); }

Vec3 Pour::velocity(BodyId id) const {
  CounterStream draws(seed_, StreamTag::velocity, std::uint64_t(id));
  Vec3 v = settings_.velocity;
  for (int a = 0; a < 3; ++a) v[a] += settings_.perturbation[a] * draws.uniform(-1.0, 1.0);
  return v;
}

std::vector<Sphere> Pour::insert(double t, std::int64_t step, const body::MaterialTable& materials,
                                 const body::GlobalBodies& bodies,
                                 const std::vector<Sphere>& existing, ShapeOverlap* overlap) {
  const SizeSampler sizes(settings_.size, settings_.material, materials);
  double largest = sizes.largest();
  const std::vector<const Sphere*> near = spheres_near(settings_.region, sizes.largest(), existing);
  for (const Sphere* s : near) largest = std::max(largest, s->radius);
  SphereGrid grid(2.0 * largest);
  for (const Sphere* s : near) grid.insert(*s);
  std::vector<Sphere> placed;
  const double goal = target(t);
  while (inserted_amount() < goal) {
    const SizeDraw size = sizes.draw(seed_, next_id_);
    // Each step tries other positions: the stream of (seed, id) mixed with the step.
    CounterStream tries(seed_ ^ mix64(std::uint64_t(step)), StreamTag::position,
                        std::uint64_t(next_id_));
    Vec3 x;
    const Sphere candidate{Vec3::Zero(),  size.radius,
                           size.material, next_id_,
                           size.shape,    source_orientation(settings_.size, seed_, next_id_)};
    if (!place_sphere(settings_.region, candidate, settings_.attempts, tries, bodies, grid, overlap,
                      x))
      break;  // the rest waits for the next step
    Sphere s = candidate;
    s.centre = x;
    ++next_id_;
    grid.insert(s);
    placed.push_back(s);
    ++inserted_;
    const double density = materials[size.material].density;
    inserted_mass_ += size.shape == body::kSphere ? body::sphere_mass(density, size.radius)
                                                  : density * size.shape_volume;
  }
  return placed;
}

std::string Pour::state() const {
  std::ostringstream os;
  os << std::hexfloat << inserted_ << ' ' << inserted_mass_ << ' ' << next_id_;
  return os.str();
}

void Pour::restore(const std::string& text) {
  std::istringstream is(text);
  std::string mass;  // hexfloat: read as text, converted with strtod (exact)
  is >> inserted_ >> mass >> next_id_;
  char* end = nullptr;
  const double value = std::strtod(mass.c_str(), &end);
  if (!is || mass.empty() || end != mass.c_str() + mass.size())
    throw InputError("checkpoint: the pour state is malformed");
  inserted_mass_ = value;
}

}  // namespace granite::scenario
