#pragma once
// Flow statistics of a run (Table 2 of the paper), sampled every `statistics.interval`:
// particles, contacts, contacts per particle, solid volume fractions of the bed and of the
// channel, maximum penetration (absolute and in % of the largest radius), translational and
// rotational kinetic energy, sweeps and residual. Written to statistics.csv; the closing
// summary averages the samples from `statistics.average_from` on, like Table 2, and states
// how far the particle count drifted over them (a steady flow keeps it level).
// The measures are defined in docs/channel.md.
#include "granite/timestep/simulation.hpp"

#include "granite/comm/communicator.hpp"
#include "granite/config/settings.hpp"

#include <string>
#include <vector>

namespace granite::scenario {

struct FlowSample {
  double time = 0.0;
  std::uint64_t particles = 0, contacts = 0;
  double contacts_per_particle = 0.0;
  double solid_fraction = 0.0;           // of the bed (columns up to their highest particle)
  double channel_fraction = 0.0;         // of the region's volume outside static global bodies
  double max_penetration = 0.0;          // m
  double max_penetration_percent = 0.0;  // of the largest radius
  double kinetic_translational = 0.0, kinetic_rotational = 0.0;  // J
  int sweeps = 0;
  double residual = 0.0;
  double fc3d_error = 0.0;  // of the step's contact problem after the relaxation
};

/// Time averages over the samples at t >= average_from (Table 2 of the paper).
struct FlowSummary {
  std::size_t samples = 0;
  double average_from = 0.0;  // s
  double particles = 0.0, contacts = 0.0, contacts_per_particle = 0.0;
  double solid_fraction = 0.0, channel_fraction = 0.0;  // averages (fractions, not %)
  double max_penetration = 0.0;                         // m, the maximum over the samples
  double max_penetration_percent = 0.0;                 // of the largest radius
  double particle_drift = 0.0;                          // see particle_drift()
};

class FlowStatistics {
public:
  /// The region defaults to the domain box.
  FlowStatistics(const config::StatisticsSettings& settings, const config::DomainSettings& domain,
                 const comm::Communicator& comm);

  /// Collective: measures the current state (after a step with statistics `stats`).
  FlowSample sample(const timestep::Simulation& sim, const timestep::StepStatistics& stats);
  double interval() const { return interval_; }

  static std::string csv_header();
  static std::string csv_row(const FlowSample& s);
  /// Time averages of the samples at t >= average_from, laid out like Table 2 of the paper,
  /// and the drift of the particle count over them.
  std::string summary(const std::string& model) const;
  FlowSummary averages() const;
  /// Relative change of the mean particle count from the first to the last third of the
  /// averaged samples (0 for fewer than 3 samples): near 0 when the flow is steady.
  double particle_drift() const;
  /// The samples so far as exact text, and back (restart from a checkpoint).
  std::string state() const;
  void restore(const std::string& text);

private:
  double solid_fraction(const body::Particles& particles, const body::ShapeTable& shapes);
  double free_volume(const body::GlobalBodies& globals) const;
  std::vector<const FlowSample*> averaged() const;

  comm::Communicator comm_;
  double interval_;
  Vec3 region_min_, region_max_;
  double column_width_ = 0.0;  // 0: 4 x the largest diameter, decided at the first sample
  double average_from_ = 0.0;
  double free_volume_ = -1.0;  // < 0: not measured yet
  double solids_ = 0.0;        // particle volume in the region at the last sample
  std::vector<FlowSample> samples_;
  std::vector<double> column_top_, totals_;
};

}  // namespace granite::scenario
