#pragma once
// The one home of MPI (with parallel/, which implements the distributed step). Every other
// module talks to the other ranks through this layer: a Communicator (a non-owning view of an
// MPI communicator), the collectives in collectives.hpp, the point-to-point PeerExchange and
// the process Environment. A serial run is a 1-rank run of the same code.
#include <mpi.h>

namespace granite::comm {

/// A non-owning view of an MPI communicator with its rank and size. Implicitly constructible
/// from MPI_Comm so that callers holding a raw communicator (tests, tools) can pass it.
class Communicator {
public:
  Communicator(MPI_Comm comm = MPI_COMM_WORLD);  // NOLINT(google-explicit-constructor)

  MPI_Comm native() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  /// Collective: returns when every rank has called it.
  void barrier() const;

private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

/// This process alone (MPI_COMM_SELF): collectives over it are local.
Communicator self();

}  // namespace granite::comm
