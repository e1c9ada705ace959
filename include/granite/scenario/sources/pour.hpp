#pragma once
// A pour (`type: pour`, docs/particle_sources.md): particles inserted into a region at a rate
// (particles/s or kg/s) over a time window [start, end]. After each step the particles due by
// then (the target rate × elapsed time, less those inserted) are placed by random sequential
// addition among the particles and active global bodies near the region; one that finds no
// place in `attempts` tries waits for the next step, and what is still missing at the end is
// the shortfall. The k-th particle's size is a function of (seed, id), its tries of (seed, id,
// step): every rank, given the same particles near the region, inserts the same ones.
#include "granite/body/global_body.hpp"
#include "granite/config/settings.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/sources/shape_overlap.hpp"
#include "granite/scenario/sources/size_distribution.hpp"

#include <string>
#include <vector>

namespace granite::scenario {

/// The ids of the j-th pour start at next_id + (j + 1) × kPourIdBlock (next_id: the first id
/// free after the configuration's particles), far above any inflow's.
inline constexpr BodyId kPourIdBlock = BodyId(1) << 40;

class Pour {
public:
  /// New particles get ids first_id, first_id + 1, ...
  Pour(const config::PourSettings& settings, BodyId first_id, std::uint64_t seed);

  /// What the pour asks for by time t: a count (rate) or a mass in kg (mass_rate).
  double target(double t) const;
  /// True if particles are due at time t (the same on every rank); after `end` the target
  /// stays target(end), so a backlog keeps being due: the caller stops trying.
  bool due(double t) const;
  /// Places the particles due at time t (after step `step`) clear of `existing` (every
  /// particle that could touch the region) and the active `bodies`; returns them, counted as
  /// inserted.
  /// With `overlap` shapes are placed by their true geometry (random_fill.hpp).
  std::vector<Sphere> insert(double t, std::int64_t step, const body::MaterialTable& materials,
                             const body::GlobalBodies& bodies, const std::vector<Sphere>& existing,
                             ShapeOverlap* overlap = nullptr);
  /// The initial velocity of particle `id`: velocity + perturbation × uniform(−1, 1) per axis.
  Vec3 velocity(BodyId id) const;

  const config::PourSettings& settings() const { return settings_; }
  std::uint64_t inserted() const { return inserted_; }
  double inserted_mass() const { return inserted_mass_; }  // kg
  /// Inserted so far, in the unit of target(): a count or kg.
  double inserted_amount() const;

  /// inserted count, inserted mass and next id as text, exactly; restore() reads it back.
  std::string state() const;
  void restore(const std::string& text);

private:
  config::PourSettings settings_;
  std::uint64_t seed_;
  BodyId next_id_;
  std::uint64_t inserted_ = 0;
  double inserted_mass_ = 0.0;
};

}  // namespace granite::scenario
