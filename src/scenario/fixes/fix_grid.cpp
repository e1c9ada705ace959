// The grid measurement: instantaneous averages over the cells of a box every interval, one row
// per cell in grid.csv. Particles belong to the cell of their centre; per cell (m_i mass, v_i
// velocity, V cell volume):
//   solid fraction      φ = Σ (4/3) π r_i³ / V                    (centre binning)
//   mean velocity       v̄ = Σ m_i v_i / Σ m_i
//   granular temperature T = Σ m_i |v_i − v̄|² / (3 Σ m_i)        (m²/s²)
//   coordination number  Z = contact ends in the cell / particles, counting the contacts that
//                        carry a force (λ_n > 0) at their witness point: 2 ends for two
//                        particles, 1 for a particle on a global body.
//   the elongated grains' count, nematic order S and director (scenario/order_tensor.hpp).
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/scenario/order_tensor.hpp"

#include <cmath>
#include <cstdio>

namespace granite::scenario::detail {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Per-cell sums, reduced over the ranks at each sample.
enum Sum : std::size_t { count, volume, mass, px, py, pz, mv2, ends, order, sums = order + 7 };

class GridFix final : public Fix {
public:
  GridFix(const config::GridSettings& settings, double dt, RunContext& run, bool restarting) :
      cadence_(Cadence::every_interval(settings.interval, dt)), settings_(settings),
      axes_(long_axes(run.sim.shapes())) {
    run.sim.set_record_contacts(true);
    for (int a = 0; a < 3; ++a)
      width_[a] = (settings.max[a] - settings.min[a]) / double(settings.cells[std::size_t(a)]);
    csv_ =
        open_table(run, "grid.csv",
                   "step,time_s,i,j,k,x_m,y_m,z_m,particles,solid_fraction,vx_m_s,vy_m_s,"
                   "vz_m_s,temperature_m2_s2,coordination,elongated,order_S,director_x,director_y,"
                   "director_z\n",
                   restarting);
  }

  const char* name() const override { return "grid"; }
  std::string description() const override {
    const auto& c = settings_.cells;
    return "solid fraction, velocity, temperature, coordination on " + std::to_string(c[0]) + "x" +
           std::to_string(c[1]) + "x" + std::to_string(c[2]) + " cells every " +
           std::to_string(settings_.interval) + " s (grid.csv)";
  }

  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd&) override {
    if (!cadence_.due(stats.step, false)) return;  // whole intervals, as the other measurements
    std::vector<double> s(cell_count() * sums, 0.0);
    const body::Particles& p = run.sim.particles();
    for (std::size_t i = 0; i < p.size(); ++i) {
      const long c = cell_of(p.position[i]);
      if (c < 0) continue;
      double* cell = &s[std::size_t(c) * sums];
      const double r = p.radius[i], m = p.mass[i];
      const Vec3& v = p.velocity[i];
      cell[count] += 1.0;
      cell[volume] += body::volume_of(run.sim.shapes(), p.shape[i], r);
      cell[mass] += m;
      cell[px] += m * v[0];
      cell[py] += m * v[1];
      cell[pz] += m * v[2];
      cell[mv2] += m * v.squaredNorm();
      if (const Vec3 u = long_axis_of(p, i, axes_); !u.isZero(0.0)) OrderSums::add(cell + order, u);
    }
    const timestep::ContactRecord& record = run.sim.contact_record();
    for (std::size_t k = 0; k < record.size(); ++k) {
      if (!(record.impulse[k].dot(record.normal[k]) > 0.0)) continue;  // carries no force
      const long c = cell_of(record.point2[k]);
      if (c >= 0) s[std::size_t(c) * sums + ends] += record.body2[k] >= 0 ? 2.0 : 1.0;
    }
    comm::sum_in_place(s, run.comm);
    append_row(run, csv_, rows(stats, s));
  }

  void finish(RunContext& run) override {
    io::on_root_collectively(run.comm, [&] { csv_.close(); });
  }

private:
  std::size_t cell_count() const {
    const auto& c = settings_.cells;
    return std::size_t(c[0]) * std::size_t(c[1]) * std::size_t(c[2]);
  }

  // Index of the cell holding x (x fastest), or −1 outside the box.
  long cell_of(const Vec3& x) const {
    long index = 0, stride = 1;
    for (int a = 0; a < 3; ++a) {
      const double u = (x[a] - settings_.min[a]) / width_[a];
      const long n = settings_.cells[std::size_t(a)];
      if (!(u >= 0.0 && u < double(n))) return -1;
      index += stride * std::min(long(u), n - 1);
      stride *= n;
    }
    return index;
  }

  std::string rows(const timestep::StepStatistics& stats, const std::vector<double>& s) const {
    const auto& n = settings_.cells;
    const double cell_volume = width_[0] * width_[1] * width_[2];
    std::string out;
    for (std::size_t c = 0; c < cell_count(); ++c) {
      const std::size_t i = c % std::size_t(n[0]), j = c / std::size_t(n[0]) % std::size_t(n[1]),
                        k = c / (std::size_t(n[0]) * std::size_t(n[1]));
      const Vec3 centre =
          settings_.min + Vec3((double(i) + 0.5) * width_[0], (double(j) + 0.5) * width_[1],
                               (double(k) + 0.5) * width_[2]);
      const double* cell = &s[c * sums];
      const double nan = std::nan("");
      const bool filled = cell[count] > 0.0;
      const Vec3 momentum(cell[px], cell[py], cell[pz]);
      const Vec3 mean = filled ? Vec3(momentum / cell[mass]) : Vec3(nan, nan, nan);
      // Σ m|v − v̄|² = Σ m|v|² − |Σ m v|² / Σ m (rounding can take it just below 0).
      const double temperature =
          filled
              ? std::max(0.0, cell[mv2] - momentum.squaredNorm() / cell[mass]) / (3.0 * cell[mass])
              : nan;
      const Order o = order_of(cell + order);
      char line[768];
      std::snprintf(line, sizeof line,
                    "%lld,%.9g,%zu,%zu,%zu,%.9g,%.9g,%.9g,%.0f,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.0f,"
                    "%.9e,%.9e,%.9e,%.9e\n",
                    static_cast<long long>(stats.step), stats.time, i, j, k, centre[0], centre[1],
                    centre[2], cell[count], cell[volume] / cell_volume, mean[0], mean[1], mean[2],
                    temperature, filled ? cell[ends] / cell[count] : nan, o.grains, o.S,
                    o.director[0], o.director[1], o.director[2]);
      out += line;
    }
    return out;
  }

  Cadence cadence_;
  config::GridSettings settings_;
  std::vector<Vec3> axes_;  // per shape (long_axes)
  double width_[3] = {1.0, 1.0, 1.0};
  io::AppendFile csv_;
};

}  // namespace

std::unique_ptr<Fix> make_grid(const config::GridSettings& settings, double dt, RunContext& run,
                               bool restarting) {
  return std::make_unique<GridFix>(settings, dt, run, restarting);
}

}  // namespace granite::scenario::detail
