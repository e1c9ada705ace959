#pragma once
// When an end-of-step object acts: every N steps and always after the last step of the run.
// The one place where "every interval" becomes whole steps (one rule for snapshots,
// checkpoints, statistics and thermo).
#include <cstdint>

namespace granite::scenario {

class Cadence {
public:
  /// Every `steps` steps (counted from step 0, so a restarted run keeps the same steps);
  /// steps <= 0: only after the last step.
  static Cadence every_steps(std::int64_t steps) { return Cadence(steps > 0 ? steps : 0); }
  /// Every `interval` seconds of simulated time, rounded to whole steps of `dt` (at least one);
  /// interval <= 0: only after the last step.
  static Cadence every_interval(double interval, double dt);

  /// Is an action due after the step that brought the counter to `step`? `last`: that was the
  /// last step of the run (end time reached or a stop requested).
  bool due(std::int64_t step, bool last) const {
    return last || (steps_ > 0 && step % steps_ == 0);
  }
  /// Steps between actions (0: only after the last step).
  std::int64_t steps() const { return steps_; }

private:
  explicit Cadence(std::int64_t steps) : steps_(steps) {}
  std::int64_t steps_;
};

}  // namespace granite::scenario
