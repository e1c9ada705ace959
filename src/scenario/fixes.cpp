// Which end-of-step objects a configuration asks for, and in which order they run.
#include "granite/scenario/fixes.hpp"

#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"

namespace granite::scenario {

namespace detail {

std::ofstream open_table(const RunContext& run, const std::string& file_name,
                         const std::string& header, bool append) {
  const std::filesystem::path path = std::filesystem::path(run.output_dir) / file_name;
  std::ofstream out;
  if (run.comm.is_root()) {
    const bool existing = append && std::filesystem::exists(path);
    out.open(path, existing ? std::ios::app : std::ios::trunc);
    if (!existing) out << header;
  }
  if (!comm::all_ok(!run.comm.is_root() || bool(out), run.comm))
    throw InputError(path.string() + ": cannot write (check --output / output.directory)");
  return out;
}

}  // namespace detail

Fixes make_fixes(const config::ScenarioConfig& cfg, RunContext& run, BodyId next_id,
                 bool restarting) {
  const YAML::Node& r = cfg.resolved;
  const double dt = r["run"]["dt"].as<double>();
  const YAML::Node output = r["output"];
  Fixes fixes;
  // The inflow's random numbers come from their own stream, so adding an inflow does not
  // change the initial particles.
  if (r["inflow"])
    fixes.push_back(
        detail::make_inflow(inflow_settings(r), next_id,
                            r["run"]["seed"].as<std::uint64_t>() ^ 0x9e3779b97f4a7c15ULL, dt));
  fixes.push_back(detail::make_outflow(domain_of(r)));
  if (r["statistics"])
    fixes.push_back(
        detail::make_statistics(r, r["contact"]["model"].as<std::string>(), run, dt, restarting));
  fixes.push_back(detail::make_thermo(Cadence::every_steps(r["run"]["thermo_every"].as<int>()),
                                      output["thermo_file"].as<bool>(), run, restarting));
  io::SnapshotInfo info;
  info.config = config::to_text(r);
  info.decomposition = run.decomposition;
  info.compression = output["compression"].as<int>();
  fixes.push_back(detail::make_snapshots(
      Cadence::every_interval(output["snapshot_interval"].as<double>(), dt), info, run));
  fixes.push_back(detail::make_checkpoints(
      Cadence::every_interval(output["checkpoint_interval"].as<double>(), dt), config::to_text(r)));
  std::set<std::int64_t> export_steps;
  for (const auto& step : output["export_fclib_steps"])
    export_steps.insert(step.as<std::int64_t>());
  if (!export_steps.empty()) fixes.push_back(detail::make_fclib_export(export_steps, run));
  return fixes;
}

std::map<std::string, std::string> fix_states(const Fixes& fixes) {
  std::map<std::string, std::string> states;
  for (const auto& fix : fixes)
    if (fix->has_state()) states[fix->name()] = fix->state();
  return states;
}

Fix* find_fix(const Fixes& fixes, const std::string& name) {
  for (const auto& fix : fixes)
    if (name == fix->name()) return fix.get();
  return nullptr;
}

}  // namespace granite::scenario
