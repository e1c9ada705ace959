// write_dataset's blocked collective writes (src/io/hdf5_util.cpp): every rank writes its rows in
// blocks of Slab::block_rows aligned in the file, as many collective calls on every rank, so
// that HDF5 never holds a rank's whole filtered dataset. Here blocks of a few rows, uneven rank
// counts (one rank with none), gzip + shuffle + Fletcher32 (the filtered path, with chunks
// written by several calls and several ranks), read back serially: every row must hold the
// values its global index gives it, bit for bit.
#include "../../src/io/hdf5_util.hpp"
#include "granite/comm/collectives.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace granite::io::detail;

double value_of(std::size_t row, std::size_t column) {
  return 1.0 / double(row + 3) + 1000.0 * double(column);  // no two entries alike
}

// Writes `columns` columns of rows (rank r has rows_of(r) of them) with the given block size,
// and returns the path of the file.
std::string write_file(const std::string& name, hsize_t columns, hsize_t block_rows,
                       std::size_t (*rows_of)(int)) {
  const granite::comm::Communicator comm(MPI_COMM_WORLD);
  const std::size_t local = rows_of(comm.rank());
  Slab slab = slab_of(local, comm);
  slab.compression = 1;
  slab.checksum = true;
  slab.block_rows = block_rows;
  slab.comm = &comm;
  std::vector<double> data(local * columns);
  for (std::size_t i = 0; i < local; ++i)
    for (std::size_t c = 0; c < columns; ++c)
      data[i * columns + c] = value_of(std::size_t(slab.offset) + i, c);
  const std::string path =
      "/tmp/granite_dataset_blocks_" + name + "_" + std::to_string(comm.size()) + ".h5";
  write_parallel_file(path, path, comm, [&](hid_t file) {
    Handle transfer(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
    H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE);  // as the checkpoint's
    slab.transfer = transfer.get();
    write_dataset(file, "", "rows", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, columns, data.data(), slab);
  });
  return path;
}

void expect_rows(const std::string& path, hsize_t columns, std::size_t total) {
  Handle file = open_file(path);
  Handle dataset = open_dataset(file.get(), "/rows");
  expect_shape(dataset.get(), "/rows", total, columns);
  std::vector<double> out;
  read_rows(dataset.get(), "/rows", H5T_NATIVE_DOUBLE, columns, 0, total, out);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < total; ++i)
    for (std::size_t c = 0; c < columns; ++c)
      wrong += out[i * columns + c] == value_of(i, c) ? 0 : 1;
  EXPECT_EQ(wrong, 0u) << path;
}

std::size_t uneven(int rank) { return rank == 1 ? 0 : std::size_t(11 + 7 * rank); }
std::size_t even(int) { return 9; }

TEST(DatasetBlocks, BlockedWritesGiveEveryRowItsValue) {
  const granite::comm::Communicator comm(MPI_COMM_WORLD);
  std::size_t total = 0;
  for (int r = 0; r < comm.size(); ++r) total += uneven(r);
  for (const hsize_t block : {hsize_t(1), hsize_t(4), hsize_t(5), hsize_t(1000)}) {
    for (const hsize_t columns : {hsize_t(1), hsize_t(3)}) {
      std::string name = "u";
      name += std::to_string(block);
      name += '_';
      name += std::to_string(columns);
      const std::string path = write_file(name, columns, block, uneven);
      if (comm.rank() == 0) expect_rows(path, columns, total);
      MPI_Barrier(MPI_COMM_WORLD);
      if (comm.rank() == 0) std::remove(path.c_str());
    }
  }
  const std::string path = write_file("even", 3, 4, even);
  if (comm.rank() == 0) expect_rows(path, 3, 9 * std::size_t(comm.size()));
  MPI_Barrier(MPI_COMM_WORLD);
  if (comm.rank() == 0) std::remove(path.c_str());
}

}  // namespace
