#pragma once
// A StepHooks that passes every call on to another one: tests derive from it and override
// only the calls they watch (e.g. to compare ghosts or contacts after them).
#include "granite/timestep/simulation.hpp"

namespace granite::test_support {

class ForwardingHooks : public timestep::StepHooks {
public:
  explicit ForwardingHooks(timestep::StepHooks& inner) : inner_(inner) {}

  std::size_t synchronise(body::Particles& p) override { return inner_.synchronise(p); }
  bool agree_on_rebuild(const body::Particles& p, bool wanted) override {
    return inner_.agree_on_rebuild(p, wanted);
  }
  std::size_t refresh_ghosts(body::Particles& p, const std::vector<std::int64_t>& owned_map,
                             std::vector<std::int64_t>& ghost_map, bool& deleted) override {
    return inner_.refresh_ghosts(p, owned_map, ghost_map, deleted);
  }
  std::size_t restore_ghosts(body::Particles& p, double width) override {
    return inner_.restore_ghosts(p, width);
  }
  double ghost_width() const override { return inner_.ghost_width(); }
  void retain_responsible_contacts(collision::ContactList& contacts, const body::Particles& p,
                                   std::size_t owned) override {
    inner_.retain_responsible_contacts(contacts, p, owned);
  }
  void weigh_ghost_contacts(std::vector<solver::SolverContact>& contacts, std::size_t owned,
                            std::size_t particle_count) override {
    inner_.weigh_ghost_contacts(contacts, owned, particle_count);
  }
  solver::Exchange& exchange() override { return inner_.exchange(); }
  void hand_over_history(solver::ContactHistory& history, const collision::ContactList& contacts,
                         const body::Particles& p, std::size_t owned) override {
    inner_.hand_over_history(history, contacts, p, owned);
  }
  void reduce(timestep::StepStatistics& stats) override { inner_.reduce(stats); }
  void end_step(body::Particles& p, std::size_t owned) override { inner_.end_step(p, owned); }

private:
  timestep::StepHooks& inner_;
};

}  // namespace granite::test_support
