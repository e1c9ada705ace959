#include "granite/scenario/run.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"
#include "granite/core/log.hpp"
#include "granite/io/checkpoint.hpp"
#include "granite/io/fclib.hpp"
#include "granite/solver/contact_problem_export.hpp"
#include "granite/io/snapshot.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/parallel/run_report.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/flow_statistics.hpp"
#include "granite/scenario/inflow.hpp"
#include "granite/timestep/report.hpp"

#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

namespace granite::scenario {

namespace {

volatile std::sig_atomic_t g_stop_requested = 0;

std::string csv_row(const timestep::StepStatistics& s) {
  char line[256];
  std::snprintf(line, sizeof line, "%lld,%.9g,%zu,%zu,%d,%.3e,%.6e,%.9e\n",
                static_cast<long long>(s.step), s.time, s.particles, s.contacts, s.sweeps,
                s.residual, s.max_penetration, s.kinetic_energy);
  return line;
}

// A CSV table: a new file with its header, or (continuing a restarted run) the existing one.
std::ofstream open_table(const std::filesystem::path& path, const std::string& header,
                         bool append) {
  const bool existing = append && std::filesystem::exists(path);
  std::ofstream out(path, existing ? std::ios::app : std::ios::trunc);
  if (!existing) out << header;
  return out;
}

// Rank 0 writes the run's text files; every rank learns whether that worked.
struct RunFiles {
  std::ofstream csv;

