// `granite run`: set up the scenario, step it, call the end-of-step objects after every
// step, and close with the run's report (log, run.json).
#include "granite/scenario/run.hpp"

#include "granite/body/triangle_mesh.hpp"
#include "granite/comm/collectives.hpp"
#include "granite/core/build_info.hpp"
#include "granite/core/error.hpp"
#include "granite/core/log.hpp"
#include "granite/io/atomic_file.hpp"
#include "granite/io/checkpoint.hpp"
#include "granite/io/run_record.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/timestep/simulation.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/engine_state.hpp"
#include "granite/scenario/fixes/fixes.hpp"
#include "granite/scenario/run_assembly.hpp"
#include "granite/scenario/initial_state.hpp"
#include "granite/scenario/local_meshes.hpp"
#include "granite/scenario/memory.hpp"
#include "granite/scenario/progress.hpp"
#include "granite/scenario/run_report.hpp"
#include "granite/timestep/finite_state.hpp"
#include "granite/solver/method.hpp"

#include "checkpoint_start.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

namespace granite::scenario {

namespace {

volatile std::sig_atomic_t g_stop_requested = 0;

// Rank 0 creates the output directory and records the resolved configuration in it; every
// rank learns whether that worked.
void prepare_output(const std::string& dir, const YAML::Node& resolved,
                    const comm::Communicator& comm) {
  std::string problem;
  if (comm.is_root()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    try {
      io::write_text_atomically((std::filesystem::path(dir) / "config.yaml").string(),
                                config::to_text(resolved));
    } catch (const std::exception& error) {
      problem = dir + ": cannot write the output directory (" + error.what() + ")";
    }
  }
  if (!comm::all_ok(problem.empty(), comm))
    throw InputError(problem.empty() ? dir + ": rank 0 cannot write the output directory"
                                     : problem + " (check --output / output.directory)");
}

// A fresh run into a directory holding the checkpoint of an unfinished run would overwrite the
// only way to continue it: refused (rank 0 looks; every rank throws its line) unless
// --overwrite. Unfinished: run.json missing, unreadable or not "completed".
void refuse_unfinished_run(const std::string& dir, const std::string& config_file,
                           const comm::Communicator& comm) {
  std::string problem;
  if (comm.is_root()) {
    const std::filesystem::path checkpoint = std::filesystem::path(dir) / "checkpoint.h5";
    std::error_code ec;
    if (std::filesystem::exists(checkpoint, ec)) {
      std::string status = "no readable run.json";
      std::ifstream in(std::filesystem::path(dir) / "run.json");
      const auto record = nlohmann::json::parse(in, nullptr, false);
      if (!record.is_discarded() && record.is_object() && record.contains("status") &&
          record["status"].is_string())
        status = "run.json status \"" + record["status"].get<std::string>() + "\"";
      if (status != "run.json status \"completed\"")
        problem = checkpoint.string() + " is the checkpoint of an unfinished run (" + status +
                  "); continue it with `granite run " + config_file + " --output " + dir +
                  " --restart " + checkpoint.string() + "`, or start afresh with --overwrite";
    }
  }
  comm::throw_if_any_failed(problem, comm);
}

// Continues from a checkpoint: particles, clock, global bodies and every fix's state.
nlohmann::ordered_json restore(const std::string& restart, const config::ScenarioConfig& cfg,
                               RunContext& run, const Fixes& fixes) {
  const io::CheckpointState state =
      io::read_checkpoint(restart, run.sim.particles(), detail::owner_of(run), run.comm);
  // --restart continues the same run bit for bit: a changed configuration is refused. On one
  // rank nothing crosses ranks, and the exchange mode changes nothing.
  const bool one_rank = run.comm.size() == 1;
  detail::refuse_changed_configuration(
      restart, state, cfg,
      "--restart continues the same run; only run.end_time, run.thermo_every and output.* may "
      "change (and solver.exchange on one rank)",
      [one_rank](const std::string& key) { return one_rank && key == "solver.exchange"; });
  detail::validate_restart_state(restart, state, run);
  run.sim.set_clock(state.step);
  run.sim.globals().set_anchors(state.global_anchors);
  restore_engine_state(state, run.sim, run.comm);
  for (const auto& fix : fixes) {
    if (!fix->has_state()) continue;
    const auto saved = state.fixes.find(fix->name());
    if (saved != state.fixes.end())
      fix->restore(saved->second);
    else
      log::info(std::string("warning: ") + restart + " has no state of '" + fix->name() +
                "'; it starts afresh");
  }
  run.last_checkpoint = restart + " (step " + std::to_string(state.step) + ")";
  run.checkpoint = {restart, state.step, run.sim.time(), file_written_unix(restart)};
  // What the busiest rank read (about 1/P of the rows on another rank count).
  const std::int64_t rows = comm::max(state.rows_read, run.comm);
  const std::int64_t history_rows = comm::max(state.history_rows_read, run.comm);
  const std::uint64_t particles = comm::sum(std::uint64_t(run.sim.particles().size()), run.comm);
  const char* how = state.history_as_written ? "each rank its own rows" : "each rank a share";
  log::info("restarted from " + restart + " at step " + std::to_string(state.step) +
            ", t = " + std::to_string(run.sim.time()) + " s (" + how + "; at most " +
            std::to_string(rows) + " of " + std::to_string(particles) + " particle rows and " +
            std::to_string(history_rows) + " history rows read by one rank)");
  return {{"from", restart},
          {"step", state.step},
          {"time", run.sim.time()},
          {"rows_read_max", {{"particles", rows}, {"history", history_rows}}}};
}

// --from: the particles of another run's checkpoint, with their full state, on the ranks of
// this run's decomposition; the clock, materials, global bodies, parameters and end-of-step
// objects from the configuration. Returns the first id free for new particles and fills the
// run record's "from" section.
BodyId carry_over(const std::string& from, RunContext& run, BodyId next_id,
                  nlohmann::ordered_json& record) {
  const io::CheckpointState state = io::read_checkpoint(
      from, run.sim.particles(), detail::owner_of(run), run.comm, io::CheckpointRows::by_position);
  detail::validate_restart_state(from, state, run);
  const body::Particles& p = run.sim.particles();
  const std::int64_t local_max =
      p.size() == 0 ? -1 : *std::max_element(p.id.begin(), p.id.begin() + std::ptrdiff_t(p.size()));
  const std::uint64_t carried = comm::sum(std::uint64_t(p.size()), run.comm);
  log::info("took " + std::to_string(carried) + " particles (full state) from " + from + " (step " +
            std::to_string(state.step) + ", t = " + std::to_string(state.time) + " s); from " +
            run.config_file +
            ": materials, global bodies, parameters and end-of-step objects; not taken: its "
            "initial particles, the clock (starts at t = 0), global-body positions and "
            "end-of-step state (statistics, warm-start history)");
  record = {{"from", from}, {"step", state.step}, {"time", state.time}, {"particles", carried}};
  return std::max(next_id, comm::max(local_max, run.comm) + 1);
}

// The random fills: one line each in the log (a warning when a fill stopped short of its
// target: a shortfall does not stop the run) and an entry in run.json "particle_sources".
nlohmann::ordered_json report_fills(const std::vector<SourceReport>& fills) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const SourceReport& f : fills) {
    char fraction[96];
    std::snprintf(fraction, sizeof fraction, "solid fraction %.4g", f.reached_fraction);
    const std::string what = f.shaped ? " particles" : " spheres";
    std::string target = f.requested > 0 ? std::to_string(f.requested) + what : "";
    if (f.requested == 0) {
      char text[64];
      std::snprintf(text, sizeof text, "solid fraction %.4g", f.requested_fraction);
      target = text;
    }
    log::info(std::string(f.short_of_target ? "warning: " : "") + "particles[" +
              std::to_string(f.source) + "] (random): " + std::to_string(f.created) + what + ", " +
              fraction + (f.short_of_target ? "; short of the target " : "; target ") + target +
              (f.short_of_target ? " (random sequential addition found no place for the next "
                                   "sphere: raise attempts or lower the target)"
                                 : ""));
    entries.push_back({{"source", f.source},
                       {"type", "random"},
                       {"requested_count", f.requested},
                       {"requested_solid_fraction", f.requested_fraction},
                       {"created", f.created},
                       {"solid_fraction", f.reached_fraction},
                       {"shortfall", f.short_of_target}});
  }
  return entries;
}

