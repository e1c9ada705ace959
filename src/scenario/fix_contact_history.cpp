// The contact-history fix: carries the warm-start impulses (solver/contact_history.hpp) through
// checkpoints. It does nothing between steps; its restart state is every rank's history, each
// entry tagged with the rank that holds it, gathered so that every rank stores the same text.
// Restarting on as many ranks, each rank takes back its own entries, so the continuation is
// bitwise the uninterrupted run; on another rank count every rank takes all of them (a contact
// finds its impulse whichever rank relaxes it).
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"

#include <cstdlib>
#include <sstream>

namespace granite::scenario::detail {
namespace {

class ContactHistoryFix final : public Fix {
public:
  explicit ContactHistoryFix(RunContext& run) : run_(run) {}

  const char* name() const override { return "contact_history"; }
  std::string description() const override {
    return "keeps the contact impulses for the warm start (solver.warm_start) in checkpoints";
  }
  Phase phase() const override { return Phase::other; }
  void end_of_step(RunContext&, const timestep::StepStatistics&, const StepEnd&) override {}

  bool has_state() const override { return true; }
  // Collective (every rank calls fix_states() at the same checkpoint).
  std::string state() const override {
    std::ostringstream mine;
    mine << std::hexfloat;
    for (const solver::HistoryEntry& e : run_.sim.contact_history().entries())
      mine << run_.comm.rank() << ' ' << e.key.first << ' ' << e.key.second << ' ' << e.key.ordinal
           << ' ' << e.impulse[0] << ' ' << e.impulse[1] << ' ' << e.impulse[2] << '\n';
    std::string text = "ranks " + std::to_string(run_.comm.size()) + "\n";
    for (const std::string& part : comm::all_gather_text(mine.str(), run_.comm)) text += part;
    return text;
  }

  void restore(const std::string& text) override {
    std::istringstream is(text);
    std::string word;
    int ranks = 0;
    is >> word >> ranks;
    if (!is || word != "ranks") throw InputError("checkpoint: the contact history is malformed");
    // Hexfloats: read tokens, strtod (operator>> does not parse them).
    auto real = [&is]() {
      std::string t;
      is >> t;
      return std::strtod(t.c_str(), nullptr);
    };
    std::vector<solver::HistoryEntry> entries;
    int rank = 0;
    while (is >> rank) {
      solver::HistoryEntry e;
      is >> e.key.first >> e.key.second >> e.key.ordinal;
      e.impulse[0] = real();
      e.impulse[1] = real();
      e.impulse[2] = real();
      if (!is) throw InputError("checkpoint: the contact history is malformed");
      if (ranks != run_.comm.size() || rank == run_.comm.rank()) entries.push_back(e);
    }
    run_.sim.contact_history().clear();
    run_.sim.contact_history().insert(entries);
  }

private:
  RunContext& run_;
};

}  // namespace

std::unique_ptr<Fix> make_contact_history(RunContext& run) {
  return std::make_unique<ContactHistoryFix>(run);
}

}  // namespace granite::scenario::detail
