#pragma once
// The engine's restart state beyond the particles, carried by checkpoints through a seam of
// its own (/engine/<name>, io/checkpoint.hpp), not through end-of-step objects:
//   contact_history  (solver.warm_start > 0) the warm-start impulses of the last relaxation,
//                    every rank's entries tagged with the rank that holds them;
//   neighbour_lists  (contact.skin > 0) the step of the lists' last build, its ghost width
//                    and whether the lists are still valid on every rank; the lists
//                    themselves follow from the particles' neighbour_reference.
// A restart on as many ranks takes back exactly this state, so it continues bit for bit; on
// another rank count every rank takes every history entry and the lists are rebuilt.
#include "granite/comm/communicator.hpp"
#include "granite/timestep/simulation.hpp"

#include <map>
#include <string>

namespace granite::scenario {

/// Collective: the state by name (only the parts whose setting is on), the same text on
/// every rank.
std::map<std::string, std::string> engine_state(const timestep::Simulation& sim,
                                                const comm::Communicator& comm);

/// Restores the warm-start history from engine_state()'s "contact_history" text; throws
/// InputError if it is malformed.
void restore_contact_history(const std::string& text, timestep::Simulation& sim,
                             const comm::Communicator& comm);

/// Restores every part `state` holds whose setting is on in `sim`'s parameters.
void restore_engine_state(const std::map<std::string, std::string>& state,
                          timestep::Simulation& sim, const comm::Communicator& comm);

}  // namespace granite::scenario
