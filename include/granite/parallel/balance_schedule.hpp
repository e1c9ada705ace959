#pragma once
// When the dynamic balance measures the load next (domain.balance_adaptive, docs/load_balance.md):
// as often as the load changes. The imbalance drifts from the value the cuts had after one
// measurement to the value the next measurement finds; at that rate it reaches
// domain.imbalance_threshold after (threshold − now) / rate steps, and the next measurement
// comes then, within [balance_every / 4, 4 · balance_every].

#include <algorithm>

namespace granite::parallel {

struct BalanceSchedule {
  int every = 100;         // domain.balance_every: the first interval, and the scale of the rest
  double threshold = 1.1;  // domain.imbalance_threshold
  bool adaptive = true;    // false: every `every` steps

  int shortest() const { return std::max(1, every / 4); }
  int longest() const { return 4 * every; }

  /// The steps until the next measurement, after one that found the load max/mean `found`
  /// `steps` steps after the previous one (0: none before) had left the cuts at `left_before`,
  /// and left the cuts at `left_now` (its new cuts' max/mean, or `found` if it kept them).
  /// Without a rate (a first measurement, or an imbalance that did not grow): `every` after a
  /// first measurement, else the longest interval.
  int next_interval(double found, int steps, double left_before, double left_now) const;
};

}  // namespace granite::parallel
