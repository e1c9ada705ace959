#include "granite/scenario/run.hpp"

#include "granite/core/error.hpp"
#include "granite/core/log.hpp"
#include "granite/scenario/build.hpp"
#include "granite/timestep/report.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace granite::scenario {

namespace {

std::ofstream open_output(const std::filesystem::path& path) {
  std::ofstream out(path);
  if (!out) throw InputError(path.string() + ": cannot write (check --output / output.directory)");
  return out;
}

std::string csv_row(const timestep::StepStatistics& s) {
  char line[256];
  std::snprintf(line, sizeof line, "%lld,%.9g,%zu,%zu,%d,%.3e,%.6e,%.9e\n",
                static_cast<long long>(s.step), s.time, s.particles, s.contacts, s.sweeps,
                s.residual, s.max_penetration, s.kinetic_energy);
  return line;
}

} // namespace

RunSummary run_scenario(const config::ScenarioConfig& cfg, const std::string& output_dir) {
  const YAML::Node& r = cfg.resolved;
  std::error_code ec;
  std::filesystem::create_directories(output_dir, ec);
  if (ec) throw InputError(output_dir + ": cannot create the output directory (" + ec.message() + ")");
  open_output(std::filesystem::path(output_dir) / "config.yaml") << config::to_text(r);
  const bool write_csv = r["output"]["thermo_file"].as<bool>();
  std::ofstream csv;
  if (write_csv) {
    csv = open_output(std::filesystem::path(output_dir) / "thermo.csv");
    csv << "step,time_s,particles,contacts,sweeps,residual,max_penetration_m,kinetic_energy_J\n";
  }

  std::mt19937_64 rng(r["run"]["seed"].as<std::uint64_t>());
  timestep::Simulation sim;
  build_simulation(r, sim, rng);
  const Domain domain = domain_of(r);

  const double dt = r["run"]["dt"].as<double>();
  const auto steps = static_cast<std::int64_t>(std::ceil(r["run"]["end_time"].as<double>() / dt - 1e-9));
  const int thermo_every = r["run"]["thermo_every"].as<int>();
  log::info("granite run " + cfg.file + ": " + std::to_string(sim.particles().size()) +
            " particles, " + std::to_string(sim.globals().size()) + " global bodies, " +
            std::to_string(steps) + " steps of " + std::to_string(dt) + " s, model " +
            r["contact"]["model"].as<std::string>() + ", output in " + output_dir);
  log::info(timestep::thermo_header());

  RunSummary summary;
  const auto start = std::chrono::steady_clock::now();
  for (std::int64_t n = 0; n < steps; ++n) {
    const timestep::StepStatistics& stats = sim.step();
    {
      ScopedPhase timer(sim.timers(), Phase::other);  // outflow deletion
      summary.deleted += sim.remove_particles([&](const body::Particles& p, std::size_t i) {
        return !domain.contains(p.position[i]);
      });
    }
    if (stats.step % thermo_every == 0 || n + 1 == steps) {
      ScopedPhase timer(sim.timers(), Phase::output);
      log::info(timestep::thermo_line(stats));
      if (write_csv) csv << csv_row(stats) << std::flush;
    }
  }
  summary.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.steps = steps;
  summary.particles = sim.particles().size();

  char line[200];
  std::snprintf(line, sizeof line,
                "done: %lld steps in %.3f s wall (%.1f steps/s), %zu particles left, %zu deleted "
                "by outflow",
                static_cast<long long>(steps), summary.wall_seconds,
                summary.wall_seconds > 0 ? double(steps) / summary.wall_seconds : 0.0,
                summary.particles, summary.deleted);
  log::info(line);
  log::info(timestep::timing_breakdown(sim.timers()));
  return summary;
}

} // namespace granite::scenario
