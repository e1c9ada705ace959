// Progress figures and the estimate of the time left (see granite/scenario/progress.hpp).
#include "granite/scenario/progress.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>

namespace granite::scenario {

std::int64_t planned_steps(const config::RunSettings& run) {
  return static_cast<std::int64_t>(std::ceil(run.end_time / run.dt - 1e-9));
}

void EtaEstimator::record(std::int64_t step, double wall_seconds) {
  if (samples_ > 0 && step <= step_) return;
  previous_step_ = step_;
  previous_wall_ = wall_;
  step_ = step;
  wall_ = wall_seconds;
  ++samples_;
}

std::optional<double> EtaEstimator::seconds_per_step() const {
  if (samples_ < 2) return std::nullopt;
  return (wall_ - previous_wall_) / double(step_ - previous_step_);
}

std::optional<double> EtaEstimator::seconds_left(std::int64_t last_step) const {
  const auto cost = seconds_per_step();
  if (!cost) return std::nullopt;
  return double(std::max<std::int64_t>(last_step - step_, 0)) * *cost;
}

std::string format_duration(std::optional<double> seconds) {
  if (!seconds || !std::isfinite(*seconds) || *seconds < 0) return "--:--";
  const auto total = static_cast<long long>(std::llround(*seconds));
  char text[48];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60, total % 60);
  return text;
}

std::string progress_text(const ProgressReport& r) {
  char text[160];
  std::snprintf(text, sizeof text, "%5.1f%% %9.3g p-steps/s elapsed %s left %s", r.percent(),
                r.particle_steps_per_second, format_duration(r.elapsed_seconds).c_str(),
                format_duration(r.seconds_left).c_str());
  return text;
}

double unix_seconds_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double file_written_unix(const std::string& path) {
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(path, ec);
  if (ec) return 0.0;
  return std::chrono::duration<double>(std::chrono::file_clock::to_sys(written).time_since_epoch())
      .count();
}

std::string utc_text(double unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(std::floor(unix_seconds));
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::ordered_json progress_json(const ProgressReport& r, double now_unix,
                                     double thermo_interval_seconds) {
  nlohmann::ordered_json out;
  out["step"] = r.step;
  out["planned_steps"] = r.planned;
  out["percent"] = r.percent();
  out["time"] = r.time;
  out["particle_steps_per_second"] = r.particle_steps_per_second;
  out["elapsed_seconds"] = r.elapsed_seconds;
  if (r.seconds_left) {
    out["seconds_left"] = *r.seconds_left;
    out["estimated_end"] = utc_text(now_unix + *r.seconds_left);
  } else {
    out["seconds_left"] = nullptr;
    out["estimated_end"] = nullptr;
  }
  out["heartbeat"] = utc_text(now_unix);
  out["heartbeat_unix"] = now_unix;
  out["thermo_interval_seconds"] = thermo_interval_seconds;
  return out;
}

}  // namespace granite::scenario