  RunFiles(const std::string& dir, const YAML::Node& resolved, bool write_csv, bool root,
           bool restarting, const comm::Communicator& comm) {
    std::string problem;
    if (root) {
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      std::ofstream config(std::filesystem::path(dir) / "config.yaml");
      config << config::to_text(resolved);
      if (ec || !config) problem = dir + ": cannot write the output directory";
      if (write_csv && problem.empty()) {
        csv = open_table(std::filesystem::path(dir) / "thermo.csv",
                         "step,time_s,particles,contacts,sweeps,residual,max_penetration_m,"
                         "kinetic_energy_J\n",
                         restarting);
        if (!csv) problem = dir + "/thermo.csv: cannot write";
      }
    }
    if (!comm::all_ok(problem.empty(), comm))
      throw InputError(problem.empty() ? dir + ": rank 0 cannot write the output directory"
                                       : problem + " (check --output / output.directory)");
  }
};

parallel::Decomposition decomposition_of(const config::Settings& settings, const Domain& domain,
                                         int ranks) {
  const parallel::Int3 requested = settings.domain.decomposition;
  const parallel::Int3 dims = parallel::choose_dims(ranks, domain.max - domain.min, requested);
  return parallel::Decomposition({domain.min, domain.max}, dims, domain.periodic);
}

}  // namespace

void request_stop() { g_stop_requested = 1; }

RunSummary run_scenario(const config::ScenarioConfig& cfg, const std::string& output_dir,
                        const comm::Communicator& comm, const std::string& restart) {
  const YAML::Node& r = cfg.resolved;
  const config::Settings& settings = cfg.settings;
  const int rank = comm.rank(), ranks = comm.size();
  const bool write_csv = settings.output.thermo_file;
  RunFiles files(output_dir, r, write_csv, rank == 0, !restart.empty(), comm);

  const Domain domain = domain_of(settings.domain);
  const parallel::Decomposition decomposition = decomposition_of(settings, domain, ranks);
  parallel::DistributedDomain distributed(
      comm.native(), decomposition, settings.contact.threshold,
      {settings.solver.relaxation_weight, settings.solver.check_every});

  const auto seed = settings.run.seed;
  std::mt19937_64 rng(seed);
  timestep::Simulation sim;
  const OwnsPosition owns = [&](const Vec3& x) { return decomposition.owner_of(x) == rank; };
  // On restart the configuration still gives materials, global bodies and parameters; the
  // particles and everything that evolved come from the checkpoint.
  const BodyId next_id = build_simulation(
      settings, sim, rng, restart.empty() ? owns : OwnsPosition([](const Vec3&) { return false; }));
  sim.set_hooks(&distributed);
  // The inflow's random numbers come from their own stream, so adding an inflow does not
  // change the initial particles.
  std::optional<Inflow> inflow;
  if (settings.inflow) inflow.emplace(*settings.inflow, next_id, seed ^ 0x9e3779b97f4a7c15ULL);
  std::optional<FlowStatistics> statistics;
  std::ofstream statistics_csv;
  if (settings.statistics) {
    statistics.emplace(*settings.statistics, settings.domain, comm);
    if (rank == 0) {
      statistics_csv = open_table(std::filesystem::path(output_dir) / "statistics.csv",
                                  FlowStatistics::csv_header(), !restart.empty());
    }
  }

  if (!restart.empty()) {
    const io::CheckpointState state = io::read_checkpoint(restart, sim.particles(), owns, comm);
    if (state.config != config::to_text(r))
      log::info("warning: " + restart +
                " was written with a different configuration; "
                "continuing with " +
                cfg.file);
    sim.set_clock(state.step, state.time);
    sim.globals().set_anchors(state.global_anchors);
    std::istringstream extra(state.extra);
    std::string inflow_state, statistics_state;
    std::getline(extra, inflow_state, '\f');
    std::getline(extra, statistics_state, '\f');
    if (inflow) inflow->restore(inflow_state);
    if (statistics) statistics->restore(statistics_state);
    log::info("restarted from " + restart + " at step " + std::to_string(state.step) +
              ", t = " + std::to_string(state.time) + " s");
  }
  auto write_checkpoint = [&]() {
    ScopedPhase timer(sim.timers(), Phase::output);
    io::CheckpointState state;
    state.step = sim.steps();
    state.time = sim.time();
    state.global_anchors = sim.globals().anchors();
    state.extra = (inflow ? inflow->state() : std::string()) + '\f' +
                  (statistics ? statistics->state() : std::string());
    state.config = config::to_text(r);
    const std::string path = (std::filesystem::path(output_dir) / "checkpoint.h5").string();
    io::write_checkpoint(path, sim.particles(), state, comm);
    return path;
  };

  // FCLIB export of chosen steps' contact problems (W needs every contact: one rank only).
  std::set<std::int64_t> export_steps(settings.output.export_fclib_steps.begin(),
                                      settings.output.export_fclib_steps.end());
  if (!export_steps.empty()) {
    if (ranks > 1)
      throw InputError("output.export_fclib_steps: the FCLIB export needs a single-rank run");
    sim.set_contact_problem_observer([&](const std::vector<solver::SolverContact>& contacts,
                                         const std::vector<solver::BodyState>& states) {
      const std::int64_t step = sim.steps() + 1;  // the step being computed
      if (!export_steps.count(step)) return;
      io::FclibMatrix W;
      Eigen::VectorXd q, mu;
      solver::export_contact_problem(contacts, states, W, q, mu);
      io::write_fclib_local((std::filesystem::path(output_dir) /
                             ("contact_problem_" + std::to_string(step) + ".hdf5"))
                                .string(),
                            W, q, mu);
    });
  }

  const double dt = settings.run.dt;
  const auto steps = static_cast<std::int64_t>(std::ceil(settings.run.end_time / dt - 1e-9));
  const int thermo_every = settings.run.thermo_every;
  const auto& dims = decomposition.dims();
  log::info("granite run " + cfg.file + ": " +
            std::to_string(comm::sum(sim.particles().size(), comm)) + " particles, " +
            std::to_string(sim.globals().size()) + " global bodies, " + std::to_string(steps) +
            " steps of " + std::to_string(dt) + " s, model " +
            std::string(contact::model_name(settings.contact.model.model)) + ", " +
            std::to_string(ranks) + " ranks as " + std::to_string(dims[0]) + "x" +
            std::to_string(dims[1]) + "x" + std::to_string(dims[2]) + ", output in " + output_dir);
  log::info(timestep::thermo_header());

  io::SnapshotWriter snapshots(output_dir, comm);
  io::SnapshotInfo snapshot_info;
  snapshot_info.config = config::to_text(r);
  snapshot_info.decomposition = dims;
  snapshot_info.compression = settings.output.compression;
  const double snapshot_interval = settings.output.snapshot_interval;
  // Step numbers of the snapshots: every interval (rounded to whole steps) and the last step.
  const std::int64_t snapshot_every =
      snapshot_interval > 0 ? std::max<std::int64_t>(1, std::llround(snapshot_interval / dt))
                            : steps;
  auto write_snapshot = [&](const timestep::StepStatistics& stats) {
    ScopedPhase timer(sim.timers(), Phase::output);
    snapshot_info.time = stats.time;
    snapshot_info.step = stats.step;
    snapshots.write(sim.particles(), snapshot_info);
  };

  const std::int64_t statistics_every =
      statistics ? std::max<std::int64_t>(1, std::llround(statistics->interval() / dt)) : steps;

  RunSummary summary;
  std::uint64_t exchange_bytes = 0, sweeps = 0;
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t first_step = sim.steps();
  const double checkpoint_interval = settings.output.checkpoint_interval;
  const std::int64_t checkpoint_every =
      checkpoint_interval > 0 ? std::max<std::int64_t>(1, std::llround(checkpoint_interval / dt))
                              : steps;
  for (std::int64_t n = sim.steps(); n < steps; ++n) {
    const timestep::StepStatistics& stats = sim.step();
    exchange_bytes += distributed.relaxation_bytes();
    sweeps += std::uint64_t(stats.sweeps);
    {
      ScopedPhase timer(sim.timers(), Phase::other);  // inflow and outflow
      if (inflow) summary.generated += inflow->after_step(sim, dt, owns);
      sim.remove_particles([&](const body::Particles& p, std::size_t i) {
        const int face = domain.exit_face(p.position[i]);
        if (face < 0) return false;
        ++(domain.outflow[face] ? summary.deleted : summary.escaped);
        return true;
      });
    }
    if (statistics && (stats.step % statistics_every == 0 || n + 1 == steps)) {
      ScopedPhase timer(sim.timers(), Phase::output);
      const FlowSample sample = statistics->sample(sim, stats);
      if (rank == 0) statistics_csv << FlowStatistics::csv_row(sample) << std::flush;
    }
    if (stats.step % thermo_every == 0 || n + 1 == steps) {
      ScopedPhase timer(sim.timers(), Phase::output);
      log::info(timestep::thermo_line(stats));
      if (rank == 0 && write_csv) files.csv << csv_row(stats) << std::flush;
    }
    if (stats.step % snapshot_every == 0 || n + 1 == steps) write_snapshot(stats);
    const bool stop = !comm::all_ok(g_stop_requested == 0, comm);
    if (stats.step % checkpoint_every == 0 || n + 1 == steps || stop) {
      const std::string path = write_checkpoint();
      if (stop) {
        log::info("stopped on request at step " + std::to_string(stats.step) +
                  "; continue with: "
                  "granite run " +
                  cfg.file + " --output " + output_dir + " --restart " + path);
        summary.stopped_early = true;
        break;
      }
    }
  }
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.steps = sim.steps() - first_step;
  summary.particles = comm::sum(sim.particles().size(), comm);
  summary.deleted = comm::sum(summary.deleted, comm);
  summary.escaped = comm::sum(summary.escaped, comm);
  const std::uint64_t total_bytes = comm::sum(exchange_bytes, comm);
  const std::string timing = parallel::timing_table(sim.timers(), comm);

  char line[256];
  std::snprintf(line, sizeof line,
                "done: %lld steps in %.3f s wall (%.1f steps/s), %llu particles left, %llu "
                "generated by inflow, %llu deleted by outflow",
                static_cast<long long>(summary.steps), summary.wall_seconds,
                summary.wall_seconds > 0 ? double(summary.steps) / summary.wall_seconds : 0.0,
                static_cast<unsigned long long>(summary.particles),
                static_cast<unsigned long long>(summary.generated),
                static_cast<unsigned long long>(summary.deleted));
  log::info(line);
  std::snprintf(line, sizeof line,
                "relaxation exchange: %.0f bytes sent per sweep (all ranks), %llu sweeps in all",
                sweeps > 0 ? double(total_bytes) / double(sweeps) : 0.0,
                static_cast<unsigned long long>(sweeps));
  log::info(line);
  if (summary.escaped > 0)
    log::info("warning: " + std::to_string(summary.escaped) +
              " particles left the domain through "
              "a face that is not an outflow face (domain.outflow): they went through a wall; "
              "check the time step, contact threshold and error reduction");
  log::info(timing);
  if (statistics) {
    const std::string table =
        statistics->summary(std::string(contact::model_name(settings.contact.model.model)));
    log::info(table);
    if (rank == 0)
      std::ofstream(std::filesystem::path(output_dir) / "summary.txt") << table << '\n';
  }
  return summary;
}

}  // namespace granite::scenario
