#pragma once
// A run's engine, assembled once from the settings and shared by `granite run` (fresh, with
// --restart and with --from) and `granite forces`: the distributed domain on a chosen
// decomposition, the simulation with the configuration's materials, global bodies and
// parameters (and its particles on a fresh run), and the context the fixes share.
#include "granite/comm/communicator.hpp"
#include "granite/config/config.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/fixes/fix.hpp"
#include "granite/timestep/simulation.hpp"

#include <string>
#include <vector>

namespace granite::scenario {

class Run {
public:
  /// `decomposition` and `skin` from detail::decomposition_of (the caller chooses them before
  /// it touches the output directory). With `build_particles` the configuration's particles
  /// are created (their fills reported in `fills`); otherwise they come from a checkpoint.
  Run(const config::ScenarioConfig& cfg, const comm::Communicator& comm,
      const parallel::Decomposition& decomposition, double skin, std::string output_dir,
      bool build_particles, std::vector<SourceReport>* fills = nullptr);
  // The context and the simulation refer to the members: a Run stays where it was built.
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  const Domain domain;
  parallel::DistributedDomain distributed;  // its decomposition moves with the load balance
  timestep::Simulation sim;
  BodyId next_id = 0;  // the first id of particles created later (inflow, pour, --from)
  RunContext context;
};

}  // namespace granite::scenario
