#pragma once
// What a run that starts from a stored state (run --restart, run --from, `granite forces`)
// shares: the decomposition that holds the stored particles' ghost width, the checks of a
// checkpoint's clock and particles, and the refusal of a configuration that differs from the
// one the checkpoint was written with. Private to src/scenario.
#include "granite/io/checkpoint.hpp"
#include "granite/config/config.hpp"
#include "granite/parallel/decomposition.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/fixes/fix.hpp"

#include <functional>
#include <string>

namespace granite::scenario::detail {

/// Subdomains at least as wide as the ghost layer of the largest particle the configuration
/// makes or `carried_radius` (the largest radius of particles that do not come from the
/// configuration, e.g. a checkpoint's), or an InputError before anything is written
/// (parallel::choose_dims, for the load's extent: scenario/settled_bed.hpp, predicted from the
/// configuration's sources unless particles are carried, carried_radius > 0). `skin` (out): the neighbour-list skin of the run: contact.skin
/// (which counts in the ghost width, and so may make the choice fail), or if it is absent
/// neighbour_skin() reduced as far as needed, down to 0, for the subdomains of the ghost
/// width without a skin to hold it.
parallel::Decomposition decomposition_of(const config::Settings& settings, const Domain& domain,
                                         int ranks, double carried_radius, double& skin);

/// The rank whose subdomain (of the run's decomposition as it is now) holds a position: where
/// io::read_checkpoint sends a stored particle.
std::function<int(const Vec3&)> owner_of(const RunContext& run);

/// A checkpoint's clock and particles before use (the initial-state checks then look at the
/// domain and overlaps): step >= 0, a finite time >= 0, radii > 0, materials of the
/// configuration, unique ids (over all ranks: parallel/unique_ids.hpp), a finite state. Collective: every
/// rank throws the lowest rank's line, "FILE: invalid checkpoint: ...".
void validate_restart_state(const std::string& file, const io::CheckpointState& state,
                            const RunContext& run);

/// Collective (every rank read the same checkpoint and configuration, so every rank throws
/// alike): InputError "FILE: written with a different configuration than CONFIG (WHY): the
/// first three keys" if the configuration stored in `state` differs from `cfg` in a key
/// other than those a restart may change (config::restart_differences) and those `also`
/// accepts.
void refuse_changed_configuration(const std::string& file, const io::CheckpointState& state,
                                  const config::ScenarioConfig& cfg, const std::string& why,
                                  const std::function<bool(const std::string&)>& also = {});

}  // namespace granite::scenario::detail
