#pragma once
// The neighbour lists' state across steps (with a skin, timestep::Parameters::skin > 0), in
// one object: the rebuild policy (a stale list, rebuild_every, a request), the deletions and
// vanished ghosts carried over between rebuilds as remaps of the list, and a restart's restore
// of the last build. The Simulation asks it at each step's synchronisation and detection:
//   wants_rebuild()    -> the ranks agree -> set_rebuilding();
//   a rebuilding step: the ghosts anew; otherwise the ghosts refreshed by the last halo plan
//                      (deleted_map() in, ghost_map() out) or, restoring, those of the build;
//   after_synchronise() remaps the list if bodies or ghosts vanished;
//   list_for_step()    builds it on a rebuilding step (or at the references when restoring).
#include "granite/collision/neighbour_list.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace granite::collision {

class NeighbourTracking {
public:
  /// What a checkpoint keeps of the lists (with the particles' neighbour_reference): the step
  /// of the last build, its ghost width, and whether the lists are still valid for the
  /// present particles on this process (not stale; deletions are fine).
  struct RestartState {
    std::int64_t built_at = 0;
    double ghost_width = 0.0;
    bool valid = false;
  };

  /// Before a step, every particle owned: whether this process asks for a rebuild (the list
  /// is stale, or rebuild_every > 0 steps have passed since the last build). A restore first
  /// takes the particles as those of the build.
  bool wants_rebuild(const body::Particles& particles, double skin, int rebuild_every,
                     std::int64_t step);
  /// The agreed answer: this step rebuilds (true on every step without a skin: a full
  /// search, counted among the rebuilds).
  void set_rebuilding(bool rebuilding) {
    rebuilding_ = rebuilding;
    if (rebuilding) ++rebuilds_;
  }
  bool rebuilding() const { return rebuilding_; }

  /// For refreshing the ghosts between rebuilds (parallel::StepDomain::refresh_ghosts): the deletions
  /// since the last step as a map of the list's owned indices, and the ghosts' map (out).
  const std::vector<std::int64_t>& deleted_map() const { return deleted_map_; }
  std::vector<std::int64_t>& ghost_map() { return ghost_map_; }
  /// After the synchronisation, `owned` bodies owned: between rebuilds the list drops the
  /// deleted bodies and vanished ghosts (`ghosts_deleted`) and renames the others.
  void after_synchronise(std::size_t owned, bool ghosts_deleted);

  /// Particles were removed between steps (`gone[i]` for the index i they had): composes the
  /// deletion map, so that the list survives without a rebuild.
  void record_removal(const std::vector<char>& gone);

  /// The list for this step's detection: built on a rebuilding step (its step recorded), at
  /// the references when restoring a restart, otherwise as it is.
  const NeighbourList& list_for_step(body::Particles& particles, std::size_t owned,
                                     const body::GlobalBodies& globals, double threshold,
                                     double skin, std::int64_t step);

  RestartState restart_state(const body::Particles& particles, double skin,
                             double ghost_width) const;
  /// A restart: the build's step; with a valid state the next step decides from the
  /// references whether to rebuild, as the uninterrupted run does, and if not takes back the
  /// ghosts and lists of the last build.
  void restore(const RestartState& state, double skin);
  /// The state restore() took, until the next step's detection uses it.
  const std::optional<RestartState>& restoring() const { return restoring_; }

  void request_rebuild() { list_.invalidate(); }
  bool built() const { return list_.built(); }
  std::uint64_t rebuilds() const { return rebuilds_; }

private:
  NeighbourList list_;
  bool rebuilding_ = true;
  std::int64_t built_at_ = 0;  // step of the last build
  std::uint64_t rebuilds_ = 0;
  // deleted_map_: the list's owned index -> present index or -1 (empty: nothing deleted);
  // ghost_map_: the last refresh's ghost offsets.
  std::vector<std::int64_t> deleted_map_, ghost_map_;
  std::optional<RestartState> restoring_;
};

}  // namespace granite::collision
