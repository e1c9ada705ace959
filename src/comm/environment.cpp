#include "granite/comm/environment.hpp"

#include <cstdlib>

namespace granite::comm {

Environment::Environment() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    MPI_Init(nullptr, nullptr);
    owns_ = true;
  }
}

Environment::~Environment() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (owns_ && !finalised) MPI_Finalize();
}

Communicator Environment::world() const { return Communicator(MPI_COMM_WORLD); }

void abort(const Communicator& comm, int code) {
  MPI_Abort(comm.native(), code);
  std::abort();  // MPI_Abort does not return; this tells the compiler so
}

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, std::size_t(length));
  if (auto cut = s.find_first_of(",\n"); cut != std::string::npos) s.resize(cut);
  return s;
}

int launcher_rank() {
  for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* value = std::getenv(variable)) return std::atoi(value);
  }
  return 0;
}

}  // namespace granite::comm
