// The statistics fix: samples the flow statistics (scenario/flow_statistics.hpp) every
// statistics.interval into statistics.csv; at the end of the run prints the Table-2 summary
// and writes it to summary.txt and run.json.
#include "fix_factories.hpp"

#include "granite/core/log.hpp"
#include "granite/scenario/flow_statistics.hpp"

#include <nlohmann/json.hpp>

namespace granite::scenario::detail {
namespace {

class StatisticsFix final : public Fix {
public:
  StatisticsFix(const config::StatisticsSettings& settings, const config::DomainSettings& domain,
                std::string model, RunContext& run, double dt, bool restarting) :
      statistics_(settings, domain, run.comm),
      cadence_(Cadence::every_interval(statistics_.interval(), dt)), model_(std::move(model)),
      csv_(open_table(run, "statistics.csv", FlowStatistics::csv_header(), restarting)) {}

  const char* name() const override { return "statistics"; }
  std::string description() const override {
    return "flow statistics every " + std::to_string(cadence_.steps()) +
           " steps to statistics.csv; Table-2 summary at the end (summary.txt)";
  }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd& end) override {
    if (!cadence_.due(stats.step, end.last)) return;
    const FlowSample sample = statistics_.sample(run.sim, stats);
    append_row(run, csv_, FlowStatistics::csv_row(sample));
  }

  void finish(RunContext& run) override {
    const std::string table = statistics_.summary(model_);
    log::info(table);
    io::on_root_collectively(run.comm, [&] {
      csv_.close();
      io::write_text_atomically((std::filesystem::path(run.output_dir) / "summary.txt").string(),
                                table + '\n');
    });
  }

  std::vector<RecordSection> record_sections() const override {
    const FlowSummary a = statistics_.averages();
    return {{"statistics",
             {{"samples", a.samples},
              {"average_from", a.average_from},
              {"particles", a.particles},
              {"solid_fraction_bed", a.solid_fraction},
              {"solid_fraction_channel", a.channel_fraction},
              {"contacts", a.contacts},
              {"contacts_per_particle", a.contacts_per_particle},
              {"max_penetration_m", a.max_penetration},
              {"max_penetration_percent_radius", a.max_penetration_percent},
              {"particle_count_drift", a.particle_drift}}}};
  }

  bool has_state() const override { return true; }
  std::string state() const override { return statistics_.state(); }
  void restore(const std::string& text) override { statistics_.restore(text); }

private:
  FlowStatistics statistics_;
  Cadence cadence_;
  std::string model_;
  io::AppendFile csv_;
};

}  // namespace

std::unique_ptr<Fix> make_statistics(const config::StatisticsSettings& settings,
                                     const config::DomainSettings& domain, const std::string& model,
                                     RunContext& run, double dt, bool restarting) {
  return std::make_unique<StatisticsFix>(settings, domain, model, run, dt, restarting);
}

}  // namespace granite::scenario::detail
