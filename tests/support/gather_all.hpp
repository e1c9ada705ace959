#pragma once
// Test support for MPI runs: every rank's trivially copyable values gathered on every rank.
#include <mpi.h>

#include <vector>

namespace granite::test_support {

// Every byte of `mine` from every rank, in rank order, on every rank.
template <class T>
std::vector<T> gather_all(const std::vector<T>& mine, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int bytes = int(mine.size() * sizeof(T));
  std::vector<int> counts(size), displs(size, 0);
  MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<T> all(std::size_t(displs.back() + counts.back()) / sizeof(T));
  MPI_Allgatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                 comm);
  return all;
}

}  // namespace granite::test_support
