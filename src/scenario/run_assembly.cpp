// A run's engine, assembled once (see include/granite/scenario/run_assembly.hpp).
#include "granite/scenario/run_assembly.hpp"

#include <random>

namespace granite::scenario {

Run::Run(const config::ScenarioConfig& cfg, const comm::Communicator& comm,
         const parallel::Decomposition& decomposition, double skin, std::string output_dir,
         bool build_particles, std::vector<SourceReport>* fills) :
    domain(domain_of(cfg.settings.domain)),
    distributed(comm, decomposition, cfg.settings.contact.threshold,
                parallel_settings(cfg.settings, skin)),
    context{.sim = sim,
            .comm = comm,
            .output_dir = std::move(output_dir),
            .config_file = cfg.file,
            .decomposition = decomposition.dims(),
            // The decomposition as it is now (the balance fix moves its cuts).
            .owns =
                [this](const Vec3& x) {
                  return distributed.decomposition().owner_of(x) == context.comm.rank();
                },
            .distributed = &distributed} {
  std::mt19937_64 rng(cfg.settings.run.seed);
  const Placement place{
      .owner = [this](const Vec3& x) { return distributed.decomposition().owner_of(x); },
      .comm = &context.comm,
      .create = build_particles};
  next_id = build_simulation(cfg.settings, sim, rng, place, fills);
  sim.particles().shrink_to_fit();  // up to half of the arrays is the build's doubling
  sim.parameters().skin = skin;
  sim.set_domain(&distributed);
}

}  // namespace granite::scenario
