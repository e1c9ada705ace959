// The neighbour lists' state across steps (see include/granite/collision/neighbour_tracking.hpp).
#include "granite/collision/neighbour_tracking.hpp"

namespace granite::collision {

bool NeighbourTracking::wants_rebuild(const body::Particles& particles, double skin,
                                      int rebuild_every, std::int64_t step) {
  if (restoring_) list_.adopt(particles, particles.size(), skin);
  return list_.stale(particles, particles.size(), deleted_map_) ||
         (rebuild_every > 0 && step - built_at_ >= rebuild_every);
}

// The list's indices: the owned particles of its build or last remap, then their ghosts.
void NeighbourTracking::after_synchronise(std::size_t owned, bool ghosts_deleted) {
  if (!rebuilding_ && (!deleted_map_.empty() || ghosts_deleted)) {
    const std::size_t owned_before = deleted_map_.empty() ? owned : deleted_map_.size();
    std::vector<std::int64_t> map(owned_before + ghost_map_.size());
    for (std::size_t i = 0; i < owned_before; ++i)
      map[i] = deleted_map_.empty() ? std::int64_t(i) : deleted_map_[i];
    for (std::size_t g = 0; g < ghost_map_.size(); ++g)
      map[owned_before + g] = ghost_map_[g] < 0 ? -1 : std::int64_t(owned) + ghost_map_[g];
    list_.remap(map);
  }
  deleted_map_.clear();
}

void NeighbourTracking::record_removal(const std::vector<char>& gone) {
  if (!list_.built()) return;
  // Compose with earlier removals since the last step: the list's index -> present index.
  std::vector<std::int64_t> now(gone.size());
  std::int64_t next = 0;
  for (std::size_t i = 0; i < gone.size(); ++i) now[i] = gone[i] ? -1 : next++;
  if (deleted_map_.empty()) {
    deleted_map_ = std::move(now);
  } else {
    for (auto& m : deleted_map_)
      if (m >= 0) m = now[std::size_t(m)];
  }
}

const NeighbourList& NeighbourTracking::list_for_step(body::Particles& particles, std::size_t owned,
                                                      const body::GlobalBodies& globals,
                                                      double threshold, double skin,
                                                      std::int64_t step) {
  if (rebuilding_) {
    list_.build(particles, owned, globals, threshold, skin);
    built_at_ = step;
  } else if (restoring_) {
    list_.build(particles, owned, globals, threshold, skin, true);
  }
  restoring_.reset();
  return list_;
}

NeighbourTracking::RestartState NeighbourTracking::restart_state(const body::Particles& particles,
                                                                 double skin,
                                                                 double ghost_width) const {
  RestartState s;
  s.built_at = built_at_;
  s.ghost_width = ghost_width;
  s.valid = skin > 0.0 && !list_.stale(particles, particles.size(), deleted_map_);
  return s;
}

void NeighbourTracking::restore(const RestartState& state, double skin) {
  built_at_ = state.built_at;
  if (state.valid && skin > 0.0) restoring_ = state;
}

}  // namespace granite::collision
