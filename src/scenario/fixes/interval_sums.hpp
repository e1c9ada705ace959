#pragma once
// Private to scenario/: the shape of the measurements that sum over an interval (body_forces,
// mass_flow): each step a vector of sums is taken on every rank and reduced at once (one
// allreduce), so the running sums are the same on every rank and are the fix's restart state;
// at the end of every whole interval a block of rows goes to the fix's CSV and the sums restart.
// A run that ends inside an interval keeps that interval's sums in its checkpoint, so --restart
// writes exactly the rows of the uninterrupted run.
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"

#include <algorithm>

namespace granite::scenario::detail {

class IntervalSums : public Fix {
public:
  void end_of_step(RunContext& run, const timestep::StepStatistics& stats, const StepEnd&) final {
    std::vector<double> step(sums_.size() - 1, 0.0);
    add_step(run, step);
    comm::sum_in_place(step, run.comm);
    for (std::size_t i = 0; i < step.size(); ++i) sums_[i] += step[i];
    sums_.back() += run.sim.parameters().dt;       // the time summed over
    if (!cadence_.due(stats.step, false)) return;  // whole intervals only
    append_row(run, csv_, rows(stats, sums_, sums_.back()));
    std::fill(sums_.begin(), sums_.end(), 0.0);
  }

  void finish(RunContext& run) final {
    io::on_root_collectively(run.comm, [&] { csv_.close(); });
  }

  bool has_state() const final { return true; }
  std::string state() const final { return doubles_state(sums_); }
  void restore(const std::string& text) final { restore_doubles(text, sums_, name()); }

protected:
  /// `size` sums per step; the CSV `file_name` with its `header` (appended to on restart).
  IntervalSums(Cadence cadence, std::size_t size, RunContext& run, const std::string& file_name,
               const std::string& header, bool restarting) :
      cadence_(cadence),
      sums_(size + 1, 0.0) {
    csv_ = open_table(run, file_name, header, restarting);
  }

  /// This rank's contribution to the step's sums (`step` is zeroed, of the constructor's size).
  virtual void add_step(const RunContext& run, std::vector<double>& step) const = 0;
  /// The CSV rows of an interval of `span` seconds from its sums.
  virtual std::string rows(const timestep::StepStatistics& stats, const std::vector<double>& sums,
                           double span) const = 0;

private:
  Cadence cadence_;
  std::vector<double> sums_;  // the constructor's sums, then the time summed over
  io::AppendFile csv_;
};

}  // namespace granite::scenario::detail
