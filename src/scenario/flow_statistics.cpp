#include "granite/scenario/flow_statistics.hpp"

#include "granite/parallel/run_report.hpp"
#include "granite/scenario/build.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "granite/core/error.hpp"

namespace granite::scenario {

namespace {
constexpr std::size_t kMaxColumns = 1u << 20;
} // namespace

FlowStatistics::FlowStatistics(const YAML::Node& r, MPI_Comm comm)
    : comm_(comm), interval_(r["statistics"]["interval"].as<double>()) {
  const YAML::Node s = r["statistics"];
  region_min_ = s["region_min"] ? vec3(s["region_min"]) : vec3(r["domain"]["min"]);
  region_max_ = s["region_max"] ? vec3(s["region_max"]) : vec3(r["domain"]["max"]);
  if (s["column_width"]) column_width_ = s["column_width"].as<double>();
}

double FlowStatistics::solid_fraction(const body::Particles& p) {
  if (column_width_ == 0.0) {
    std::vector<double> r{p.max_radius()};
    parallel::max_over_ranks(r, comm_);
    column_width_ = 8.0 * r[0];
    if (column_width_ == 0.0) return 0.0;
  }
  const Vec3 extent = region_max_ - region_min_;
  const auto nx = std::size_t(std::max(1.0, std::ceil(extent[0] / column_width_)));
  const auto ny = std::size_t(std::max(1.0, std::ceil(extent[1] / column_width_)));
  const std::size_t columns = std::min(nx * ny, kMaxColumns);
  column_top_.assign(columns, -1.0);  // height of the bed above the region floor; < 0: empty
  double volume = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3& x = p.position[i];
    if ((x.array() < region_min_.array()).any() || (x.array() > region_max_.array()).any()) continue;
    const auto cx = std::min(nx - 1, std::size_t((x[0] - region_min_[0]) / column_width_));
    const auto cy = std::min(ny - 1, std::size_t((x[1] - region_min_[1]) / column_width_));
    const std::size_t c = std::min(columns - 1, cx * ny + cy);
    column_top_[c] = std::max(column_top_[c], std::min(x[2] + p.radius[i], region_max_[2]) - region_min_[2]);
    volume += 4.0 / 3.0 * M_PI * std::pow(p.radius[i], 3);
  }
  parallel::max_over_ranks(column_top_, comm_);
  totals_.assign(1, volume);
  parallel::sum_over_ranks(totals_, comm_);
  double bed = 0.0;
  for (double top : column_top_)
    if (top > 0.0) bed += top * column_width_ * column_width_;
  return bed > 0.0 ? totals_[0] / bed : 0.0;
}

FlowSample FlowStatistics::sample(const timestep::Simulation& sim, const timestep::StepStatistics& st) {
  const body::Particles& p = sim.particles();
  FlowSample s;
  s.time = st.time;
  s.particles = st.particles;
  s.contacts = st.contacts;
  s.contacts_per_particle = st.particles ? double(st.contacts) / double(st.particles) : 0.0;
  s.solid_fraction = solid_fraction(p);
  std::vector<double> energies{0.0, 0.0};
  for (std::size_t i = 0; i < p.size(); ++i) {
    energies[0] += 0.5 * p.mass[i] * p.velocity[i].squaredNorm();
    energies[1] += 0.5 * p.angular_velocity[i].dot(p.world_inertia(i) * p.angular_velocity[i]);
  }
  parallel::sum_over_ranks(energies, comm_);
  s.kinetic_translational = energies[0];
  s.kinetic_rotational = energies[1];
  std::vector<double> radius{p.max_radius()};
  parallel::max_over_ranks(radius, comm_);
  s.max_penetration = st.max_penetration;
  s.max_penetration_percent = radius[0] > 0 ? 100.0 * st.max_penetration / radius[0] : 0.0;
  s.sweeps = st.sweeps;
  s.residual = st.residual;
  samples_.push_back(s);
  return s;
}

std::string FlowStatistics::csv_header() {
  return "time_s,particles,contacts,contacts_per_particle,solid_fraction,max_penetration_m,"
         "max_penetration_percent_radius,kinetic_translational_J,kinetic_rotational_J,sweeps,"
         "residual\n";
}

std::string FlowStatistics::csv_row(const FlowSample& s) {
  char line[320];
  std::snprintf(line, sizeof line, "%.9g,%llu,%llu,%.6f,%.6f,%.6e,%.4f,%.9e,%.9e,%d,%.3e\n", s.time,
                static_cast<unsigned long long>(s.particles),
                static_cast<unsigned long long>(s.contacts), s.contacts_per_particle,
                s.solid_fraction, s.max_penetration, s.max_penetration_percent,
                s.kinetic_translational, s.kinetic_rotational, s.sweeps, s.residual);
  return line;
}

std::string FlowStatistics::summary(const std::string& model) const {
  double particles = 0, contacts = 0, per_particle = 0, fraction = 0, penetration = 0, percent = 0;
  for (const FlowSample& s : samples_) {
    particles += double(s.particles);
    contacts += double(s.contacts);
    per_particle += s.contacts_per_particle;
    fraction += s.solid_fraction;
    penetration = std::max(penetration, s.max_penetration);
    percent = std::max(percent, s.max_penetration_percent);
  }
  const double n = std::max<double>(1.0, double(samples_.size()));
  char text[768];
  std::snprintf(text, sizeof text,
                "Flow statistics (%zu samples; averages as in Table 2 of the paper), model %s\n"
                "  avg. number of particles          %.1f\n"
                "  solid volume fraction of the bed  %.1f %%\n"
                "  avg. number of contacts           %.1f\n"
                "  avg. contacts per particle        %.4f\n"
                "  max. penetration                  %.3f um (%.2f %% of the radius)",
                samples_.size(), model.c_str(), particles / n, 100.0 * fraction / n, contacts / n,
                per_particle / n, penetration * 1e6, percent);
  return text;
}

std::string FlowStatistics::state() const {
  std::ostringstream os;
  os << std::hexfloat << samples_.size() << '\n';
  for (const FlowSample& s : samples_)
    os << s.time << ' ' << s.particles << ' ' << s.contacts << ' ' << s.contacts_per_particle << ' '
       << s.solid_fraction << ' ' << s.max_penetration << ' ' << s.max_penetration_percent << ' '
       << s.kinetic_translational << ' ' << s.kinetic_rotational << ' ' << s.sweeps << ' '
       << s.residual << '\n';
  return os.str();
}

void FlowStatistics::restore(const std::string& text) {
  std::istringstream is(text);
  std::size_t n = 0;
  is >> n;
  samples_.assign(n, FlowSample{});
  // Doubles were written as hexfloats, which operator>> does not parse: read tokens, strtod.
  auto real = [&is]() { std::string t; is >> t; return std::strtod(t.c_str(), nullptr); };
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
  }
  if (!is) throw InputError("checkpoint: the statistics state is malformed");
}

} // namespace granite::scenario
