#pragma once
// Counter-based random numbers: the n-th number of a stream is a pure function of (key, n), so
// a particle's draws depend only on the run's seed, a tag naming what is drawn and the
// particle's id — never on which rank draws them or in which order (docs/particle_sources.md).
// The mixing function is the SplitMix64 finaliser (Steele, Lea & Flood 2014), a bijection of
// 64-bit words whose outputs pass BigCrush when fed a counter.
#include <cstdint>

namespace granite {

/// SplitMix64's output function: a bijective avalanche mix of a 64-bit word.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// What a stream draws: separate tags give independent streams for the same seed and id.
enum class StreamTag : std::uint64_t { size = 1, position = 2, velocity = 3, orientation = 4 };

class CounterStream {
public:
  CounterStream(std::uint64_t seed, StreamTag tag, std::uint64_t id) :
      key_(mix64(mix64(seed ^ mix64(std::uint64_t(tag))) ^ mix64(id + 0x632be59bd9b4e019ULL))) {}

  std::uint64_t next() { return mix64(key_ ^ mix64(counter_++)); }
  /// Uniform in the open interval (0, 1): 53 random bits, centred in their cell.
  double uniform() { return (double(next() >> 11) + 0.5) * 0x1.0p-53; }
  /// Uniform in [a, b).
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  std::uint64_t drawn() const { return counter_; }

private:
  std::uint64_t key_;
  std::uint64_t counter_ = 0;
};

}  // namespace granite
