#pragma once
// When the relaxation tests convergence with solver.check_every: 0 (the default): the fc3d
// error is a pass over every contact, as costly as a sweep, so it is evaluated only at the sweep
// where the decay between the last two tests predicts the tolerance to be met.

namespace granite::solver {

/// A relaxation's measured decay of its convergence measure: `decay` per sweep over `span`
/// sweeps between its first test and its last (span 0: none measured).
struct ConvergenceDecay {
  double decay = 0.0;
  int span = 0;
};

/// The sweep of the next test after a test at `sweep` gave `value` (not yet below `tolerance`),
/// the previous one at `previous_sweep` (0: none) gave `previous_value`. With a per-sweep
/// decay ρ = (value / previous_value)^(1 / (sweep − previous_sweep)) < 1, the next test is
/// ⌈log(tolerance / value) / log ρ⌉ sweeps later; without a decay (a first test, a measure that
/// grew or stagnated) it is one sweep later after a first test and twice the last interval
/// otherwise. The interval is at most max(4, sweep), so a test never comes later than about
/// twice the sweeps already done. When the decay predicts no convergence within `max_sweeps`
/// and the last sweep is at most two such intervals away, the next test is the last sweep's
/// (the relaxation ends with one in any case): at most three times the sweeps already done.
int next_check_sweep(int sweep, double value, int previous_sweep, double previous_value,
                     double tolerance, int max_sweeps);

/// The sweep of a relaxation's second test, after its first at `sweep` gave `value`, from the
/// decay the previous relaxation measured: ρ = `prior_decay` per sweep over its last
/// `prior_span` sweeps of tests (0: none measured). As next_check_sweep with that decay, and
/// with the interval at most max(4, sweep, prior_span): a relaxation like the previous one
/// that is not predicted to converge goes to its last sweep without the test that would
/// measure its own decay (the previous relaxation measured it over that span). Without a
/// decay (none measured, or ρ ≥ 1), the next sweep, as next_check_sweep.
int next_check_sweep(int sweep, double value, double prior_decay, int prior_span, double tolerance,
                     int max_sweeps);

}  // namespace granite::solver
