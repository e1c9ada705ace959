#pragma once
// The engine's restart state beyond the particles, carried by checkpoints through a seam of
// its own (io/checkpoint.hpp), not through end-of-step objects:
//   the warm-start history   (solver.warm_start > 0) the impulses of the last relaxation, each
//                            rank's entries as rows of /contact_history (format 8 on; before,
//                            the text /engine/contact_history gathered from every rank);
//   neighbour_lists          (contact.skin > 0) the step of the lists' last build, its ghost
//                            width and whether the lists are still valid on every rank; the
//                            lists themselves follow from the particles' neighbour_reference;
//   relaxation_prior         the last relaxation's decay of its convergence measure, which
//                            places the next relaxation's second test (solver/check_schedule.hpp).
// A restart on as many ranks takes back exactly this state, so it continues bit for bit. On
// another rank count each rank reads about 1/P of the history rows and sends each to the
// owners of its particles (parallel/id_directory.hpp); the lists are rebuilt.
#include "granite/comm/communicator.hpp"
#include "granite/io/checkpoint.hpp"
#include "granite/timestep/simulation.hpp"

namespace granite::scenario {

/// Collective: the engine's state into `state` (only the parts whose setting is on): the
/// neighbour-list and relaxation texts under state.engine, this rank's history entries as
/// state.history.
void save_engine_state(const timestep::Simulation& sim, const comm::Communicator& comm,
                       io::CheckpointState& state);

/// Collective: restores the warm-start history `state` holds (rows, or an older checkpoint's
/// text) into `sim`, once the particles are on their ranks; throws InputError if the text is
/// malformed.
void restore_contact_history(const io::CheckpointState& state, timestep::Simulation& sim,
                             const comm::Communicator& comm);

/// Collective: restores every part `state` holds whose setting is on in `sim`'s parameters.
void restore_engine_state(const io::CheckpointState& state, timestep::Simulation& sim,
                          const comm::Communicator& comm);

}  // namespace granite::scenario
