#pragma once
// How far a run is and when it will end: the estimate of the wall time left (EtaEstimator, a
// pure unit fed with (step, wall seconds) samples) and the progress figures the thermo line,
// the terminal status line and run.json carry (docs/output.md).
//
// The estimate uses the cost per step of the last interval between two samples: with a
// constant cost per step it is exact, and when the cost changes it follows within one
// interval. (An average over the whole run would lag behind a flow that fills up, e.g. the
// channel's inflow, by half a run.)
#include "granite/config/settings.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace granite::scenario {

/// Steps from 0 to run.end_time (the last one may overshoot end_time by less than dt).
std::int64_t planned_steps(const config::RunSettings& run);

class EtaEstimator {
public:
  /// A sample: `step` reached at `wall_seconds` (any origin, non-decreasing). Samples with a
  /// step not after the last one are ignored.
  void record(std::int64_t step, double wall_seconds);
  /// Wall seconds per step over the last interval; nullopt before two samples.
  std::optional<double> seconds_per_step() const;
  /// Wall seconds until `last_step` is reached at the last interval's cost per step; nullopt
  /// before two samples.
  std::optional<double> seconds_left(std::int64_t last_step) const;

private:
  std::int64_t previous_step_ = 0, step_ = 0;
  double previous_wall_ = 0.0, wall_ = 0.0;
  int samples_ = 0;
};

/// The progress of a run at one thermo line (the same on every rank).
struct ProgressReport {
  std::int64_t step = 0, planned = 0;      // done so far (counting from step 0) and planned
  double time = 0.0;                       // simulated time (s)
  double elapsed_seconds = 0.0;            // wall time of this run (since its start or restart)
  double particle_steps_per_second = 0.0;  // over the last interval (0 before the first)
  std::optional<double> seconds_left;      // wall seconds to the last step (estimate)
  double percent() const { return planned > 0 ? 100.0 * double(step) / double(planned) : 100.0; }
};

/// "1:02:03" (h:mm:ss), or "--:--" for an unknown duration.
std::string format_duration(std::optional<double> seconds);
/// The part of a thermo line and of the terminal status line:
/// "12.5% 3.41e+06 p-steps/s elapsed 0:00:41 left 0:04:47".
std::string progress_text(const ProgressReport& report);
/// The "progress" section of run.json; `now_unix`: the heartbeat (seconds since 1970, UTC).
nlohmann::ordered_json progress_json(const ProgressReport& report, double now_unix,
                                     double thermo_interval_seconds);
/// The wall clock: seconds since 1970 (UTC), as run.json's heartbeat and checkpoint times.
double unix_seconds_now();
/// When `path` was last written, in seconds since 1970 (UTC); 0 if it cannot be read.
double file_written_unix(const std::string& path);
/// "2026-11-23T19:50:00Z" for seconds since 1970 (UTC).
std::string utc_text(double unix_seconds);

}  // namespace granite::scenario
