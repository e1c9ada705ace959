// The orientation measurement: the order tensor of the elongated grains over the whole domain
// every interval, one row in orientation.csv (scenario/order_tensor.hpp): the grains counted,
// the nematic order S, the director and Q's six components, of the state at the end of the
// sample's step.
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/scenario/order_tensor.hpp"

#include <cstdio>

namespace granite::scenario::detail {
namespace {

class OrientationFix final : public Fix {
public:
  OrientationFix(const config::OrientationSettings& settings, double dt, RunContext& run,
                 bool restarting) :
      cadence_(Cadence::every_interval(settings.interval, dt)),
      interval_(settings.interval), axes_(long_axes(run.sim.shapes())) {
    csv_ = open_table(run, "orientation.csv",
                      "step,time_s,grains,order_S,director_x,director_y,director_z,Qxx,Qyy,Qzz,"
                      "Qxy,Qxz,Qyz\n",
                      restarting);
  }

  const char* name() const override { return "orientation"; }
  std::string description() const override {
    return "order tensor of the elongated grains every " + std::to_string(interval_) +
           " s (orientation.csv)";
  }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd&) override {
    if (!cadence_.due(stats.step, false)) return;
    std::vector<double> sums(OrderSums::kSize, 0.0);
    const body::Particles& p = run.sim.particles();
    for (std::size_t i = 0; i < p.size(); ++i)
      if (const Vec3 u = long_axis_of(p, i, axes_); !u.isZero(0.0)) OrderSums::add(sums.data(), u);
    comm::sum_in_place(sums, run.comm);
    const Order o = order_of(sums.data());
    char line[512];
    std::snprintf(
        line, sizeof line, "%lld,%.9g,%.0f,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e\n",
        static_cast<long long>(stats.step), stats.time, o.grains, o.S, o.director[0], o.director[1],
        o.director[2], o.Q(0, 0), o.Q(1, 1), o.Q(2, 2), o.Q(0, 1), o.Q(0, 2), o.Q(1, 2));
    append_row(run, csv_, line);
  }

  void finish(RunContext& run) override {
    io::on_root_collectively(run.comm, [&] { csv_.close(); });
  }

private:
  Cadence cadence_;
  double interval_;
  std::vector<Vec3> axes_;
  io::AppendFile csv_;
};

}  // namespace

std::unique_ptr<Fix> make_orientation(const config::OrientationSettings& settings, double dt,
                                      RunContext& run, bool restarting) {
  return std::make_unique<OrientationFix>(settings, dt, run, restarting);
}

}  // namespace granite::scenario::detail
