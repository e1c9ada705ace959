#pragma once
// Wall-clock accumulation per named phase of a step (detection, setup, relaxation, ...).
#include <array>
#include <chrono>
#include <cstddef>
#include <string_view>

namespace granite {

enum class Phase : std::size_t {
  detection,
  setup,
  relaxation,
  communication,
  compatible,  // the compatible-forces pass (solver/compatible_forces.hpp), its exchanges included
  integration,
  output,
  other,
  count
};
std::string_view phase_name(Phase phase);

class PhaseTimers {
public:
  void add(Phase phase, double seconds) { seconds_[std::size_t(phase)] += seconds; }
  double seconds(Phase phase) const { return seconds_[std::size_t(phase)]; }
  double total() const;

private:
  std::array<double, std::size_t(Phase::count)> seconds_{};
};

/// Adds the lifetime of the scope to one phase.
class ScopedPhase {
public:
  ScopedPhase(PhaseTimers& timers, Phase phase) :
      timers_(timers), phase_(phase), start_(std::chrono::steady_clock::now()) {}
  ~ScopedPhase() {
    timers_.add(phase_,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

private:
  PhaseTimers& timers_;
  Phase phase_;
  std::chrono::steady_clock::time_point start_;
};

/// Adds the lifetime of the scope to a number of seconds (an object that times itself).
class ScopedSeconds {
public:
  explicit ScopedSeconds(double& seconds) :
      seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
  ~ScopedSeconds() {
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  ScopedSeconds(const ScopedSeconds&) = delete;
  ScopedSeconds& operator=(const ScopedSeconds&) = delete;

private:
  double& seconds_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace granite
