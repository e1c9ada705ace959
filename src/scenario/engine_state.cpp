// The engine's restart state (see include/granite/scenario/engine_state.hpp). Both parts are
// text with hexfloats, so that a restart reads back every bit.
#include "granite/scenario/engine_state.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"

#include <cstdlib>
#include <sstream>

namespace granite::scenario {

namespace {

constexpr const char* kHistory = "contact_history";
constexpr const char* kNeighbourLists = "neighbour_lists";

// Collective: "ranks R" and one line per entry of every rank, gathered: rank, key, impulse, and
// with rolling or spinning resistance the torque impulse (3 more numbers).
std::string contact_history_text(const timestep::Simulation& sim, const comm::Communicator& comm) {
  std::ostringstream mine;
  mine << std::hexfloat;
  const bool torques = sim.materials().has_rolling_resistance();
  for (const solver::HistoryEntry& e : sim.contact_history().entries()) {
    mine << comm.rank() << ' ' << e.key.first << ' ' << e.key.second << ' ' << e.key.ordinal << ' '
         << e.impulse[0] << ' ' << e.impulse[1] << ' ' << e.impulse[2];
    if (torques) mine << ' ' << e.torque[0] << ' ' << e.torque[1] << ' ' << e.torque[2];
    mine << '\n';
  }
  std::string text = "ranks " + std::to_string(comm.size()) + "\n";
  for (const std::string& part : comm::all_gather_text(mine.str(), comm)) text += part;
  return text;
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

}  // namespace

std::map<std::string, std::string> engine_state(const timestep::Simulation& sim,
                                                const comm::Communicator& comm) {
  std::map<std::string, std::string> state;
  if (sim.parameters().warm_start > 0.0) state[kHistory] = contact_history_text(sim, comm);
  if (sim.parameters().skin > 0.0) state[kNeighbourLists] = neighbour_lists_text(sim, comm);
  return state;
}

void restore_contact_history(const std::string& text, timestep::Simulation& sim,
                             const comm::Communicator& comm) {
  std::istringstream is(text);
  std::string word;
  int ranks = 0;
  is >> word >> ranks;
  if (!is || word != "ranks") throw InputError("checkpoint: the contact history is malformed");
  // One entry per line: 7 fields, or 10 with a torque (older checkpoints have none). Hexfloats:
  // read as tokens and converted by strtod (operator>> does not parse them).
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
    // The same decomposition: this rank's own entries; another: all of them.
    if (ranks != comm.size() || rank == comm.rank()) entries.push_back(e);
  }
  sim.contact_history().clear();
  sim.contact_history().insert(entries);
}

void restore_engine_state(const std::map<std::string, std::string>& state,
                          timestep::Simulation& sim, const comm::Communicator& comm) {
  const auto history = state.find(kHistory);
  if (sim.parameters().warm_start > 0.0 && history != state.end())
    restore_contact_history(history->second, sim, comm);
  const auto lists = state.find(kNeighbourLists);
  if (sim.parameters().skin > 0.0 && lists != state.end())
    restore_neighbour_lists(lists->second, sim, comm);
}

}  // namespace granite::scenario