// One line per shape: its parts, mass properties (and how exact), bounding radius, and the shift
// of its frame to the centre of mass.
void log_shapes(const body::ShapeTable& shapes) {
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const body::Shape& s = shapes[body::ShapeIndex(k)];
    const body::MassProperties& m = s.unit_mass;
    char how[96] = "exact: disjoint parts";
    if (!m.exact)
      std::snprintf(how, sizeof how, "overlaps integrated, relative error %.2g", m.relative_error);
    char text[400];
    if (s.kind == body::ShapeKind::capsule)
      std::snprintf(text, sizeof text,
                    "  shape %s: capsule of radius %.6g m around a segment of half length %.6g m, "
                    "volume %.6g m^3 (exact), bounding radius %.6g m",
                    s.name.c_str(), s.radius, s.half_length, m.volume, s.bounding_radius);
    else if (s.kind == body::ShapeKind::box)
      std::snprintf(text, sizeof text,
                    "  shape %s: box of half extents (%.6g, %.6g, %.6g) m, volume %.6g m^3 "
                    "(exact), bounding radius %.6g m",
                    s.name.c_str(), s.half_extents[0], s.half_extents[1], s.half_extents[2],
                    m.volume, s.bounding_radius);
    else if (s.kind == body::ShapeKind::ellipsoid)
      std::snprintf(text, sizeof text,
                    "  shape %s: ellipsoid of semi-axes (%.6g, %.6g, %.6g) m, volume %.6g m^3 "
                    "(exact), bounding radius %.6g m",
                    s.name.c_str(), s.semi_axes[0], s.semi_axes[1], s.semi_axes[2], m.volume,
                    s.bounding_radius);
    else if (s.kind == body::ShapeKind::convex)
      std::snprintf(text, sizeof text,
                    "  shape %s: convex polyhedron of %zu vertices and %zu faces, volume %.6g "
                    "m^3 (exact), bounding radius %.6g m, centre of mass at (%.6g, %.6g, %.6g) "
                    "m in the given frame (vertices moved by its opposite)",
                    s.name.c_str(), s.polyhedron.vertices.size(), s.polyhedron.faces.size(),
                    m.volume, s.bounding_radius, s.shift[0], s.shift[1], s.shift[2]);
    else
      std::snprintf(text, sizeof text,
                    "  shape %s: clump of %zu spheres, volume %.6g m^3 (%s), bounding radius "
                    "%.6g m, centre of mass at (%.6g, %.6g, %.6g) m in the given frame (parts "
                    "moved by its opposite)",
                    s.name.c_str(), s.parts.size(), m.volume, how, s.bounding_radius, s.shift[0],
                    s.shift[1], s.shift[2]);
    log::info(text);
  }
}

