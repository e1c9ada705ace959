#pragma once
// The MPI process environment: initialisation and finalisation (RAII), the world
// communicator, aborting every rank, and the library's version string.
#include "granite/comm/communicator.hpp"

#include <string>

namespace granite::comm {

/// MPI_Init on construction, MPI_Finalize on destruction (unless MPI was already initialised
/// or is already finalised). One per process, in main() or a command.
class Environment {
public:
  Environment();
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  Communicator world() const;

private:
  bool owns_ = false;
};

/// Ends every rank of `comm` with `code` (after an unrecoverable error on one rank).
[[noreturn]] void abort(const Communicator& comm, int code);

/// This process's rank in the world as its launcher numbered it (Open MPI, PMIx, PMI, SLURM
/// environment variables); 0 without a launcher. Safe without MPI (no MPI call).
int launcher_rank();

/// The MPI library's version, up to its first comma (safe before initialisation).
std::string library_version();

}  // namespace granite::comm
