#include "granite/scenario/sources/inflow.hpp"

#include "granite/scenario/sources/lattice.hpp"
#include "granite/scenario/sources/size_distribution.hpp"
#include "granite/scenario/sources/source_particle.hpp"

#include "granite/core/error.hpp"

#include <sstream>
#include <string>

namespace granite::scenario {

Inflow::Inflow(const config::InflowSettings& settings, BodyId first_id, std::uint64_t seed) :
    settings_(settings),
    centres_(lattice_centres(settings.layer.min, settings.layer.max, settings.layer.spacing)),
    seed_(seed), next_id_(first_id), rng_(seed) {}

std::size_t Inflow::after_step(timestep::Simulation& sim, double dt, const OwnsPosition& owns) {
  const Vec3 v = sim.globals()[settings_.piston].velocity;
  travelled_ += v.norm() * dt;
  // The 1e-9 absorbs the round-off of summing v·dt (the cadence must be exact in steps).
  if (travelled_ < settings_.layer_every * (1.0 - 1e-9)) return 0;
  travelled_ -= settings_.layer_every;
  sim.globals().move(settings_.piston, -settings_.layer_every * v.normalized());
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const config::LatticeSettings& layer = settings_.layer;
  const SizeSampler sizes(layer.size, layer.material, sim.materials());
  layer_.clear();
  for (const Vec3& x : centres_) {
    Vec3 velocity = layer.velocity;
    for (int a = 0; a < 3; ++a) velocity[a] += layer.perturbation[a] * unit(rng_);
    const BodyId id = next_id_++;
    const SizeDraw size = sizes.draw(seed_, id);
    layer_.push_back({x, size.radius, size.material, id, size.shape});
    if (owns(x)) add_source_particle(sim, layer.size, seed_, layer_.back(), velocity, layer.group);
  }
  ++layers_;
  return centres_.size();
}

std::string Inflow::state() const {
  std::ostringstream os;
  os << std::hexfloat << travelled_ << ' ' << layers_ << ' ' << next_id_ << ' ' << rng_;
  return os.str();
}

void Inflow::restore(const std::string& text) {
  std::istringstream is(text);
  std::string travelled;  // hexfloat: read as text, converted with strtod (exact)
  is >> travelled >> layers_ >> next_id_ >> rng_;
  if (!is) throw InputError("checkpoint: the inflow state is malformed");
  travelled_ = std::strtod(travelled.c_str(), nullptr);
}

}  // namespace granite::scenario
