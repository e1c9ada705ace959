// Which end-of-step objects a configuration asks for, and in which order they run.
#include "granite/scenario/fixes/fixes.hpp"
#include "granite/scenario/build.hpp"

#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"
#include "granite/scenario/sources/pour.hpp"
#include "granite/scenario/progress.hpp"

#include <algorithm>
#include <stdexcept>
#include <cstdlib>
#include <sstream>
#include <variant>

namespace granite::scenario {

namespace detail {

io::AppendFile open_table(const RunContext& run, const std::string& file_name,
                          const std::string& header, bool append) {
  const std::string path = (std::filesystem::path(run.output_dir) / file_name).string();
  io::AppendFile table;
  std::string failure;
  if (run.comm.is_root()) {
    try {
      table = io::AppendFile(path, header, append);
    } catch (const std::exception& error) {
      failure = std::string(error.what()) + " (check --output / output.directory)";
    }
  }
  comm::throw_if_any_failed(failure, run.comm);
  return table;
}

void append_row(const RunContext& run, io::AppendFile& table, const std::string& row) {
  io::on_root_collectively(run.comm, [&] { table.write(row); });
}

std::string doubles_state(const std::vector<double>& values) {
  std::ostringstream os;
  os << std::hexfloat;
  for (const double v : values) os << v << '\n';
  return os.str();
}

void restore_doubles(const std::string& text, std::vector<double>& values, const char* fix) {
  std::istringstream is(text);
  std::vector<double> read;
  bool numbers = true;
  // Hexfloats, which operator>> does not parse: tokens through strtod, checked to the end.
  for (std::string token; is >> token;) {
    char* end = nullptr;
    read.push_back(std::strtod(token.c_str(), &end));
    numbers = numbers && end == token.c_str() + token.size();
  }
  if (!numbers || read.size() != values.size())
    throw InputError(std::string("checkpoint: the state of '") + fix + "' is malformed (expected " +
                     std::to_string(values.size()) + " numbers)");
  values = std::move(read);
}

}  // namespace detail

Fixes make_fixes(const config::ScenarioConfig& cfg, RunContext& run, BodyId next_id,
                 bool restarting) {
  const config::Settings& settings = cfg.settings;
  const double dt = settings.run.dt;
  const config::OutputSettings& output = settings.output;
  Fixes fixes;
  // The balance first: its weights are the step's contacts, which outflow's deletions clear;
  // it moves only the cuts (the next step migrates).
  if (run.distributed)
    fixes.push_back(detail::make_balance(settings.domain,
                                         Cadence::every_steps(settings.run.thermo_every), run));
  // Measurements next: they see the step's particles before inflow adds and outflow deletes.
  const config::MeasurementSettings& measure = settings.measurements;
  if (measure.body_forces)
    fixes.push_back(detail::make_body_forces(*measure.body_forces, dt, run, restarting));
  if (measure.mass_flow)
    fixes.push_back(detail::make_mass_flow(*measure.mass_flow, dt, run, restarting));
  if (measure.grid) fixes.push_back(detail::make_grid(*measure.grid, dt, run, restarting));
  if (measure.orientation)
    fixes.push_back(detail::make_orientation(*measure.orientation, dt, run, restarting));
  // Then the global bodies are prepared for the next step.
  if (std::any_of(settings.motions.begin(), settings.motions.end(),
                  [](const body::PrescribedMotion& m) { return m.moves() || m.has_window(); }))
    fixes.push_back(detail::make_motion(run.sim.globals(), settings.motions, dt));
  // The inflow's random numbers come from their own stream, so adding an inflow does not
  // change the initial particles.
  if (settings.inflow)
    fixes.push_back(detail::make_inflow(*settings.inflow, next_id,
                                        settings.run.seed ^ 0x9e3779b97f4a7c15ULL, dt,
                                        settings.contact.max_initial_overlap));
  // Each pour draws ids from its own block of 2^40 above the configuration's (and the inflow's)
  // ids, so that generators never hand out the same id.
  BodyId block = next_id;
  for (std::size_t k = 0; k < settings.particles.size(); ++k)
    if (const auto* pour = std::get_if<config::PourSettings>(&settings.particles[k])) {
      block += kPourIdBlock;
      fixes.push_back(detail::make_pour(*pour, k, block, settings.run.seed, dt));
    }
  fixes.push_back(detail::make_outflow(domain_of(settings.domain), settings.domain.on_lost));
  if (settings.statistics)
    fixes.push_back(detail::make_statistics(
        *settings.statistics, settings.domain,
        std::string(contact::model_name(settings.contact.model.model)), run, dt, restarting));
  if (settings.contact.compatible)
    fixes.push_back(detail::make_compatible(settings.contact,
                                            Cadence::every_interval(output.snapshot_interval, dt),
                                            planned_steps(settings.run), run));
  fixes.push_back(detail::make_progress(Cadence::every_steps(settings.run.thermo_every),
                                        planned_steps(settings.run)));
  fixes.push_back(detail::make_thermo(Cadence::every_steps(settings.run.thermo_every),
                                      output.thermo_file, run, restarting));
  io::SnapshotInfo info;
  info.config = config::to_text(cfg.resolved);
  info.decomposition = run.decomposition;
  info.compression = output.compression;
  info.shapes = &run.sim.shapes();  // shaped particles' surfaces: /shapes
  if (output.contacts) {  // the Simulation keeps the last step's contacts for the snapshots
    run.sim.set_record_contacts(true);
    info.contacts = &run.sim.contact_record();
  }
  fixes.push_back(detail::make_snapshots(Cadence::every_interval(output.snapshot_interval, dt),
                                         info, output.snapshot_initial && !restarting,
                                         domain_of(settings.domain), run));
  fixes.push_back(detail::make_checkpoints(Cadence::every_interval(output.checkpoint_interval, dt),
                                           config::to_text(cfg.resolved)));
  if (!output.export_fclib_steps.empty())
    fixes.push_back(detail::make_fclib_export(
        {output.export_fclib_steps.begin(), output.export_fclib_steps.end()}, run));
  check_fix_order(fixes);
  return fixes;
}

namespace {

// `pattern` is a fix name, or a prefix followed by '*'.
bool matches(const std::string& pattern, const std::string& name) {
  if (!pattern.empty() && pattern.back() == '*')
    return name.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  return name == pattern;
}

}  // namespace

void check_fix_order(const Fixes& fixes) {
  for (std::size_t i = 0; i < fixes.size(); ++i)
    for (const std::string& before : fixes[i]->runs_after())
      for (std::size_t j = i + 1; j < fixes.size(); ++j)
        if (matches(before, fixes[j]->name()))
          throw std::logic_error(std::string("fix ") + fixes[i]->name() + " runs before " +
                                 fixes[j]->name() + ", which it must follow (runs_after)");
}

void add_record_sections(const Fixes& fixes, nlohmann::ordered_json& record) {
  std::map<std::string, std::string> provider;  // section path -> fix
  for (const auto& fix : fixes)
    for (RecordSection& section : fix->record_sections()) {
      const std::size_t dot = section.path.find('.');
      nlohmann::ordered_json& at =
          dot == std::string::npos
              ? record[section.path]
              : record[section.path.substr(0, dot)][section.path.substr(dot + 1)];
      if (section.append) {
        at.push_back(std::move(section.value));
        continue;
      }
      if (const auto [it, fresh] = provider.emplace(section.path, fix->name()); !fresh)
        throw std::logic_error("fixes " + it->second + " and " + fix->name() +
                               " both provide the run-record section " + section.path);
      at = std::move(section.value);
    }
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
