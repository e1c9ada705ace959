#pragma once
// The polyhedral particles of one detection placed in the world once each, not once per pair:
// a brick in a pile meets about six neighbours and a floor, and placing it (its vertices, face
// planes and edge directions turned and moved) cost as much as a pair's separating axes
// (issue 37, the cost of boxes). A placement is made when first asked for and kept until
// clear(), which the detection calls at its start: within one detection the particles do not
// move.
#include "granite/body/particles.hpp"
#include "granite/body/shape.hpp"
#include "granite/collision/polyhedron_contacts.hpp"

#include <cstdint>
#include <deque>
#include <vector>

namespace granite::collision {

class PolyhedronPlacements {
public:
  /// Forgets every placement (a new detection: the particles have moved).
  void clear();
  /// Particle i (its shape polyhedral) placed; the same object until clear(). References stay
  /// valid while more are made.
  const PlacedPolyhedron& of(const body::Particles& particles, const body::ShapeTable& shapes,
                             std::size_t i);

private:
  std::vector<std::uint32_t> stamp_;     // per particle: the epoch its slot was made in
  std::vector<std::uint32_t> slot_;      // per particle: its placement in placed_
  std::deque<PlacedPolyhedron> placed_;  // kept across detections (their arrays' capacity)
  std::uint32_t epoch_ = 1;
  std::size_t used_ = 0;
};

}  // namespace granite::collision