// One line per mesh wall: its triangles, what the build dropped and merged, its edges, and the
// triangles each rank keeps of it (scenario/local_meshes.hpp). Collective.
void log_meshes(const body::GlobalBodies& bodies, const std::vector<LocalMesh>& locals,
                const comm::Communicator& comm) {
  for (const LocalMesh& local : locals) {
    const auto& wall = std::get<body::Mesh>(bodies[local.body].parts[local.part]);
    const body::TriangleMesh& m = *wall.mesh;
    std::size_t boundary = 0, non_manifold = 0;  // of this rank's part: rank 0 reports its own
    for (std::int32_t e = 0; e < std::int32_t(m.edge_count()); ++e) {
      boundary += m.edge(e).kind == body::EdgeKind::boundary;
      non_manifold += m.edge(e).kind == body::EdgeKind::non_manifold;
    }
    const auto most = comm::max(std::int64_t(local.kept), comm);
    const auto least = -comm::max(-std::int64_t(local.kept), comm);
    const auto written = comm::sum(std::int64_t(local.owned), comm);
    log::info("  mesh bodies[" + std::to_string(local.body) + "]: " + std::to_string(local.whole) +
              " triangles (" + std::to_string(m.dropped_triangles()) + " of zero area dropped, " +
              std::to_string(m.merged_vertices()) + " repeated vertices merged, " +
              std::to_string(m.inconsistent_edges()) +
              " edges between triangles of opposite orientation); each rank keeps " +
              std::to_string(least) + ".." + std::to_string(most) +
              (local.split ? " near its subdomain" : " (the whole mesh: it moves or is balanced)") +
              ", " + std::to_string(written) +
              " in snapshots; rank 0's part: " + std::to_string(m.vertex_count()) + " vertices, " +
              std::to_string(m.edge_count()) + " edges, " + std::to_string(boundary) +
              " boundary, " + std::to_string(non_manifold) + " non-manifold");
  }
}

