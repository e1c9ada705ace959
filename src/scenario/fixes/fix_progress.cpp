// The progress fix: at every thermo line, how far the run is (% of the planned steps),
// particle-steps per second over the last interval, the elapsed wall time and the estimated
// time left (scenario/progress.hpp). It gives the text to the thermo line (its thermo_text(),
// which the thermo fix pulls), rewrites run.json with a "progress" section (the heartbeat `granite status`
// reads), and on a terminal keeps one status line on rank 0's stderr up to date (at most once
// a second; never when stderr is not a terminal; off with `granite run --quiet`).
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/scenario/progress.hpp"
#include "granite/scenario/run.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace granite::scenario {

namespace {
bool g_status_line = true;
}  // namespace

void set_status_line(bool enabled) { g_status_line = enabled; }

namespace detail {
namespace {

nlohmann::ordered_json checkpoint_json(const CheckpointRecord& c) {
  if (c.path.empty()) return nullptr;
  return {{"path", c.path},
          {"step", c.step},
          {"time", c.time},
          {"written", utc_text(c.written_unix)},
          {"written_unix", c.written_unix}};
}

class ProgressFix final : public Fix {
public:
  ProgressFix(Cadence cadence, std::int64_t planned) : cadence_(cadence), planned_(planned) {}

  const char* name() const override { return "progress"; }
  std::string description() const override {
    return "% done, particle-steps/s, elapsed and estimated time left on every thermo line "
           "and in run.json";
  }

  void start(RunContext& run) override {
    start_ = std::chrono::steady_clock::now();
    estimator_.record(run.sim.steps(), 0.0);
    report_.step = run.sim.steps();
    report_.planned = planned_;
    report_.time = run.sim.time();
    terminal_ = g_status_line && run.comm.is_root() && isatty(STDERR_FILENO) == 1;
  }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd& end) override {
    particle_steps_ += double(stats.particles);
    const double elapsed = seconds_since_start();
    if (cadence_.due(stats.step, end.last || end.stop)) {
      report(run, stats, elapsed);
    } else if (terminal_ && elapsed - status_shown_ >= 1.0) {
      show_status(stats.step, elapsed);
    }
  }

  void finish(RunContext& run) override {
    checkpoint_ = run.checkpoint;  // the last step's checkpoint is written after report()
    clear_status();
  }

  std::vector<RecordSection> record_sections() const override {
    return {{"progress", progress_json(report_, unix_seconds_now(), interval_seconds_)},
            {"last_checkpoint", checkpoint_json(checkpoint_)}};
  }

  std::string thermo_text() const override { return thermo_text_; }

private:
  std::string thermo_text_;  // this step's thermo column
  double seconds_since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  void report(RunContext& run, const timestep::StepStatistics& stats, double elapsed) {
    interval_seconds_ = elapsed - sample_elapsed_;
    estimator_.record(stats.step, elapsed);
    report_.step = stats.step;
    report_.time = stats.time;
    report_.elapsed_seconds = elapsed;
    report_.particle_steps_per_second =
        interval_seconds_ > 0 ? particle_steps_ / interval_seconds_ : 0.0;
    report_.seconds_left = estimator_.seconds_left(planned_);
    particle_steps_ = 0.0;
    sample_elapsed_ = elapsed;
    clear_status();  // the thermo line follows on stdout
    thermo_text_ = progress_text(report_);
    checkpoint_ = run.checkpoint;
    if (run.publish_record) run.publish_record();
  }

  void show_status(std::int64_t step, double elapsed) {
    status_shown_ = elapsed;
    // Between thermo lines: the figures since the last one (the interval under way).
    ProgressReport now = report_;
    now.step = step;
    now.elapsed_seconds = elapsed;
    const double seconds = elapsed - sample_elapsed_;
    if (seconds > 0 && step > report_.step) {
      now.particle_steps_per_second = particle_steps_ / seconds;
      now.seconds_left = double(std::max<std::int64_t>(planned_ - step, 0)) * seconds /
                         double(step - report_.step);
    }
    std::fprintf(stderr, "\rstep %lld/%lld %s\033[K", static_cast<long long>(step),
                 static_cast<long long>(planned_), progress_text(now).c_str());
    std::fflush(stderr);
    status_visible_ = true;
  }

  void clear_status() {
    if (!status_visible_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    status_visible_ = false;
  }

  Cadence cadence_;
  std::int64_t planned_;
  CheckpointRecord checkpoint_;
  std::chrono::steady_clock::time_point start_{};
  EtaEstimator estimator_;
  ProgressReport report_;
  double particle_steps_ = 0.0;    // since the last thermo line
  double sample_elapsed_ = 0.0;    // wall seconds at the last thermo line
  double interval_seconds_ = 0.0;  // wall seconds between the last two thermo lines
  double status_shown_ = 0.0;      // the first status line after a second
  bool terminal_ = false;
  bool status_visible_ = false;
};

}  // namespace

std::unique_ptr<Fix> make_progress(Cadence cadence, std::int64_t planned_steps) {
  return std::make_unique<ProgressFix>(cadence, planned_steps);
}

}  // namespace detail
}  // namespace granite::scenario
