// The engine's restart state (see include/granite/scenario/engine_state.hpp). The history
// travels as rows of doubles and the lists' state as text with hexfloats, so that a restart
// reads back every bit.
#include "granite/scenario/engine_state.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/parallel/id_directory.hpp"
#include "granite/core/error.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace granite::scenario {

namespace {

constexpr const char* kHistory = "contact_history";
constexpr const char* kNeighbourLists = "neighbour_lists";
constexpr const char* kRelaxationPrior = "relaxation_prior";

// The last relaxation's decay (the same on every rank: from reduced measures), in a hexfloat.
std::string relaxation_prior_text(const timestep::Simulation& sim) {
  std::ostringstream os;
  os << std::hexfloat << "decay " << sim.relaxation_prior().decay << " span "
     << sim.relaxation_prior().span << '\n';
  return os.str();
}

void restore_relaxation_prior(const std::string& text, timestep::Simulation& sim) {
  std::istringstream is(text);
  std::string decay_word, decay, span_word;
  int span = -1;
  is >> decay_word >> decay >> span_word >> span;
  if (!is || decay_word != "decay" || span_word != "span" || span < 0)
    throw InputError("checkpoint: the relaxation's decay is malformed");
  sim.relaxation_prior() = {std::strtod(decay.c_str(), nullptr), span};  // a hexfloat
}

// Collective: the lists are valid only if they are on every rank.
std::string neighbour_lists_text(const timestep::Simulation& sim, const comm::Communicator& comm) {
  const timestep::Simulation::NeighbourState s = sim.neighbour_state();
  const bool valid = comm::all_ok(s.valid, comm);
  std::ostringstream os;
  os << std::hexfloat << "ranks " << comm.size() << " built_at " << s.built_at << " ghost_width "
     << s.ghost_width << " valid " << (valid ? 1 : 0) << '\n';
  return os.str();
}

void restore_neighbour_lists(const std::string& text, timestep::Simulation& sim,
                             const comm::Communicator& comm) {
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
  s.valid = valid == 1 && ranks == comm.size();         // another decomposition rebuilds
  sim.restore_neighbour_lists(s);
}

// An older checkpoint's history (format 7 and before): "ranks R", then one line per entry of
// every rank: rank, key, impulse, and with rolling or spinning resistance the torque impulse
// (3 more numbers), in hexfloats. The same decomposition takes its own entries; another, all.
std::vector<solver::HistoryEntry> history_from_text(const std::string& text,
                                                    const comm::Communicator& comm) {
  std::istringstream is(text);
  std::string word;
  int ranks = 0;
  is >> word >> ranks;
  if (!is || word != "ranks") throw InputError("checkpoint: the contact history is malformed");
  // Hexfloats: read as tokens and converted by strtod (operator>> does not parse them).
  std::vector<solver::HistoryEntry> entries;
  std::string line;
  std::getline(is, line);  // the rest of the "ranks" line
  while (std::getline(is, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    int rank = 0;
    solver::HistoryEntry e;
    fields >> rank >> e.key.first >> e.key.second >> e.key.ordinal;
    std::vector<double> reals;
    for (std::string t; fields >> t;) reals.push_back(std::strtod(t.c_str(), nullptr));
    if (!fields.eof() || (reals.size() != 3 && reals.size() != 6))
      throw InputError("checkpoint: the contact history is malformed");
    e.impulse = Vec3(reals[0], reals[1], reals[2]);
    if (reals.size() == 6) e.torque = Vec3(reals[3], reals[4], reals[5]);
    if (ranks != comm.size() || rank == comm.rank()) entries.push_back(e);
  }
  return entries;
}

// Collective: the rows this rank read (its share of another decomposition's) sent to the ranks
// that own their particles, once to each; returns the entries this rank receives, sorted by
// key (the order the old text gave them in).
std::vector<solver::HistoryEntry> route_to_owners(const std::vector<io::HistoryRow>& rows,
                                                  const body::Particles& particles,
                                                  const comm::Communicator& comm) {
  std::vector<BodyId> wanted;
  for (const io::HistoryRow& r : rows) {
    wanted.push_back(r.first);
    if (r.second >= 0) wanted.push_back(r.second);
  }
  const std::vector<BodyId> owned(particles.id.begin(),
                                  particles.id.begin() + std::ptrdiff_t(particles.size()));
  const std::unordered_map<BodyId, int> owner = parallel::owners_of(wanted, owned, comm);
  std::vector<std::vector<io::HistoryRow>> send(std::size_t(comm.size()));
  for (const io::HistoryRow& r : rows) {
    const auto a = owner.find(r.first);
    const auto b = r.second >= 0 ? owner.find(r.second) : owner.end();
    if (a != owner.end()) send[std::size_t(a->second)].push_back(r);
    if (b != owner.end() && (a == owner.end() || b->second != a->second))
      send[std::size_t(b->second)].push_back(r);
  }
  std::vector<solver::HistoryEntry> entries;
  for (const io::HistoryRow& r : comm::all_to_all(send, comm))
    entries.push_back(solver::entry_of(r));
  std::sort(entries.begin(), entries.end(),
            [](const solver::HistoryEntry& x, const solver::HistoryEntry& y) {
              return solver::by_key(x, y);
            });
  return entries;
}

}  // namespace

void save_engine_state(const timestep::Simulation& sim, const comm::Communicator& comm,
                       io::CheckpointState& state) {
  if (sim.parameters().warm_start > 0.0) {
    state.has_history = true;
    // Rows sorted by key (a file that does not depend on the detection order), formed from the
    // entries as the writer asks for them: a checkpoint's transient memory is the sorting
    // permutation (4 bytes per entry) and one column, not a copy of the history.
    const solver::ContactHistory& history = sim.contact_history();
    auto order = std::make_shared<std::vector<std::uint32_t>>(history.size());
    std::iota(order->begin(), order->end(), std::uint32_t(0));
    std::sort(order->begin(), order->end(),
              [&](std::uint32_t a, std::uint32_t b) { return history.key(a) < history.key(b); });
    state.history.clear();
    state.history_count = history.size();
    state.history_row = [&history, order](std::size_t i) {
      return solver::record_of(history.entry((*order)[i]));
    };
  }
  if (sim.parameters().skin > 0.0) state.engine[kNeighbourLists] = neighbour_lists_text(sim, comm);
  state.engine[kRelaxationPrior] = relaxation_prior_text(sim);
}

void restore_contact_history(const io::CheckpointState& state, timestep::Simulation& sim,
                             const comm::Communicator& comm) {
  std::vector<solver::HistoryEntry> entries;
  if (state.has_history) {
    if (state.history_as_written)
      for (const io::HistoryRow& r : state.history) entries.push_back(solver::entry_of(r));
    else
      entries = route_to_owners(state.history, sim.particles(), comm);
  } else {
    const auto text = state.engine.find(kHistory);
    if (text == state.engine.end()) return;
    entries = history_from_text(text->second, comm);
  }
  sim.contact_history().clear();
  sim.contact_history().insert(entries);
}

void restore_engine_state(const io::CheckpointState& state, timestep::Simulation& sim,
                          const comm::Communicator& comm) {
  if (sim.parameters().warm_start > 0.0) restore_contact_history(state, sim, comm);
  const auto lists = state.engine.find(kNeighbourLists);
  if (sim.parameters().skin > 0.0 && lists != state.engine.end())
    restore_neighbour_lists(lists->second, sim, comm);
  // A checkpoint before this state: no prior, the first relaxation schedules from its own tests.
  const auto prior = state.engine.find(kRelaxationPrior);
  if (prior != state.engine.end()) restore_relaxation_prior(prior->second, sim);
}

}  // namespace granite::scenario
