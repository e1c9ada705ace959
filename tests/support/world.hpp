#pragma once
// This process's rank and the rank count of MPI_COMM_WORLD, for the MPI tests.
#include <mpi.h>

namespace granite::test_support {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

}  // namespace granite::test_support
