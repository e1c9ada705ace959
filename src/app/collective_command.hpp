#pragma once
// What the commands that run under mpiexec (run, forces) share: loading the configuration on
// every rank so that a failure on some ranks only still ends every rank with exit code 2 and
// rank 0's one line, and the handling of an internal error.
#include "granite/comm/communicator.hpp"
#include "granite/config/config.hpp"

#include <string>
#include <utility>
#include <vector>

namespace granite::app {

/// Every rank reads and validates the configuration `file` with `overrides` and checks that
/// each of `inputs` (path, kind: e.g. {"out/checkpoint.h5", "checkpoint"}) can be read; the
/// ranks agree before going on (InputError with the lowest failing rank's line on every rank).
config::ScenarioConfig
load_on_every_rank(const std::string& file, const std::vector<std::string>& overrides,
                   const std::vector<std::pair<std::string, std::string>>& inputs,
                   const comm::Communicator& world);

/// An exception that is not an InputError is a bug or a failure of the machine (HDF5, MPI,
/// memory). Alone, the rank returns exit code 1 after one line "granite COMMAND: internal
/// error: WHAT"; with other ranks it cannot know whether they saw it too (they may wait in a
/// collective), so it aborts them all.
int internal_error(const char* command, const comm::Communicator& world, const std::string& what);

}  // namespace granite::app
