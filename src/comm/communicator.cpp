#include "granite/comm/communicator.hpp"

namespace granite::comm {

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

void Communicator::barrier() const { MPI_Barrier(comm_); }

Communicator self() { return Communicator(MPI_COMM_SELF); }

}  // namespace granite::comm
