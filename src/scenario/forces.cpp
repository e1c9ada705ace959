// `granite forces` (see include/granite/scenario/forces.hpp): the compatible contact forces of a
// checkpoint's state, by one step of the run's own code from that state.
#include "granite/scenario/forces.hpp"

#include "checkpoint_start.hpp"
#include "fixes/fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"
#include "granite/io/checkpoint.hpp"
#include "granite/io/snapshot.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/timestep/simulation.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/initial_state.hpp"
#include "granite/scenario/run_assembly.hpp"
#include "granite/timestep/finite_state.hpp"
#include "granite/solver/method.hpp"
#include "granite/scenario/engine_state.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

namespace granite::scenario {

bool forces_may_change(const std::string& key) {
  // solver.*: how the step's contact problem is solved, not the problem (the frictionless
  // step's velocities, and so F̃, are unique); domain.decomposition: where it is solved (any
  // rank count). contact.compatible*, youngs_modulus: the pass.
  const auto starts = [&key](const char* prefix) { return key.rfind(prefix, 0) == 0; };
  if (starts("solver.") || starts("contact.compatible") || starts("domain.decomposition"))
    return true;
  return starts("materials[") && key.size() > 15 &&
         key.compare(key.size() - 15, 15, ".youngs_modulus") == 0;
}

ForcesSummary compute_forces(const config::ScenarioConfig& given, const ForcesRequest& request,
                             const comm::Communicator& comm) {
  const auto start = std::chrono::steady_clock::now();
  config::ScenarioConfig cfg = given;
  measure_particle_files(cfg.settings, comm);  // their radii count in the decomposition
  const config::Settings& settings = cfg.settings;
  const std::string& file = request.checkpoint;
  if (!settings.contact.compatible)  // every rank alike
    throw InputError(cfg.file +
                     ": contact.compatible is off: give the law with --model hooke|hertz (or "
                     "--set contact.compatible=hooke)");
  if (const std::string why = solver::rank_mismatch(settings.solver.method, comm.size());
      !why.empty())  // every rank alike
    throw InputError(cfg.file + ": solver.method: " + why);

  // The run's own assembly (scenario/run.cpp): decomposition holding the stored particles'
  // ghost width, materials, global bodies and parameters from the configuration.
  const Domain domain = domain_of(settings.domain);
  double skin = 0.0;
  const parallel::Decomposition decomposition = detail::decomposition_of(
      settings, domain, comm.size(), io::checkpoint_largest_radius(file, comm), skin);
  Run assembly(cfg, comm, decomposition, skin, "", false);
  RunContext& run = assembly.context;
  timestep::Simulation& sim = assembly.sim;
  parallel::DistributedDomain& distributed = assembly.distributed;

  // The stored state: particles by position (any rank count), clock, global-body positions.
  const io::CheckpointState state = io::read_checkpoint(
      file, sim.particles(), detail::owner_of(run), comm, io::CheckpointRows::by_position);
  detail::refuse_changed_configuration(
      file, state, cfg,
      "granite forces solves the checkpoint's own scene; only run.end_time, run.thermo_every, "
      "output.*, solver.*, domain.decomposition, contact.compatible* and "
      "materials[].youngs_modulus may change",
      forces_may_change);
  detail::validate_restart_state(file, state, run);
  // Created before the anchors are set, as in a run: it keeps the configured shapes.
  std::unique_ptr<Fix> motion;
  if (std::any_of(settings.motions.begin(), settings.motions.end(),
                  [](const body::PrescribedMotion& m) { return m.moves() || m.has_window(); }))
    motion = detail::make_motion(sim.globals(), settings.motions, settings.run.dt);
  sim.set_clock(state.step);
  sim.globals().set_anchors(state.global_anchors);
  if (motion) motion->start(run);  // the coming step's wall velocities, from the clock
  // Not the neighbour lists: the pass makes its own build.
  if (settings.solver.warm_start > 0.0) restore_contact_history(state, sim, comm);
  // The stored state's overlaps are its run's own dynamics, as for a restart: not judged
  // against contact.max_initial_overlap (a dense flow holds some above it).
  check_initial_state(sim, &distributed, domain, std::nullopt, file + ": stored state", comm);

  // One step from the stored state with the pass; the stored particles are what is written.
  const body::Particles stored = sim.particles();  // owned only: ghosts exist within a step
  sim.set_record_contacts(true);
  const timestep::StepStatistics stats = sim.step();
  std::string failure = comm::first_failure(timestep::non_finite_state(sim), comm);
  if (failure.empty() && stats.failed_contacts > 0)
    failure =
        "the single-contact model failed on " + std::to_string(stats.failed_contacts) + " contacts";
  if (!failure.empty())
    throw RunFailure(file + ": the step from the stored state failed: " + failure +
                     "; nothing written");

  ForcesSummary s;
  s.step = state.step;
  s.time = state.time;
  s.particles = comm::sum(std::uint64_t(stored.size()), comm);
  s.contacts = stats.contacts;
  s.sweeps = stats.sweeps;
  s.relaxation_residual = stats.residual;
  s.fc3d_error = stats.fc3d_error;
  s.relaxation_converged = stats.converged;
  s.law = solver::contact_law_name(*settings.contact.compatible);
  s.tolerance = settings.contact.compatible_tolerance;
  s.compatible = sim.compatible_result();

  io::SnapshotInfo info;
  info.time = state.time;
  info.step = state.step;
  info.config = config::to_text(cfg.resolved);
  info.decomposition = decomposition.dims();
  info.compression = settings.output.compression;
  info.contacts = &sim.contact_record();
  info.shapes = &sim.shapes();
  info.text_attributes = {
      {"source", "granite forces"},
      {"checkpoint", file},
      {"contacts_of",
       "the step from the stored state (these particles, step and time) to the next: contacts "
       "detected at these positions, impulses over [time, time + dt], compatible pass on their "
       "net impulses (docs/compatible_forces.md)"}};
  info.number_attributes = {{"relaxation_sweeps", double(s.sweeps)},
                            {"relaxation_residual", s.relaxation_residual},
                            {"relaxation_fc3d_error", s.fc3d_error},
                            {"relaxation_converged", s.relaxation_converged ? 1.0 : 0.0}};
  s.output = request.output;
  if (s.output.empty()) {
    char name[48];
    std::snprintf(name, sizeof name, "forces_%08lld.h5", static_cast<long long>(state.step));
    s.output = (std::filesystem::path(file).parent_path() / name).string();
  }
  io::write_snapshot(s.output, stored, info, comm);

  s.relaxation_seconds = comm::max(
      sim.timers().seconds(Phase::relaxation) + sim.timers().seconds(Phase::communication), comm);
  s.compatible_seconds = comm::max(sim.timers().seconds(Phase::compatible), comm);
  s.total_seconds = comm::max(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), comm);
  return s;
}

}  // namespace granite::scenario
