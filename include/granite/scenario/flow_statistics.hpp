#pragma once
// Flow statistics of a run (Table 2 of the paper), sampled every `statistics.interval`:
// particles, contacts, contacts per particle, solid volume fraction of the flowing bed,
// maximum penetration (absolute and in % of the largest radius), translational and
// rotational kinetic energy, sweeps and residual. Written to statistics.csv; the closing
// summary averages the samples like Table 2.
//
// Solid volume fraction of the bed: the x-y extent of the sampling region is cut into square
// columns (statistics.column_width, default 4 diameters); in every column holding particle
// centres the bed reaches from the region's floor to the top of its highest particle; the
// fraction is the particles' volume over the summed bed volume of those columns. (The paper's
// 57.2% cannot be a whole-channel fraction: its 2.47e5 spheres fill 6.9% of the channel.)
#include "granite/timestep/simulation.hpp"

#include <mpi.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace granite::scenario {

struct FlowSample {
  double time = 0.0;
  std::uint64_t particles = 0, contacts = 0;
  double contacts_per_particle = 0.0;
  double solid_fraction = 0.0;
  double max_penetration = 0.0;          // m
  double max_penetration_percent = 0.0;  // of the largest radius
  double kinetic_translational = 0.0, kinetic_rotational = 0.0;  // J
  int sweeps = 0;
  double residual = 0.0;
};

class FlowStatistics {
public:
  /// `resolved` must have a `statistics` section.
  FlowStatistics(const YAML::Node& resolved, MPI_Comm comm);

  /// Collective: measures the current state (after a step with statistics `stats`).
  FlowSample sample(const timestep::Simulation& sim, const timestep::StepStatistics& stats);
  double interval() const { return interval_; }

  static std::string csv_header();
  static std::string csv_row(const FlowSample& s);
  /// Time averages of every sample so far, laid out like Table 2 of the paper.
  std::string summary(const std::string& model) const;
  /// The samples so far as exact text, and back (restart from a checkpoint).
  std::string state() const;
  void restore(const std::string& text);

private:
  double solid_fraction(const body::Particles& particles);

  MPI_Comm comm_;
  double interval_;
  Vec3 region_min_, region_max_;
  double column_width_ = 0.0;  // 0: 4 x the largest diameter, decided at the first sample
  std::vector<FlowSample> samples_;
  std::vector<double> column_top_, totals_;
};

} // namespace granite::scenario