// Each rank's part of the mesh walls, once the particles are built (the fills test candidates
// against whole meshes); the configuration then shares it, so the whole meshes are freed.
std::vector<LocalMesh> keep_local_meshes(config::ScenarioConfig& cfg, RunContext& run,
                                         double skin) {
  const config::Settings& s = cfg.settings;
  const double r =
      std::max(largest_radius(s), comm::max(run.sim.particles().max_radius(), run.comm));
  const double ghost = parallel::GhostWidth{r, s.contact.threshold, skin}.value();
  body::GlobalBodies& globals = run.sim.globals();
  std::vector<LocalMesh> meshes =
      keep_local_triangles(globals, s, run.distributed->decomposition(), run.comm.rank(),
                           local_mesh_margin(ghost, skin));
  for (std::size_t b = 0; b < globals.size(); ++b) cfg.settings.bodies[b].parts = globals[b].parts;
  if (!meshes.empty()) release_free_memory();
  return meshes;
}

// The run log's first lines: what runs, on how many ranks, and its end-of-step objects.
void log_header(const config::ScenarioConfig& cfg, const RunContext& run, const Fixes& fixes,
                const std::vector<LocalMesh>& meshes, std::uint64_t particles, std::int64_t steps) {
  const auto& dims = run.decomposition;
  log::info("granite run " + cfg.file + ": " + std::to_string(particles) + " particles, " +
            std::to_string(run.sim.globals().size()) + " global bodies, " + std::to_string(steps) +
            " steps of " + std::to_string(cfg.settings.run.dt) + " s, model " +
            std::string(contact::model_name(cfg.settings.contact.model.model)) + ", " +
            std::to_string(run.comm.size()) + " ranks as " + std::to_string(dims[0]) + "x" +
            std::to_string(dims[1]) + "x" + std::to_string(dims[2]) + ", output in " +
            run.output_dir);
  if (run.comm.size() > 1) {
    const bool overlapped = run.sim.parameters().overlap_exchange;
    std::string line =
        std::string("  solver.exchange: ") + (overlapped ? "overlapped" : "after_sweep");
    if (cfg.settings.solver.exchange == config::ExchangeMode::automatic)
      line += overlapped ? " (auto: the ranks span several nodes)"
                         : " (auto: the ranks share one node)";
    log::info(line);
  }
  for (const auto& fix : fixes)
    log::info(std::string("  fix ") + fix->name() + ": " + fix->description());
  log_shapes(cfg.settings.shapes);
  log_meshes(run.sim.globals(), meshes, run.comm);
}

// The bytes of a body's mesh walls as it holds them (body::TriangleMesh::bytes).
double mesh_bytes(const body::GlobalBody& body) {
  double bytes = 0.0;
  for (const body::Primitive& part : body.parts)
    if (const auto* wall = std::get_if<body::Mesh>(&part)) bytes += double(wall->mesh->bytes());
  return bytes;
}

