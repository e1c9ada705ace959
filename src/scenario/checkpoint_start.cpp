// Starting from a stored state (see checkpoint_start.hpp): shared by run --restart, run --from
// and `granite forces`.
#include "checkpoint_start.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"
#include "granite/core/log.hpp"
#include "granite/scenario/settled_bed.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/parallel/unique_ids.hpp"
#include "granite/timestep/finite_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace granite::scenario::detail {

parallel::Decomposition decomposition_of(const config::Settings& settings, const Domain& domain,
                                         int ranks, double carried_radius, double& skin) {
  const bool automatic = settings.contact.skin < 0.0;
  const parallel::GhostWidth ghost{std::max(largest_radius(settings), carried_radius),
                                   settings.contact.threshold,
                                   automatic ? 0.0 : settings.contact.skin};
  // The load's extent from the configuration's sources: the same on a restart as in the run
  // it continues. Particles carried from a checkpoint (--from, forces) take the domain's.
  const Vec3 extent = domain.max - domain.min;
  const Vec3 load = load_extent(settings, extent, carried_radius <= 0.0);
  const parallel::Int3 dims = parallel::choose_dims(ranks, extent, settings.domain.decomposition,
                                                    ghost, domain.periodic, load);
  if (ranks > 1 && load != extent &&
      dims != parallel::choose_dims(ranks, extent, settings.domain.decomposition, ghost,
                                    domain.periodic)) {
    int axis = 0;
    (extent - load).maxCoeff(&axis);
    char text[256];
    std::snprintf(text, sizeof text,
                  "subdomains %dx%dx%d for the bed the particles settle into, about %.3g m deep "
                  "along %c (their volume over %.2g of the domain's cross-section; "
                  "docs/load_balance.md)",
                  dims[0], dims[1], dims[2], load[axis], "xyz"[axis], kBedPacking);
    log::info(text);
  }
  skin = neighbour_skin(settings);
  if (automatic)
    for (int a = 0; a < 3; ++a) {
      if (dims[a] == 1 && !domain.periodic[a]) continue;  // no neighbour along a
      const double width = (domain.max[a] - domain.min[a]) / double(dims[a]);
      // A hair inside, so that the subdomain-width test never rounds the other way.
      skin = std::min(skin, (width - ghost.value()) * (1.0 - 1e-9));
    }
  skin = std::max(skin, 0.0);
  return parallel::Decomposition({domain.min, domain.max}, dims, domain.periodic);
}

std::function<int(const Vec3&)> owner_of(const RunContext& run) {
  const parallel::Decomposition& decomposition = run.distributed->decomposition();
  return [&decomposition](const Vec3& x) { return decomposition.owner_of(x); };
}

void validate_restart_state(const std::string& file, const io::CheckpointState& state,
                            const RunContext& run) {
  std::string problem;
  const body::Particles& p = run.sim.particles();
  if (state.step < 0) problem = "step " + std::to_string(state.step) + " < 0";
  if (problem.empty() && !(std::isfinite(state.time) && state.time >= 0.0))
    problem = "time " + std::to_string(state.time) + " is not a finite time >= 0";
  for (std::size_t i = 0; i < p.size() && problem.empty(); ++i)
    if (!(p.radius[i] > 0.0))
      problem = "particle " + std::to_string(p.id[i]) + " has radius " +
                std::to_string(p.radius[i]) + " (expected > 0)";
  for (std::size_t i = 0; i < p.size() && problem.empty(); ++i)
    if (p.material[i] >= run.sim.materials().size())
      problem = "particle " + std::to_string(p.id[i]) + " has material " +
                std::to_string(p.material[i]) + " but " + run.config_file + " defines " +
                std::to_string(run.sim.materials().size()) + " materials";
  const auto shapes = std::int64_t(run.sim.shapes().size());
  for (std::size_t i = 0; i < p.size() && problem.empty(); ++i)
    if (p.shape[i] != body::kSphere && (p.shape[i] < 0 || p.shape[i] >= shapes))
      problem = "particle " + std::to_string(p.id[i]) + " has shape " + std::to_string(p.shape[i]) +
                " but " + run.config_file + " defines " + std::to_string(shapes) + " shapes";
  // Over all ranks (a restart on as many ranks keeps each row on the rank that wrote it).
  const std::optional<BodyId> twice = parallel::first_duplicate_id(
      std::vector<BodyId>(p.id.begin(), p.id.begin() + std::ptrdiff_t(p.size())), run.comm);
  if (problem.empty() && twice)
    problem = "particle id " + std::to_string(*twice) + " appears twice";
  if (problem.empty()) problem = timestep::non_finite_state(run.sim);
  problem = comm::first_failure(problem, run.comm);
  if (!problem.empty()) throw InputError(file + ": invalid checkpoint: " + problem);
}

void refuse_changed_configuration(const std::string& file, const io::CheckpointState& state,
                                  const config::ScenarioConfig& cfg, const std::string& why,
                                  const std::function<bool(const std::string&)>& also) {
  const std::vector<std::string> differences =
      config::restart_differences(state.config, cfg.resolved, also);
  if (differences.empty()) return;
  std::string listed;
  for (std::size_t k = 0; k < differences.size() && k < 3; ++k)
    listed += (k > 0 ? "; " : "") + differences[k];
  if (differences.size() > 3) listed += "; ... (" + std::to_string(differences.size()) + " keys)";
  throw InputError(file + ": written with a different configuration than " + cfg.file + " (" + why +
                   "): " + listed);
}

}  // namespace granite::scenario::detail
