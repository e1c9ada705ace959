#include "granite/scenario/flow_statistics.hpp"

#include "granite/comm/collectives.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "granite/core/error.hpp"

namespace granite::scenario {

namespace {
constexpr std::size_t kMaxColumns = config::kMaxStatisticsColumns;
constexpr double kFreeVolumeCells = 256.0;  // grid cells along the region's longest edge
}  // namespace

FlowStatistics::FlowStatistics(const config::StatisticsSettings& s,
                               const config::DomainSettings& domain,
                               const comm::Communicator& comm) :
    comm_(comm),
    interval_(s.interval), region_min_(s.region_min.value_or(domain.min)),
    region_max_(s.region_max.value_or(domain.max)), column_width_(s.column_width.value_or(0.0)),
    average_from_(s.average_from) {}

// Volume of the sampling region outside every static global body, by the midpoint rule on a
// grid of cubic cells (256 along the longest edge; the piston and other moving bodies are not
// subtracted). Every rank computes the same value.
double FlowStatistics::free_volume(const body::GlobalBodies& globals) const {
  const Vec3 extent = region_max_ - region_min_;
  const double h = extent.maxCoeff() / kFreeVolumeCells;
  const Eigen::Array3i n = (extent.array() / h).ceil().max(1.0).cast<int>();
  const Vec3 cell = extent.array() / n.cast<double>();
  std::size_t free = 0;
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        const Vec3 x = region_min_ + Vec3(i + 0.5, j + 0.5, k + 0.5).cwiseProduct(cell);
        bool solid = false;
        for (std::size_t b = 0; b < globals.size() && !solid; ++b) {
          if (globals[b].velocity != Vec3::Zero()) continue;
          for (const body::Primitive& part : globals[b].parts)
            if (body::signed_distance(part, x, 0.0) < 0.0) solid = true;
        }
        free += !solid;
      }
  return double(free) * cell.prod();
}

double FlowStatistics::solid_fraction(const body::Particles& p, const body::ShapeTable& shapes) {
  if (column_width_ == 0.0) {
    std::vector<double> r{p.max_radius()};
    comm::max_in_place(r, comm_);
    column_width_ = 8.0 * r[0];
    if (column_width_ == 0.0) return 0.0;
  }
  const Vec3 extent = region_max_ - region_min_;
  // Bounded before the conversion (the default width, 8 r, can be tiny against the region).
  const double most = double(kMaxColumns);
  const auto nx = std::size_t(std::clamp(std::ceil(extent[0] / column_width_), 1.0, most));
  const auto ny = std::size_t(std::clamp(std::ceil(extent[1] / column_width_), 1.0, most));
  const std::size_t columns = std::min(nx * ny, kMaxColumns);
  column_top_.assign(columns, -1.0);  // height of the bed above the region floor; < 0: empty
  double volume = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3& x = p.position[i];
    if ((x.array() < region_min_.array()).any() || (x.array() > region_max_.array()).any())
      continue;
    const auto cx = std::min(nx - 1, std::size_t((x[0] - region_min_[0]) / column_width_));
    const auto cy = std::min(ny - 1, std::size_t((x[1] - region_min_[1]) / column_width_));
    const std::size_t c = std::min(columns - 1, cx * ny + cy);
    column_top_[c] =
        std::max(column_top_[c], std::min(x[2] + p.radius[i], region_max_[2]) - region_min_[2]);
    volume += body::volume_of(shapes, p.shape[i], p.radius[i]);
  }
  comm::max_in_place(column_top_, comm_);
  totals_.assign(1, volume);
  comm::sum_in_place(totals_, comm_);
  solids_ = totals_[0];
  double bed = 0.0;
  for (double top : column_top_)
    if (top > 0.0) bed += top * column_width_ * column_width_;
  return bed > 0.0 ? totals_[0] / bed : 0.0;
}

FlowSample FlowStatistics::sample(const timestep::Simulation& sim,
                                  const timestep::StepStatistics& st) {
  const body::Particles& p = sim.particles();
  FlowSample s;
  s.time = st.time;
  s.particles = st.particles;
  s.contacts = st.contacts;
  s.contacts_per_particle = st.particles ? double(st.contacts) / double(st.particles) : 0.0;
  s.solid_fraction = solid_fraction(p, sim.shapes());
  if (free_volume_ < 0.0) free_volume_ = free_volume(sim.globals());
  s.channel_fraction = free_volume_ > 0.0 ? solids_ / free_volume_ : 0.0;
  std::vector<double> energies{0.0, 0.0};
  for (std::size_t i = 0; i < p.size(); ++i) {
    energies[0] += 0.5 * p.mass[i] * p.velocity[i].squaredNorm();
    energies[1] += p.rotational_energy(i);
  }
  comm::sum_in_place(energies, comm_);
  s.kinetic_translational = energies[0];
  s.kinetic_rotational = energies[1];
  std::vector<double> radius{p.max_radius()};
  comm::max_in_place(radius, comm_);
  s.max_penetration = st.max_penetration;
  s.max_penetration_percent = radius[0] > 0 ? 100.0 * st.max_penetration / radius[0] : 0.0;
  s.sweeps = st.sweeps;
  s.residual = st.residual;
  s.fc3d_error = st.fc3d_error;
  samples_.push_back(s);
  return s;
}

