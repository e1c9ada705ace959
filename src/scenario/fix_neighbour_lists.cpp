// The neighbour-lists fix (only with contact.skin > 0): carries the lists through checkpoints.
// The lists themselves are not stored: the particles' neighbour_reference (a checkpointed
// field) holds where every body was at the last build; this fix's state adds the step of that
// build, its ghost width and whether the lists were still valid (not stale on any rank). A
// restart on as many ranks from a valid state rebuilds the same ghosts and lists from the
// references (timestep::Simulation::restore_neighbour_lists), so the continuation is bit for
// bit the uninterrupted run; otherwise its first step rebuilds, as the uninterrupted run does.
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"

#include <cstdlib>
#include <sstream>

namespace granite::scenario::detail {
namespace {

class NeighbourListsFix final : public Fix {
public:
  explicit NeighbourListsFix(RunContext& run) : run_(run) {}

  const char* name() const override { return "neighbour_lists"; }
  std::string description() const override {
    return "keeps the neighbour lists' build (contact.skin) in checkpoints";
  }
  Phase phase() const override { return Phase::other; }
  void end_of_step(RunContext&, const timestep::StepStatistics&, const StepEnd&) override {}

  bool has_state() const override { return true; }
  // Collective (every rank calls fix_states() at the same checkpoint).
  std::string state() const override {
    const timestep::Simulation::NeighbourState s = run_.sim.neighbour_state();
    const bool valid = comm::all_ok(s.valid, run_.comm);
    std::ostringstream os;
    os << std::hexfloat << "ranks " << run_.comm.size() << " built_at " << s.built_at
       << " ghost_width " << s.ghost_width << " valid " << (valid ? 1 : 0) << '\n';
    return os.str();
  }

  void restore(const std::string& text) override {
    std::istringstream is(text);
    std::string ranks_word, built_word, width_word, valid_word, width;
    int ranks = 0, valid = 0;
    timestep::Simulation::NeighbourState s;
    is >> ranks_word >> ranks >> built_word >> s.built_at >> width_word >> width >> valid_word >>
        valid;
    if (!is || ranks_word != "ranks" || built_word != "built_at" || width_word != "ghost_width" ||
        valid_word != "valid")
      throw InputError("checkpoint: the neighbour-list state is malformed");
    s.ghost_width = std::strtod(width.c_str(), nullptr);  // a hexfloat
    s.valid = valid == 1 && ranks == run_.comm.size();    // another decomposition rebuilds
    run_.sim.restore_neighbour_lists(s);
  }

private:
  RunContext& run_;
};

}  // namespace

std::unique_ptr<Fix> make_neighbour_lists(RunContext& run) {
  return std::make_unique<NeighbourListsFix>(run);
}

}  // namespace granite::scenario::detail