// This rank's memory estimate at the start: its particles, their contacts, and the ghosts
// within the halo width (2 r_max + contact threshold) of its subdomain, its mesh walls, and
// `process`, what it held before it made its particles.
MemoryEstimate estimate_of(const RunContext& run, const parallel::Decomposition& decomposition,
                           double threshold, bool warm_start, double process) {
  const auto& radius = run.sim.particles().radius;
  const double local_max = radius.empty() ? 0.0 : *std::max_element(radius.begin(), radius.end());
  const double r_max = comm::max(local_max, run.comm);
  const parallel::Box box = decomposition.subdomain(run.comm.rank());
  MemoryEstimate estimate = estimate_memory(run.sim.particles().size(), box.min, box.max,
                                            2.0 * r_max + threshold, warm_start);
  const body::GlobalBodies& globals = run.sim.globals();
  for (std::size_t b = 0; b < globals.size(); ++b) estimate.meshes += mesh_bytes(globals[b]);
  estimate.process = process;
  return estimate;
}

// The run record's opening sections; the record on disk says "running" until the run ends.
nlohmann::ordered_json begin_record(const config::ScenarioConfig& cfg, const RunContext& run,
                                    const Fixes& fixes, const nlohmann::ordered_json& restarted,
                                    const nlohmann::ordered_json& carried) {
  nlohmann::ordered_json record;
  record["format"] = io::kRunRecordFormat;
  record["format_version"] = io::kRunRecordVersion;
  record["status"] = "running";
  record["granite"] = {{"version", build_info::version()},
                       {"git_commit", build_info::git_commit()}};
  record["config_file"] = cfg.file;
  record["config"] = io::config_to_json(cfg.resolved);
  record["output_directory"] = run.output_dir;
  record["ranks"] = run.comm.size();
  record["decomposition"] = run.decomposition;
  record["restart"] = restarted;
  record["from"] = carried;
  nlohmann::ordered_json fix_list = nlohmann::ordered_json::array();
  for (const auto& fix : fixes)
    fix_list.push_back({{"name", fix->name()}, {"description", fix->description()}});
  record["fixes"] = fix_list;
  record["statistics"] = nullptr;  // filled in by the statistics fix at the end
  return record;
}

std::string last_checkpoint(const RunContext& run) {
  return "; last checkpoint: " +
         (run.last_checkpoint.empty() ? std::string("no checkpoint yet") : run.last_checkpoint);
}

// Policy for a failed single-contact solve (contact.model polyhedral: Lemke's answer failed
// its check and the contact got the frictionless stand-in): the run stops at that step, on
// every rank (the count is summed over ranks), rather than go on with a different model.
std::string failed_contacts_failure(const RunContext& run, const timestep::StepStatistics& stats) {
  if (stats.failed_contacts == 0) return "";
  return "step " + std::to_string(run.sim.steps()) + ": the single-contact model " +
         std::string(contact::model_name(run.sim.parameters().model.model)) + " failed on " +
         std::to_string(stats.failed_contacts) + " of " + std::to_string(stats.contacts) +
         " contacts (Lemke's answer failed its check; `granite contact` shows such a problem)" +
         last_checkpoint(run);
}

// "" if every rank's state is finite after the step; otherwise the line that stops the run,
// naming the first offender of the lowest rank that has one.
std::string non_finite_failure(const RunContext& run) {
  const std::string found = comm::first_failure(timestep::non_finite_state(run.sim), run.comm);
  if (found.empty()) return "";
  return "non-finite state at step " + std::to_string(run.sim.steps()) + ": " + found +
         last_checkpoint(run);
}

