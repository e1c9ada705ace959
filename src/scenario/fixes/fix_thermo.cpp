// The thermo fix: a line of the thermo table in the run log every run.thermo_every steps and
// after the last step, and the same row in thermo.csv (output.thermo_file).
#include "fix_factories.hpp"

#include "granite/core/log.hpp"
#include "granite/scenario/fixes/fixes.hpp"
#include "granite/timestep/report.hpp"

#include <cstdio>

namespace granite::scenario::detail {
namespace {

std::string csv_row(const timestep::StepStatistics& s) {
  char line[256];
  std::snprintf(line, sizeof line, "%lld,%.9g,%zu,%zu,%d,%.3e,%.3e,%.6e,%.9e\n",
                static_cast<long long>(s.step), s.time, s.particles, s.contacts, s.sweeps,
                s.residual, s.fc3d_error, s.max_penetration, s.kinetic_energy);
  return line;
}

class ThermoFix final : public Fix {
public:
  ThermoFix(Cadence cadence, bool write_csv, RunContext& run, bool restarting) :
      cadence_(cadence), write_csv_(write_csv) {
    if (write_csv_)
      csv_ =
          open_table(run, "thermo.csv",
                     "step,time_s,particles,contacts,sweeps,residual,fc3d_error,max_penetration_m,"
                     "kinetic_energy_J\n",
                     restarting);
  }

  const char* name() const override { return "thermo"; }
  // The fixes whose thermo_text() the line shows, in this order (when present).
  static constexpr const char* kColumns[] = {"progress", "balance"};
  std::vector<std::string> runs_after() const override {
    return {std::begin(kColumns), std::end(kColumns)};
  }
  std::string description() const override {
    return "thermo line every " + std::to_string(cadence_.steps()) + " steps" +
           (write_csv_ ? " (also thermo.csv)" : "");
  }

  void start(RunContext&) override { log::info(timestep::thermo_header() + "  progress"); }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd& end) override {
    if (!cadence_.due(stats.step, end.last)) return;
    std::string line = timestep::thermo_line(stats);
    for (const char* column : kColumns)
      if (const Fix* fix = find_fix(*run.fixes, column))
        if (const std::string text = fix->thermo_text(); !text.empty()) line += "  " + text;
    log::info(line);
    if (write_csv_) append_row(run, csv_, csv_row(stats));
  }

  void finish(RunContext& run) override {
    io::on_root_collectively(run.comm, [&] { csv_.close(); });
  }

private:
  Cadence cadence_;
  bool write_csv_;
  io::AppendFile csv_;
};

}  // namespace

std::unique_ptr<Fix> make_thermo(Cadence cadence, bool write_csv, RunContext& run,
                                 bool restarting) {
  return std::make_unique<ThermoFix>(cadence, write_csv, run, restarting);
}

}  // namespace granite::scenario::detail