std::string FlowStatistics::csv_header() {
  return "time_s,particles,contacts,contacts_per_particle,solid_fraction,max_penetration_m,"
         "max_penetration_percent_radius,kinetic_translational_J,kinetic_rotational_J,sweeps,"
         "residual,channel_solid_fraction,fc3d_error\n";
}

std::string FlowStatistics::csv_row(const FlowSample& s) {
  char line[352];
  std::snprintf(
      line, sizeof line, "%.9g,%llu,%llu,%.6f,%.6f,%.6e,%.4f,%.9e,%.9e,%d,%.3e,%.6f,%.3e\n", s.time,
      static_cast<unsigned long long>(s.particles), static_cast<unsigned long long>(s.contacts),
      s.contacts_per_particle, s.solid_fraction, s.max_penetration, s.max_penetration_percent,
      s.kinetic_translational, s.kinetic_rotational, s.sweeps, s.residual, s.channel_fraction,
      s.fc3d_error);
  return line;
}

std::vector<const FlowSample*> FlowStatistics::averaged() const {
  std::vector<const FlowSample*> window;
  // Sample times are sums of steps: a sample meant at average_from may fall just below it.
  const double from = average_from_ - 1e-6 * interval_;
  for (const FlowSample& s : samples_)
    if (s.time >= from) window.push_back(&s);
  return window;
}

double FlowStatistics::particle_drift() const {
  const std::vector<const FlowSample*> w = averaged();
  const std::size_t third = w.size() / 3;
  if (third == 0) return 0.0;
  double first = 0.0, last = 0.0;
  for (std::size_t i = 0; i < third; ++i) {
    first += double(w[i]->particles);
    last += double(w[w.size() - 1 - i]->particles);
  }
  return first > 0.0 ? (last - first) / first : 0.0;
}

FlowSummary FlowStatistics::averages() const {
  const std::vector<const FlowSample*> window = averaged();
  FlowSummary a;
  a.samples = window.size();
  a.average_from = average_from_;
  for (const FlowSample* s : window) {
    a.particles += double(s->particles);
    a.contacts += double(s->contacts);
    a.contacts_per_particle += s->contacts_per_particle;
    a.solid_fraction += s->solid_fraction;
    a.channel_fraction += s->channel_fraction;
    a.max_penetration = std::max(a.max_penetration, s->max_penetration);
    a.max_penetration_percent = std::max(a.max_penetration_percent, s->max_penetration_percent);
  }
  const double n = std::max<double>(1.0, double(window.size()));
  a.particles /= n;
  a.contacts /= n;
  a.contacts_per_particle /= n;
  a.solid_fraction /= n;
  a.channel_fraction /= n;
  a.particle_drift = particle_drift();
  return a;
}

std::string FlowStatistics::summary(const std::string& model) const {
  const FlowSummary a = averages();
  char text[1024];
  std::snprintf(text, sizeof text,
                "Flow statistics (%zu samples from t = %g s; averages as in Table 2 of the paper), "
                "model %s\n"
                "  avg. number of particles          %.1f\n"
                "  solid volume fraction of the bed  %.1f %%\n"
                "  ... of the channel                %.2f %%\n"
                "  avg. number of contacts           %.1f\n"
                "  avg. contacts per particle        %.4f\n"
                "  max. penetration                  %.3f um (%.2f %% of the radius)\n"
                "  particle count drift              %+.1f %% (first to last third of the samples)",
                a.samples, a.average_from, model.c_str(), a.particles, 100.0 * a.solid_fraction,
                100.0 * a.channel_fraction, a.contacts, a.contacts_per_particle,
                a.max_penetration * 1e6, a.max_penetration_percent, 100.0 * a.particle_drift);
  return text;
}

std::string FlowStatistics::state() const {
  std::ostringstream os;
  os << std::hexfloat << samples_.size() << '\n';
  for (const FlowSample& s : samples_)
    os << s.time << ' ' << s.particles << ' ' << s.contacts << ' ' << s.contacts_per_particle << ' '
       << s.solid_fraction << ' ' << s.max_penetration << ' ' << s.max_penetration_percent << ' '
       << s.kinetic_translational << ' ' << s.kinetic_rotational << ' ' << s.sweeps << ' '
       << s.residual << ' ' << s.channel_fraction << ' ' << s.fc3d_error << '\n';
  return os.str();
}

void FlowStatistics::restore(const std::string& text) {
  std::istringstream is(text);
  std::size_t n = 0;
  is >> n;
  samples_.assign(n, FlowSample{});
  // Doubles were written as hexfloats, which operator>> does not parse: read tokens, strtod.
  auto real = [&is]() {
    std::string t;
    is >> t;
    return std::strtod(t.c_str(), nullptr);
  };
  for (FlowSample& s : samples_) {
    s.time = real();
    is >> s.particles >> s.contacts;
    s.contacts_per_particle = real();
    s.solid_fraction = real();
    s.max_penetration = real();
    s.max_penetration_percent = real();
    s.kinetic_translational = real();
    s.kinetic_rotational = real();
    is >> s.sweeps;
    s.residual = real();
    s.channel_fraction = real();
    s.fc3d_error = real();
  }
  if (!is) throw InputError("checkpoint: the statistics state is malformed");
}

}  // namespace granite::scenario
