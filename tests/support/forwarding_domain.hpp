#pragma once
// A StepDomain that passes every call on to another one: tests derive from it and override
// only the calls they watch (e.g. to compare ghosts after them).
#include "granite/parallel/step_domain.hpp"

namespace granite::test_support {

class ForwardingDomain : public parallel::StepDomain {
public:
  explicit ForwardingDomain(parallel::StepDomain& inner) : inner_(inner) {}

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
  solver::Exchange& exchange() override { return inner_.exchange(); }
  void hand_over_history(solver::ContactHistory& history, const solver::ContactKeys& keys,
                         const body::Particles& p, std::size_t owned) override {
    inner_.hand_over_history(history, keys, p, owned);
  }
  void end_step(body::Particles& p, std::size_t owned) override { inner_.end_step(p, owned); }

private:
  parallel::StepDomain& inner_;
};

}  // namespace granite::test_support
