#include "granite/collision/polyhedron_placements.hpp"

#include <algorithm>

namespace granite::collision {

void PolyhedronPlacements::clear() {
  used_ = 0;
  if (++epoch_ != 0) return;
  std::fill(stamp_.begin(), stamp_.end(), 0u);  // the epoch wrapped: no stamp may match
  epoch_ = 1;
}

const PlacedPolyhedron& PolyhedronPlacements::of(const body::Particles& particles,
                                                 const body::ShapeTable& shapes, std::size_t i) {
  if (stamp_.size() < particles.size()) {
    stamp_.resize(particles.size(), 0u);
    slot_.resize(particles.size(), 0u);
  }
  if (stamp_[i] == epoch_) return placed_[slot_[i]];
  if (used_ == placed_.size()) placed_.emplace_back();
  PlacedPolyhedron& p = placed_[used_];
  p.place(shapes[particles.shape[i]].polyhedron, particles.position[i],
          particles.orientation[i].toRotationMatrix());
  stamp_[i] = epoch_;
  slot_[i] = std::uint32_t(used_++);
  return p;
}

}  // namespace granite::collision
