// The balance fix (domain.balance; docs/load_balance.md): moves the decomposition's cuts so
// that every rank carries an equal share of the load (parallel/balance.hpp), and reports the
// load imbalance on the thermo lines, at the end of the log and in run.json.
//   static:  once, in start() (not after a restart that restored cuts), weight 1 per particle;
//   dynamic: also after balance_every steps, weight the particle's predicted work in the step
//            (parallel::work_weights: its contacts' visits and closed contacts' updates):
//            when the largest rank load over the mean exceeds imbalance_threshold and the new
//            cuts would lower it; the next measurement when the imbalance's drift predicts it
//            to reach the threshold (parallel/balance_schedule.hpp), or every balance_every
//            steps without domain.balance_adaptive.
// It only moves the cuts; the next step's synchronise() migrates the bodies. It runs first
// among the fixes, while the step's contacts still index the particles (outflow clears them),
// and its checkpoint state is the cuts and the measurements' schedule, so a restart continues with
// them bit for bit.
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"
#include "granite/core/log.hpp"
#include "granite/parallel/balance.hpp"
#include "granite/parallel/balance_schedule.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/timestep/simulation.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace granite::scenario::detail {
namespace {

using config::BalanceMode;

std::string_view mode_name(BalanceMode mode) { return name_of(config::kBalanceModeNames, mode); }

std::string ratio(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

// "inner x-cuts [...] m" and which nested cuts there are besides (run.json has them all).
std::string cuts_text(const parallel::Decomposition& d) {
  const parallel::Int3& dims = d.dims();
  std::string text;
  if (dims[0] > 1) {
    text = "inner x-cuts [";
    for (int k = 1; k < dims[0]; ++k) {
      char value[32];
      std::snprintf(value, sizeof value, "%s%.6g", k > 1 ? " " : "", d.cuts()[0][std::size_t(k)]);
      text += value;
    }
    text += "] m";
  }
  if (dims[1] > 1) text += std::string(text.empty() ? "" : ", ") + "y-cuts per x-slab";
  if (dims[2] > 1) text += std::string(text.empty() ? "" : ", ") + "z-cuts per column";
  return text.empty() ? "one subdomain" : text + " (run.json balance.cuts_m)";
}

class BalanceFix final : public Fix {
public:
  BalanceFix(const config::DomainSettings& domain, Cadence thermo, RunContext& run) :
      run_(run), mode_(domain.balance),
      auto_(domain.balance_auto), schedule_{domain.balance_every, domain.imbalance_threshold,
                                            domain.balance_adaptive},
      thermo_(thermo) {}

  const char* name() const override { return "balance"; }
  std::string description() const override {
    const std::string report = "load imbalance (max/mean per rank) on the thermo lines";
    switch (mode_) {
    case BalanceMode::none:
      return report + (auto_ ? "; equal cuts (domain.balance auto: they split the mesh walls' "
                               "triangles among the ranks)"
                             : "; equal cuts (domain.balance none)");
    case BalanceMode::static_cuts:
      return "cuts balanced once before the first step (weight 1 per particle); " + report;
    case BalanceMode::dynamic:
    case BalanceMode::automatic:  // settings_of resolves it
      break;
    }
    const std::string when =
        schedule_.adaptive
            ? "when the load's drift predicts it (" + std::to_string(schedule_.shortest()) + "-" +
                  std::to_string(schedule_.longest()) + " steps apart, the first after " +
                  std::to_string(schedule_.every) + ")"
            : "every " + std::to_string(schedule_.every) + " steps";
    return "cuts balanced before the first step and, measured " + when + ", when max/mean load > " +
           ratio(schedule_.threshold) +
           " (weight: the particle's work in the step, from its contacts" +
           (auto_ ? "; domain.balance auto" : "") + "); " + report;
  }
  Phase phase() const override { return Phase::other; }

  void start(RunContext& run) override {
    relaxation_at_thermo_ = run.sim.timers().seconds(Phase::relaxation);
    if (mode_ == BalanceMode::none || restored_ || run.comm.size() == 1) return;
    rebalance(run, std::vector<std::uint64_t>(run.sim.particles().size(), 1), 1.0,
              "before the first step");
  }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd& end) override {
    if (run.comm.size() == 1) return;
    if (thermo_.due(stats.step, end.last)) report_on_thermo_line(run);
    if (mode_ != BalanceMode::dynamic) return;
    // A run that did not restore a schedule measures first at a multiple of balance_every.
    if (next_ == 0) next_ = (stats.step + schedule_.every - 1) / schedule_.every * schedule_.every;
    if (stats.step < next_) return;
    const parallel::DistributedDomain::Rebalance r =
        rebalance(run,
                  parallel::work_weights(run.sim.contacts(), run.sim.impulses(), stats.sweeps,
                                         run.sim.particles().size()),
                  schedule_.threshold, "at step " + std::to_string(stats.step));
    const int steps = last_step_ > 0 ? int(stats.step - last_step_) : 0;
    next_ = stats.step + schedule_.next_interval(r.before, steps, left_, r.after);
    last_step_ = stats.step;
    left_ = r.after;
  }

  void finish(RunContext& run) override {
    if (run.comm.size() == 1) return;
    particles_ = particle_imbalance(run);
    std::vector<double> relaxation = {run.sim.timers().seconds(Phase::relaxation)};
    const double mean = comm::sum(relaxation[0], run.comm) / run.comm.size();
    comm::max_in_place(relaxation, run.comm);
    relaxation_ = mean > 0.0 ? relaxation[0] / mean : 1.0;
    log::info("load balance (" + std::string(mode_name(mode_)) + "): cuts moved " +
              std::to_string(rebalances_) + " time(s); at the end particles per rank max/mean " +
              ratio(particles_) + "; relaxation time per rank max/mean " + ratio(relaxation_) +
              " (whole run); " + cuts_text(run.distributed->decomposition()));
  }

  std::vector<RecordSection> record_sections() const override {
    nlohmann::ordered_json cuts = nlohmann::ordered_json::array();
    for (const auto& axis : run_.distributed->decomposition().cuts()) cuts.push_back(axis);
    return {{"balance",
             {{"mode", mode_name(mode_)},
              {"auto", auto_},
              {"rebalances", rebalances_},
              {"particles_max_over_mean", particles_},
              {"relaxation_max_over_mean", relaxation_},
              {"last_load_max_over_mean", last_load_},
              {"cuts_m", cuts}}}};
  }

  bool has_state() const override { return mode_ != BalanceMode::none; }
  // "ranks R rebalances N", each axis's cuts (hexfloats) and "schedule NEXT LAST LEFT" (the
  // next measurement's step, the last one's and the max/mean it left): the same on every rank.
  std::string state() const override {
    std::ostringstream os;
    os << std::hexfloat << "ranks " << run_.comm.size() << " rebalances " << rebalances_;
    for (const auto& axis : run_.distributed->decomposition().cuts()) {
      os << "\naxis " << axis.size();
      for (const double c : axis) os << ' ' << c;
    }
    os << "\nschedule " << next_ << ' ' << last_step_ << ' ' << left_ << '\n';
    return os.str();
  }

  // Before the initial-state check: the restored cuts, if they fit this run's decomposition
  // (as many ranks, the same dims and domain); otherwise start() balances afresh.
  void restore(const std::string& text) override {
    std::istringstream is(text);
    std::string ranks_word, rebalances_word;
    int ranks = 0;
    is >> ranks_word >> ranks >> rebalances_word >> rebalances_;
    parallel::Cuts cuts;
    for (auto& axis : cuts) {
      std::string axis_word;
      std::size_t n = 0;
      is >> axis_word >> n;
      if (!is || axis_word != "axis" || n > 4096) break;
      axis.resize(n);
      for (double& c : axis) {
        std::string value;
        is >> value;
        c = std::strtod(value.c_str(), nullptr);  // a hexfloat
      }
    }
    if (!is || ranks_word != "ranks" || rebalances_word != "rebalances")
      throw InputError("checkpoint: the balance state is malformed");
    // The schedule, if the checkpoint has one (older ones measure at multiples of
    // balance_every), and only for as many ranks: other cuts start their own.
    std::string schedule_word, left;
    std::int64_t next = 0, last = 0;
    if (is >> schedule_word >> next >> last >> left && schedule_word == "schedule" &&
        ranks == run_.comm.size()) {
      next_ = next;
      last_step_ = last;
      left_ = std::strtod(left.c_str(), nullptr);
    }
    if (ranks != run_.comm.size()) return;
    try {
      run_.distributed->set_cuts(cuts);
      restored_ = true;
    } catch (const std::invalid_argument&) {  // another domain or dims: balance afresh
    }
  }

  std::string thermo_text() const override { return thermo_text_; }

private:
  std::string thermo_text_;  // this step's thermo column
  // New cuts for weights `w` of the owned particles when max/mean exceeds `threshold`, kept
  // only if they lower it; each attempt is logged.
  parallel::DistributedDomain::Rebalance rebalance(RunContext& run,
                                                   const std::vector<std::uint64_t>& w,
                                                   double threshold, const std::string& when) {
    const parallel::DistributedDomain::Rebalance r =
        run.distributed->rebalance(run.sim.particles().position, w, threshold);
    last_load_ = r.before;
    if (!r.tried) return r;
    if (!r.moved) {
      log::info("balance " + when + ": load max/mean " + ratio(r.before) +
                "; no cuts would lower it: cuts kept");
      return r;
    }
    run.sim.request_rebuild();
    ++rebalances_;
    log::info("balance " + when + ": load max/mean " + ratio(r.before) + " -> " + ratio(r.after) +
              ", " + cuts_text(run.distributed->decomposition()));
    return r;
  }

  static double particle_imbalance(const RunContext& run) {
    return parallel::max_over_mean(parallel::loads_by_rank(run.sim.particles().size(), run.comm));
  }

  // "imbalance particles P relaxation R": max/mean over ranks, relaxation time since the last
  // thermo line.
  void report_on_thermo_line(RunContext& run) {
    const double now = run.sim.timers().seconds(Phase::relaxation);
    std::vector<double> interval = {now - relaxation_at_thermo_};
    relaxation_at_thermo_ = now;
    const double mean = comm::sum(interval[0], run.comm) / run.comm.size();
    comm::max_in_place(interval, run.comm);
    thermo_text_ = "imbalance particles " + ratio(particle_imbalance(run)) + " relaxation " +
                   ratio(mean > 0.0 ? interval[0] / mean : 1.0);
  }

  RunContext& run_;
  BalanceMode mode_;
  bool auto_;  // chosen by domain.balance auto
  parallel::BalanceSchedule schedule_;
  Cadence thermo_;
  // The dynamic balance's measurements: the next one's step (0: at the first multiple of
  // balance_every), the last one's (0: none yet) and the max/mean its cuts left.
  std::int64_t next_ = 0, last_step_ = 0;
  double left_ = 1.0;
  std::uint64_t rebalances_ = 0;
  bool restored_ = false;
  double relaxation_at_thermo_ = 0.0;
  double last_load_ = 1.0, particles_ = 1.0, relaxation_ = 1.0;
};

}  // namespace

std::unique_ptr<Fix> make_balance(const config::DomainSettings& domain, Cadence thermo,
                                  RunContext& run) {
  return std::make_unique<BalanceFix>(domain, thermo, run);
}

}  // namespace granite::scenario::detail
