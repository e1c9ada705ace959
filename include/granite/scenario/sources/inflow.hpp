#pragma once
// Inflow by a resetting piston (paper §4.3): a kinematic plane pushes the particles into the
// domain; each time it has travelled `layer_every`, it moves back by that distance and a new
// lattice layer is created in the space it freed (radii from the layer's size distribution). Every process runs the same Inflow and draws
// the same random numbers, so ids and velocities do not depend on the decomposition; each
// process creates only the particles it owns.
#include "granite/scenario/build.hpp"

namespace granite::scenario {

class Inflow {
public:
  /// New particles get ids first_id, first_id + 1, ...; `seed` seeds the perturbations.
  Inflow(const config::InflowSettings& settings, BodyId first_id, std::uint64_t seed);

  /// Call after every step: advances the travelled distance by |v_piston| dt and, if a layer is
  /// due, resets the piston and creates the layer's particles this process owns. Returns the
  /// number of particles the layer has in all (0 if none was due); the same on every process.
  std::size_t after_step(timestep::Simulation& sim, double dt, const OwnsPosition& owns);

  std::size_t layers() const { return layers_; }
  /// Everything that evolves (travel since the last layer, layer count, next id, random
  /// generator) as text, exactly; restore() reads it back (InputError if malformed).
  std::string state() const;
  void restore(const std::string& text);
  std::size_t layer_size() const { return centres_.size(); }
  /// The spheres of the last layer (the same on every process; radii and materials drawn from
  /// the layer's size distribution by id).
  const std::vector<Sphere>& last_layer() const { return layer_; }
  BodyId next_id() const { return next_id_; }

private:
  config::InflowSettings settings_;
  std::vector<Vec3> centres_;
  std::vector<Sphere> layer_;
  std::uint64_t seed_;
  BodyId next_id_;
  std::mt19937_64 rng_;
  double travelled_ = 0.0;
  std::size_t layers_ = 0;
};

}  // namespace granite::scenario