// The time loop: a step, then every fix, until step `last`, a stop request on any rank, or a
// non-finite state on any rank. The state is checked before the fixes so that no snapshot or
// checkpoint holds it: the checkpoint on disk stays the last good one.
RunSummary step_to(std::int64_t last, RunContext& run, const Fixes& fixes,
                   const parallel::DistributedDomain& distributed) {
  timestep::Simulation& sim = run.sim;
  RunSummary summary;
  summary.first_step = sim.steps();
  summary.planned_steps = last;
  summary.start_time = sim.time();
  std::uint64_t exchange_bytes = 0, ghost_bytes = 0, ghosts = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::int64_t n = sim.steps(); n < last && !summary.stopped_early; ++n) {
    const timestep::StepStatistics* step = nullptr;
    try {
      inject_allocation_failure(n + 1);
      step = &sim.step();
    } catch (const parallel::SubdomainTooThin& e) {  // thrown on every rank alike
      summary.failure = "step " + std::to_string(n + 1) + ": " + e.what();
      break;
    } catch (const timestep::StepFailure& e) {  // solver.method lemke: single rank only
      summary.failure = "step " + std::to_string(n + 1) + ": " + e.what() + last_checkpoint(run);
      break;
    }
    const timestep::StepStatistics& stats = *step;
    summary.failure = non_finite_failure(run);
    if (summary.failure.empty()) summary.failure = failed_contacts_failure(run, stats);
    if (!summary.failure.empty()) break;
    exchange_bytes += distributed.relaxation_bytes();
    ghost_bytes += distributed.synchronise_bytes();
    ghosts += distributed.ghost_count();
    summary.neighbour_rebuilds += stats.neighbour_rebuild ? 1 : 0;
    summary.sweeps += std::uint64_t(stats.sweeps);
    summary.unconverged_steps += stats.converged ? 0 : 1;
    summary.fc3d_errors.push_back(stats.fc3d_error);
    const StepEnd end{n + 1 == last, !comm::all_ok(g_stop_requested == 0, run.comm)};
    for (const auto& fix : fixes) {
      ScopedPhase timer(sim.timers(), fix->phase());
      fix->end_of_step(run, stats, end);
    }
    summary.stopped_early = end.stop;
  }
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.steps = sim.steps() - summary.first_step;
  summary.end_time = sim.time();
  summary.particles = comm::sum(sim.particles().size(), run.comm);
  summary.generated = run.counters.generated;
  summary.deleted = comm::sum(run.counters.deleted, run.comm);
  summary.lost = comm::sum(run.counters.lost, run.comm);
  summary.moved_beyond_radius = comm::sum(run.counters.moved_beyond_radius, run.comm);
  const std::uint64_t bytes = comm::sum(exchange_bytes, run.comm);
  summary.bytes_per_sweep = summary.sweeps > 0 ? double(bytes) / double(summary.sweeps) : 0.0;
  summary.skin = sim.parameters().skin;
  summary.overlapped_exchange = sim.parameters().overlap_exchange;
  std::vector<std::uint64_t> sync{ghost_bytes, ghosts};
  comm::sum_in_place(sync, run.comm);
  const double steps = double(std::max<std::int64_t>(summary.steps, 1));
  summary.ghost_bytes_per_step = double(sync[0]) / steps;
  summary.ghosts_per_step = double(sync[1]) / steps;
  return summary;
}

}  // namespace

void request_stop() { g_stop_requested = 1; }

