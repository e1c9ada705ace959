// write_dataset's blocked collective writes (src/io/hdf5_util.cpp): every rank writes its rows in
// blocks of Slab::block_rows aligned in the file, as many collective calls on every rank, so
// that HDF5 never holds a rank's whole filtered dataset. Here blocks of a few rows, uneven rank
// counts (one rank with none), gzip + shuffle + Fletcher32 (the filtered path, with chunks
// written by several calls and several ranks), read back serially: every row must hold the
// values its global index gives it, bit for bit.
#include "../../src/io/hdf5_util.hpp"
#include "../../src/io/particle_datasets_hdf5.hpp"
#include "granite/body/particle_fields.hpp"
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

// The particle writer's own blocks (the orientations flattened to w, x, y, z block by block,
// the owner ranks): a checkpoint's /particles written in blocks of 3 rows equals the one
// written in one block, dataset by dataset, bit for bit.
TEST(DatasetBlocks, ParticleDatasetsInBlocksEqualOneBlock) {
  const granite::comm::Communicator comm(MPI_COMM_WORLD);
  granite::body::Particles particles;
  const int n = 5 + 2 * comm.rank();
  for (int i = 0; i < n; ++i) {
    granite::body::ParticleInit row;
    row.id = 100 * comm.rank() + i;
    row.position = granite::Vec3(i, comm.rank(), 0.5 * i);
    row.orientation = granite::Quat(1.0 + i, 0.1 * i, -0.2 * comm.rank(), 0.3).normalized();
    row.mass = 1.0 + i;
    row.radius = 0.1;
    particles.add_exact(row);
  }
  std::string paths[2];
  for (int k = 0; k < 2; ++k) {
    paths[k] = "/tmp/granite_particle_blocks_" + std::to_string(k) + "_" +
               std::to_string(comm.size()) + ".h5";
    write_parallel_file(paths[k], paths[k], comm, [&](hid_t file) {
      Handle transfer(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
      H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE);
      Slab slab = slab_of(particles.size(), comm);
      slab.compression = 1;
      slab.transfer = transfer.get();
      slab.comm = &comm;
      slab.block_rows = k == 0 ? 3 : kWriteBlockRows;
      Handle group(H5Gcreate2(file, "particles", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
      write_particle_datasets(group.get(), particles, granite::body::kCheckpointed, comm.rank(),
                              slab);
    });
  }
  if (comm.rank() == 0) {
    Handle a = open_file(paths[0]), b = open_file(paths[1]);
    int compared = 0;
    const auto compare = [&](const std::string& name, hid_t memory_type, std::size_t columns) {
      const std::string path = "/particles/" + name;
      Handle da = open_dataset(a.get(), path), db = open_dataset(b.get(), path);
      const hsize_t rows = shape_of(da.get(), path)[0];
      std::vector<unsigned char> bx(rows * columns * 8), by(rows * columns * 8);  // 8 B fit all
      H5Dread(da.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bx.data());
      H5Dread(db.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, by.data());
      EXPECT_EQ(bx, by) << path;
      ++compared;
    };
    granite::body::for_each_particle_field([&](const auto& field) {
      using Layout = typename std::decay_t<decltype(field)>::Layout;
      if (!field.has(granite::body::kCheckpointed)) return;
      compare(field.name, ScalarType<typename Layout::Scalar>::memory(), Layout::components);
    });
    compare(kOwnerRank, H5T_NATIVE_INT32, 1);
    EXPECT_GT(compared, 10);
    std::remove(paths[0].c_str());
    std::remove(paths[1].c_str());
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
