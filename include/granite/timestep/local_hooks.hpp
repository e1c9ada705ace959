#pragma once
// The one-rank StepHooks: every body is owned, there are no ghosts, no other rank to agree
// with or to send to, and a reduction over one rank is its own value. A Simulation without
// hooks of its own runs with these, so that a serial step is the distributed step's code with
// a one-rank seam, not another branch.
#include "granite/timestep/simulation.hpp"

namespace granite::timestep {

class LocalHooks final : public StepHooks {
public:
  std::size_t synchronise(body::Particles& particles) override { return particles.size(); }
  bool agree_on_rebuild(const body::Particles&, bool wanted) override { return wanted; }
  std::size_t refresh_ghosts(body::Particles& particles, const std::vector<std::int64_t>&,
                             std::vector<std::int64_t>& ghost_map, bool& ghosts_deleted) override {
    ghost_map.clear();
    ghosts_deleted = false;
    return particles.size();
  }
  void retain_responsible_contacts(collision::ContactList&, const body::Particles&,
                                   std::size_t) override {}
  void weigh_ghost_contacts(std::vector<solver::SolverContact>&, std::size_t,
                            std::size_t) override {}
  solver::Exchange& exchange() override { return exchange_; }
  std::size_t restore_ghosts(body::Particles& particles, double) override {
    return particles.size();
  }
  double ghost_width() const override { return 0.0; }
  void reduce(StepStatistics&) override {}
  void end_step(body::Particles&, std::size_t) override {}

private:
  solver::LocalExchange exchange_;
};

}  // namespace granite::timestep