RunSummary run_scenario(config::ScenarioConfig cfg, const std::string& output_dir,
                        const comm::Communicator& comm, const RunStart& start) {
  // Resident before the particles, less the whole mesh walls (counted in their parts below).
  double whole_meshes = 0.0;
  for (const body::GlobalBody& body : cfg.settings.bodies) whole_meshes += mesh_bytes(body);
  const double process = std::max(0.0, resident_bytes() - whole_meshes);
  measure_particle_files(cfg.settings, comm);  // their radii count in the decomposition
  const config::Settings& settings = cfg.settings;
  const std::string& restart = start.restart;
  if (const std::string why = solver::rank_mismatch(settings.solver.method, comm.size());
      !why.empty())  // every rank alike
    throw InputError(cfg.file + ": solver.method: " + why);
  const Domain domain = domain_of(settings.domain);
  double skin = 0.0;
  const parallel::Decomposition decomposition = detail::decomposition_of(
      settings, domain, comm.size(),
      start.from.empty() ? 0.0 : io::checkpoint_largest_radius(start.from, comm), skin);
  if (restart.empty() && !start.overwrite) refuse_unfinished_run(output_dir, cfg.file, comm);
  prepare_output(output_dir, cfg.resolved, comm);

  // On restart or --from the configuration still gives materials, global bodies and
  // parameters; the particles (and on restart everything that evolved) come from the checkpoint.
  const bool particles_from_file = !restart.empty() || !start.from.empty();
  std::vector<SourceReport> fills;
  Run assembly(cfg, comm, decomposition, skin, output_dir, !particles_from_file, &fills);
  RunContext& run = assembly.context;
  timestep::Simulation& sim = assembly.sim;
  parallel::DistributedDomain& distributed = assembly.distributed;
  BodyId next_id = assembly.next_id;
  nlohmann::ordered_json restarted = nullptr, carried = nullptr;
  if (!start.from.empty()) next_id = carry_over(start.from, run, next_id, carried);
  const std::vector<LocalMesh> meshes = keep_local_meshes(cfg, run, skin);
  const Fixes fixes = make_fixes(cfg, run, next_id, !restart.empty());
  run.fixes = &fixes;
  if (!restart.empty()) restarted = restore(restart, cfg, run, fixes);
  const std::string origin = !restart.empty()      ? restart + ": restart state"
                             : !start.from.empty() ? start.from + ": particles taken by --from"
                                                   : cfg.file + ": initial state";
  // A restart's overlaps are the run's own dynamics (a dense flow holds some beyond 1 % of a
  // radius): judging them again would make a run unable to continue from its own checkpoint.
  const std::optional<double> max_overlap =
      restart.empty() ? std::optional(settings.contact.max_initial_overlap) : std::nullopt;
  check_initial_state(sim, &distributed, domain, max_overlap, origin, comm);

  const std::int64_t steps = planned_steps(settings.run);
  const std::uint64_t initial_particles = comm::sum(sim.particles().size(), comm);
  log_header(cfg, run, fixes, meshes, initial_particles, steps);
  const nlohmann::ordered_json sources =
      particles_from_file ? nlohmann::ordered_json::array() : report_fills(fills);
  const MemoryEstimate memory =
      estimate_of(run, distributed.decomposition(), settings.contact.threshold,
                  settings.solver.warm_start > 0.0, process);
  log::info(memory_estimate_line(memory, comm));
  check_memory_fits(memory, comm);
  nlohmann::ordered_json record = begin_record(cfg, run, fixes, restarted, carried);
  record["particle_sources"] = sources;
  run.publish_record = [&] {
    if (!comm.is_root()) return;
    nlohmann::ordered_json now = record;
    add_record_sections(fixes, now);
    io::write_run_record(output_dir, now);
  };
  io::on_root_collectively(comm, [&] { io::write_run_record(output_dir, record); });

  for (const auto& fix : fixes) fix->start(run);
  RunSummary summary;
  try {
    summary = step_to(steps, run, fixes, distributed);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("out of memory at step " + std::to_string(sim.steps() + 1) + " on rank " +
                      std::to_string(comm.rank()) + " (estimate " + format_bytes(memory.total()) +
                      ", docs/performance.md, memory)");
  }
  summary.initial_particles = initial_particles;
  summary.tolerance = settings.solver.tolerance;
  summary.convergence = name_of(solver::kConvergenceNames, settings.solver.convergence);
  const std::vector<PhaseSpread> spreads = phase_spreads(sim.timers(), comm);
  if (summary.failure.empty()) {
    log::info(closing_report(summary, spreads));
    for (const auto& fix : fixes) fix->finish(run);
  }

  std::string peak_line;
  const nlohmann::ordered_json peak = peak_memory_record(comm, peak_line);
  if (summary.failure.empty()) log::info(peak_line);

  complete_record(record, summary, spreads, settings.run, sim.statistics());
  record["memory"] = {{"estimated_bytes_largest_rank", comm::max(memory.total(), comm)},
                      {"peak_resident_bytes", peak}};
  add_record_sections(fixes, record);
  io::on_root_collectively(comm, [&] { io::write_run_record(output_dir, record); });
  if (!summary.failure.empty()) throw RunFailure(summary.failure);
  return summary;
}

}  // namespace granite::scenario
