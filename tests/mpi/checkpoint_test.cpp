// Restart checkpoints: a round trip on the same rank count restores every array bit for bit and
// in order; a different rank count hands every body to exactly one rank; damaged or foreign
// files are the same InputError on every rank (no crash, no hang); publication is atomic.
#include "granite/core/error.hpp"
#include "granite/io/checkpoint.hpp"
#include "granite/io/snapshot.hpp"
#include "../support/world.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using granite::Mat3;
using granite::Quat;
using granite::Vec3;
using granite::body::Particles;
using granite::io::CheckpointState;
using granite::io::read_checkpoint;
using granite::io::write_checkpoint;

using granite::test_support::world_rank;
using granite::test_support::world_size;

std::string broadcast_string(std::string text, int root = 0) {
  int length = int(text.size());
  MPI_Bcast(&length, 1, MPI_INT, root, MPI_COMM_WORLD);
  text.resize(std::size_t(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, root, MPI_COMM_WORLD);
  return text;
}

// --- bodies: rank r owns ids r, r + size, ...; rank 1 owns none from 2 ranks on ------------------
int bodies_on(int rank, int size) { return (size > 1 && rank == 1) ? 0 : 6 + 5 * rank; }

void add_body(Particles& p, std::int64_t id) {
  const double x = double(id);
  granite::body::ParticleInit init;
  init.id = id;
  init.position = Vec3(std::fabs(std::sin(x)) / 3.0 + x * 1e-3, 1.0 / (x + 7.0), -x / 13.0);
  init.velocity = Vec3(std::cos(x) * 1e-3, -x / 9.0, 1.0 / 3.0);
  init.angular_velocity = Vec3(x * M_PI, -std::sqrt(x + 2.0), 1e5 / (x + 3.0));
  init.radius = 1e-4 * (1.0 + std::fmod(x, 7.0) / 3.0);
  init.mass = 1.0 / 3.0 + x / 7.0;
  Mat3 inertia;  // symmetric, diagonally dominant: SPD and not diagonal
  inertia << 2.0 + x, 0.1 / (x + 1), -0.3, 0.1 / (x + 1), 3.0 + x / 3, 0.2 * std::sin(x), -0.3,
      0.2 * std::sin(x), 5.0 / 7.0 + x;
  init.body_inertia = inertia * 1e-9;
  init.material = (id % 5 == 0) ? 4000000000u : std::uint32_t(id % 3);
  init.group = std::int32_t(id % 7) - 3 + (id % 4 == 0 ? 2000000000 : 0);
  init.shape = id % 3 == 0 ? granite::body::kSphere : std::int32_t(id % 4);
  p.add(init);
  // Slightly off unit length: add() would renormalise it, the checkpoint must not.
  const Quat q(Eigen::AngleAxisd(0.3 + x / 5.0, Vec3(1.0, x, 2.0).normalized()));
  p.orientation.back() = Quat(q.coeffs() * (1.0 + 3e-15));
  p.force.back() = Vec3(x / 11.0, -1e-7 * x, std::exp(-x));
  p.torque.back() = Vec3(-std::cbrt(x + 1.0), x * 1e-12, 2.0 / 3.0);
}

Particles bodies_of(int rank, int size) {
  Particles p;
  for (int k = 0; k < bodies_on(rank, size); ++k) add_body(p, rank + std::int64_t(k) * size);
  return p;
}

// Every rank's bodies, rank by rank (the file order of a checkpoint written at `size` ranks).
Particles all_bodies(int size) {
  Particles p;
  for (int r = 0; r < size; ++r) {
    for (int k = 0; k < bodies_on(r, size); ++k) add_body(p, r + std::int64_t(k) * size);
  }
  return p;
}

CheckpointState make_state() {
  CheckpointState state;
  state.step = 123456789012;
  state.time = M_PI / 3.0;
  for (int k = 0; k < 17; ++k) state.global_anchors.push_back(std::sin(k) * 1e3 + 1.0 / 7.0);
  std::mt19937 random(42);
  std::string& bytes = state.fixes["bytes"];
  bytes.resize(3 << 20);  // 3 MiB of arbitrary bytes, NULs included
  for (char& c : bytes) c = char(random() & 0xff);
  state.fixes["inflow"] = "0x1.8p-3 7 42";
  state.fixes["empty"] = "";
  state.config = "domain:\n  min: [0, 0, 0]\n  max: [1, 1, 1]\n# ünïcödé\n";
  return state;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Body i of `a` and body j of `b` agree bit for bit in every array.
bool same_body(const Particles& a, std::size_t i, const Particles& b, std::size_t j) {
  auto eq = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return eq(a.id[i], b.id[j]) && eq(a.position[i], b.position[j]) &&
         eq(a.orientation[i], b.orientation[j]) && eq(a.velocity[i], b.velocity[j]) &&
         eq(a.angular_velocity[i], b.angular_velocity[j]) && eq(a.force[i], b.force[j]) &&
         eq(a.torque[i], b.torque[j]) && eq(a.mass[i], b.mass[j]) &&
         eq(a.inverse_mass[i], b.inverse_mass[j]) && eq(a.body_inertia[i], b.body_inertia[j]) &&
         eq(a.fixed[i], b.fixed[j]) && eq(a.radius[i], b.radius[j]) &&
         eq(a.material[i], b.material[j]) && eq(a.group[i], b.group[j]) &&
         eq(a.shape[i], b.shape[j]);
}

void expect_same_state(const CheckpointState& read, const CheckpointState& written) {
  EXPECT_EQ(read.step, written.step);
  EXPECT_EQ(std::memcmp(&read.time, &written.time, sizeof(double)), 0);
  EXPECT_TRUE(same_bits(read.global_anchors, written.global_anchors));
  EXPECT_EQ(read.fixes.size(), written.fixes.size());
  EXPECT_TRUE(read.fixes == written.fixes);  // not EXPECT_EQ: 3 MiB would be printed
  EXPECT_EQ(read.config, written.config);
}

// --- a unique directory per test, named by rank 0, removed at the end ------------------------
class CheckpointTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string name;
    if (world_rank() == 0) {
      std::string pattern = (fs::temp_directory_path() / "granite_checkpoint_XXXXXX").string();
      if (mkdtemp(pattern.data()) != nullptr) name = pattern;
    }
    dir_ = broadcast_string(name);
    ASSERT_FALSE(dir_.empty()) << "mkdtemp failed on rank 0";  // same on every rank
  }
  void TearDown() override {
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0 && !dir_.empty()) fs::remove_all(dir_);
  }
  std::string dir_;
};

TEST_F(CheckpointTest, RoundTripOnTheSameRankCountIsBitIdentical) {
  const int rank = world_rank();
  const int size = world_size();
  const Particles written = bodies_of(rank, size);
  const CheckpointState state = make_state();
  const std::string path = dir_ + "/checkpoint.h5";
  write_checkpoint(path, written, state, MPI_COMM_WORLD);

  if (rank == 0) {  // published under the final name only, no .tmp left behind
    EXPECT_TRUE(fs::exists(path));
    for (const auto& entry : fs::directory_iterator(dir_)) {
      EXPECT_EQ(entry.path().filename(), "checkpoint.h5") << "left behind: " << entry.path();
    }
  }

  Particles read;
  int owner_calls = 0;
  const CheckpointState restored = read_checkpoint(
      path, read,
      [&](const Vec3&) {
        ++owner_calls;
        return 0;
      },
      MPI_COMM_WORLD);
  EXPECT_EQ(owner_calls, 0) << "the same rank count must not redistribute";
  EXPECT_EQ(read.size(), written.size());
  EXPECT_TRUE(same_bits(read.id, written.id));
  EXPECT_TRUE(same_bits(read.position, written.position));
  EXPECT_TRUE(same_bits(read.orientation, written.orientation));
  EXPECT_TRUE(same_bits(read.velocity, written.velocity));
  EXPECT_TRUE(same_bits(read.angular_velocity, written.angular_velocity));
  EXPECT_TRUE(same_bits(read.force, written.force));
  EXPECT_TRUE(same_bits(read.torque, written.torque));
  EXPECT_TRUE(same_bits(read.mass, written.mass));
  EXPECT_TRUE(same_bits(read.inverse_mass, written.inverse_mass));
  EXPECT_TRUE(same_bits(read.body_inertia, written.body_inertia));
  EXPECT_TRUE(same_bits(read.fixed, written.fixed));
  EXPECT_TRUE(same_bits(read.radius, written.radius));
  EXPECT_TRUE(same_bits(read.material, written.material));
  EXPECT_TRUE(same_bits(read.group, written.group));
  expect_same_state(restored, state);
}

// Which rank owns a body under a decomposition unrelated to the writer's.
int slab_owner(const Vec3& x, int size) { return int(std::floor(x[0] * 7.0)) % size; }

// Read as if by a different decomposition: written by rank 0 alone (1 rank in the file), read
// on every rank; from 2 ranks on that is the "different rank count" path.
TEST_F(CheckpointTest, DifferentRankCountGivesEveryBodyToExactlyOneRank) {
  const int rank = world_rank();
  const int size = world_size();
  const Particles all = all_bodies(size);
  const CheckpointState state = make_state();
  const std::string path = dir_ + "/serial.h5";
  if (rank == 0) write_checkpoint(path, all, state, MPI_COMM_SELF);
  MPI_Barrier(MPI_COMM_WORLD);

  Particles read;
  const CheckpointState restored = read_checkpoint(
      path, read, [&](const Vec3& x) { return slab_owner(x, size); }, MPI_COMM_WORLD);
  expect_same_state(restored, state);
  // Each rank read its share of the rows, not the file (issue 44): at most N/P + 1, N in all.
  const auto rows = std::int64_t(all.size());
  EXPECT_LE(restored.rows_read, rows / size + 1);
  std::int64_t rows_read = restored.rows_read;
  MPI_Allreduce(MPI_IN_PLACE, &rows_read, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(rows_read, rows);

  // Each body read is bit-identical to the one written, owned by this rank, in file order.
  std::vector<int> times_read(all.size(), 0);
  std::ptrdiff_t previous = -1;
  for (std::size_t i = 0; i < read.size(); ++i) {
    const std::ptrdiff_t j = all.find(read.id[i]);
    EXPECT_GE(j, 0) << "unknown id " << read.id[i];
    if (j < 0) continue;
    EXPECT_TRUE(same_body(read, i, all, std::size_t(j))) << "id " << read.id[i];
    EXPECT_EQ(slab_owner(read.position[i], size), rank) << "id " << read.id[i];
    EXPECT_GT(j, previous) << "not in file order at id " << read.id[i];
    previous = j;
    ++times_read[std::size_t(j)];
  }
  MPI_Allreduce(MPI_IN_PLACE, times_read.data(), int(times_read.size()), MPI_INT, MPI_SUM,
                MPI_COMM_WORLD);
  for (std::size_t j = 0; j < all.size(); ++j) {
    EXPECT_EQ(times_read[j], 1) << "id " << all.id[j];
  }
}

// The other direction: written by every rank, read by each rank alone (from 2 ranks on a
// different rank count): every rank gets every body, in the writers' rank order.
TEST_F(CheckpointTest, FewerReadersGetEveryRowInFileOrder) {
  const int rank = world_rank();
  const int size = world_size();
  const std::string path = dir_ + "/parallel.h5";
  write_checkpoint(path, bodies_of(rank, size), make_state(), MPI_COMM_WORLD);

  Particles read;
  read_checkpoint(
      path, read, [](const Vec3&) { return 0; }, MPI_COMM_SELF);
  const Particles all = all_bodies(size);
  EXPECT_EQ(read.size(), all.size());
  for (std::size_t i = 0; i < std::min(read.size(), all.size()); ++i) {
    EXPECT_TRUE(same_body(read, i, all, i)) << "row " << i;
  }
}

// Reads `path` on every rank; expects an InputError naming it and containing `reason`, the same
// message on every rank, and `particles` untouched.
void expect_input_error_everywhere(const std::string& path, const std::string& what,
                                   const std::string& reason) {
  Particles particles;
  add_body(particles, 999);
  std::string message;
  bool input_error = false;
  try {
    read_checkpoint(
        path, particles, [](const Vec3&) { return 0; }, MPI_COMM_WORLD);
  } catch (const granite::InputError& error) {
    input_error = true;
    message = error.what();
  } catch (const std::exception& error) {
    message = std::string("not an InputError: ") + error.what();
  }
  EXPECT_TRUE(input_error) << what << ": " << message;
  EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << what << ": " << message;
  EXPECT_NE(message.find(reason), std::string::npos) << what << ": " << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << what << ": " << message;
  EXPECT_EQ(message, broadcast_string(message)) << what << ": differs from rank 0's";
  EXPECT_EQ(particles.size(), 1u) << what << ": particles modified";
  if (world_rank() == 0) std::printf("  %s -> %s\n", what.c_str(), message.c_str());
}

// Flips bytes in the middle of the first chunk of /particles/position (raw data, which only
// the Fletcher32 checksum can catch).
bool corrupt_position_data(const std::string& path) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return false;
  hid_t dataset = H5Dopen2(file, "/particles/position", H5P_DEFAULT);
  haddr_t address = HADDR_UNDEF;
  hsize_t bytes = 0;
  if (dataset >= 0) {
    const hid_t space = H5Dget_space(dataset);
    H5Dget_chunk_info(dataset, space, 0, nullptr, nullptr, &address, &bytes);
    H5Sclose(space);
    H5Dclose(dataset);
  }
  H5Fclose(file);
  if (address == HADDR_UNDEF || bytes < 16) return false;
  std::fstream out(path, std::ios::in | std::ios::out | std::ios::binary);
  out.seekp(std::streamoff(address + bytes / 2));
  out.write("\x5a\xa5\x5a\xa5", 4);
  return bool(out);
}

TEST_F(CheckpointTest, DamagedOrForeignFilesAreTheSameInputErrorOnEveryRank) {
  const int rank = world_rank();
  const int size = world_size();
  const std::string good = dir_ + "/good.h5";
  write_checkpoint(good, bodies_of(rank, size), make_state(), MPI_COMM_WORLD);
  const std::string snapshot = dir_ + "/snapshot.h5";
  granite::io::write_snapshot(snapshot, bodies_of(rank, size), {}, MPI_COMM_WORLD);

  const std::string truncated = dir_ + "/truncated.h5";
  const std::string random = dir_ + "/random.h5";
  const std::string corrupted = dir_ + "/corrupted.h5";
  int corrupted_ok = 0;
  if (rank == 0) {
    fs::copy_file(good, truncated);
    fs::resize_file(truncated, fs::file_size(good) / 2);
    std::ofstream out(random, std::ios::binary);
    std::mt19937 bytes(7);
    for (int k = 0; k < 65536; ++k) out.put(char(bytes() & 0xff));
    out.close();
    fs::copy_file(good, corrupted);
    corrupted_ok = corrupt_position_data(corrupted) ? 1 : 0;
  }
  MPI_Bcast(&corrupted_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(corrupted_ok, 1) << "could not locate the position chunk to corrupt";

  expect_input_error_everywhere(truncated, "truncated", "not a readable HDF5 file");
  expect_input_error_everywhere(random, "random bytes", "not a readable HDF5 file");
  expect_input_error_everywhere(snapshot, "snapshot", "not a Granite checkpoint");
  expect_input_error_everywhere(dir_ + "/missing.h5", "missing", "no such file");
  expect_input_error_everywhere(dir_, "directory", "is a directory");
  if (corrupted_ok) expect_input_error_everywhere(corrupted, "corrupted data", "checksum");
}

// A checkpoint of the previous format version (1: no /particles/group) is refused clearly.
TEST_F(CheckpointTest, AnOlderFormatVersionIsTheSameInputErrorOnEveryRank) {
  const std::string path = dir_ + "/version1.h5";
  write_checkpoint(path, bodies_of(world_rank(), world_size()), make_state(), MPI_COMM_WORLD);
  int rewritten = 0;
  if (world_rank() == 0) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t attribute = H5Aopen(file, "format_version", H5P_DEFAULT);
    const std::int32_t version = 1;
    rewritten = file >= 0 && attribute >= 0 &&
                H5Awrite(attribute, H5T_NATIVE_INT32, &version) >= 0 && H5Aclose(attribute) >= 0 &&
                H5Fclose(file) >= 0;
  }
  MPI_Bcast(&rewritten, 1, MPI_INT, 0, MPI_COMM_WORLD);
  ASSERT_EQ(rewritten, 1) << "could not rewrite format_version";
  expect_input_error_everywhere(path, "version 1",
                                "unsupported checkpoint format version 1 (this build reads "
                                "versions 4 to 8)");
}

// /particles/shape came with format 7: a format-6 file (no dataset) reads back every body as a
// sphere (shape -1), the rest bit for bit; a format-7 file without it is refused on every rank.
TEST_F(CheckpointTest, ShapesAreReadBackAndEveryBodyOfAFormat6FileIsASphere) {
  const std::string path = dir_ + "/shapes.h5";
  write_checkpoint(path, bodies_of(world_rank(), world_size()), make_state(), MPI_COMM_WORLD);
  const Particles all = all_bodies(world_size());
  Particles read;
  read_checkpoint(
      path, read, [](const Vec3&) { return world_rank(); }, MPI_COMM_WORLD);
  const Particles mine = bodies_of(world_rank(), world_size());
  ASSERT_EQ(read.size(), mine.size());
  for (std::size_t i = 0; i < read.size(); ++i) EXPECT_TRUE(same_body(read, i, mine, i));
  // Without the dataset: first as format 7 (refused), then as format 6 (spheres).
  const auto rewrite = [&](std::int32_t version, bool drop) {
    int done = 0;
    if (world_rank() == 0) {
      const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
      const hid_t attribute = H5Aopen(file, "format_version", H5P_DEFAULT);
      done = file >= 0 && attribute >= 0 && H5Awrite(attribute, H5T_NATIVE_INT32, &version) >= 0 &&
             H5Aclose(attribute) >= 0 &&
             (!drop || H5Ldelete(file, "/particles/shape", H5P_DEFAULT) >= 0) &&
             H5Fclose(file) >= 0;
    }
    MPI_Bcast(&done, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return done == 1;
  };
  ASSERT_TRUE(rewrite(7, true));
  expect_input_error_everywhere(path, "format 7 without shapes", "/particles/shape");
  ASSERT_TRUE(rewrite(6, false));
  Particles spheres;
  read_checkpoint(
      path, spheres, [](const Vec3&) { return world_rank(); }, MPI_COMM_WORLD);
  ASSERT_EQ(spheres.size(), mine.size());
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    EXPECT_EQ(spheres.shape[i], granite::body::kSphere);
    spheres.shape[i] = mine.shape[i];
    EXPECT_TRUE(same_body(spheres, i, mine, i)) << "row " << i;
  }
}

// The largest radius is a root attribute (format 6), so that --from chooses its decomposition
// without reading a row; a format-5 file (no attribute) gives the same by reading every radius.
TEST_F(CheckpointTest, TheLargestRadiusIsAnAttribute) {
  const std::string path = dir_ + "/largest.h5";
  const Particles mine = bodies_of(world_rank(), world_size());
  write_checkpoint(path, mine, make_state(), MPI_COMM_WORLD);
  const Particles all = all_bodies(world_size());
  const double expected = all.max_radius();
  ASSERT_GT(expected, 0.0);
  EXPECT_EQ(granite::io::checkpoint_largest_radius(path, MPI_COMM_WORLD), expected);
  int rewritten = 0;
  if (world_rank() == 0) {  // back to format 5: no attribute
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    double stored = 0.0;
    const hid_t attribute = H5Aopen(file, "largest_radius", H5P_DEFAULT);
    const bool read = attribute >= 0 && H5Aread(attribute, H5T_NATIVE_DOUBLE, &stored) >= 0 &&
                      H5Aclose(attribute) >= 0;
    EXPECT_EQ(stored, expected);
    const hid_t version = H5Aopen(file, "format_version", H5P_DEFAULT);
    const std::int32_t five = 5;
    rewritten = file >= 0 && read && H5Adelete(file, "largest_radius") >= 0 && version >= 0 &&
                H5Awrite(version, H5T_NATIVE_INT32, &five) >= 0 && H5Aclose(version) >= 0 &&
                H5Fclose(file) >= 0;
  }
  MPI_Bcast(&rewritten, 1, MPI_INT, 0, MPI_COMM_WORLD);
  ASSERT_EQ(rewritten, 1) << "could not make a format-5 file";
  EXPECT_EQ(granite::io::checkpoint_largest_radius(path, MPI_COMM_WORLD), expected);
}

TEST_F(CheckpointTest, UnwritableDestinationIsAnInputErrorOnEveryRank) {
  const std::string path = dir_ + "/no/such/dir/checkpoint.h5";
  bool input_error = false;
  try {
    write_checkpoint(path, bodies_of(world_rank(), world_size()), make_state(), MPI_COMM_WORLD);
  } catch (const granite::InputError& error) {
    input_error = std::string(error.what()).find(path) != std::string::npos;
  }
  EXPECT_TRUE(input_error);
}

}  // namespace

// --- the warm-start history as rows (issue 44) ---------------------------------------------------

// Writer rank w of W holds 3 + 2w entries with keys (1000 w + k, ...), all distinct.
std::vector<granite::io::HistoryRow> history_of(int w) {
  std::vector<granite::io::HistoryRow> rows;
  for (int k = 0; k < 3 + 2 * w; ++k) {
    granite::io::HistoryRow r;
    r.first = 1000 * w + k;
    r.second = k % 2 ? r.first + 1 : -1 - k;  // a particle, or a global body
    r.ordinal = std::uint32_t(k % 3);
    for (int c = 0; c < 3; ++c) {
      r.impulse[c] = std::sin(r.first + c) / 3.0;
      r.torque[c] = std::cos(r.first * c) / 7.0;
    }
    rows.push_back(r);
  }
  return rows;
}

bool same_row(const granite::io::HistoryRow& a, const granite::io::HistoryRow& b) {
  return a.first == b.first && a.second == b.second && a.ordinal == b.ordinal &&
         std::memcmp(a.impulse, b.impulse, sizeof a.impulse) == 0 &&
         std::memcmp(a.torque, b.torque, sizeof a.torque) == 0;
}

TEST_F(CheckpointTest, HistoryRowsComeBackToTheirWriterOnAsManyRanks) {
  const int rank = world_rank();
  CheckpointState state = make_state();
  state.has_history = true;
  state.history = history_of(rank);
  const std::string path = dir_ + "/history.h5";
  write_checkpoint(path, bodies_of(rank, world_size()), state, MPI_COMM_WORLD);
  Particles read;
  const CheckpointState restored = read_checkpoint(
      path, read, [](const Vec3&) { return 0; }, MPI_COMM_WORLD);
  ASSERT_TRUE(restored.has_history);
  EXPECT_TRUE(restored.history_as_written);
  ASSERT_EQ(restored.history.size(), state.history.size());
  for (std::size_t i = 0; i < state.history.size(); ++i)
    EXPECT_TRUE(same_row(restored.history[i], state.history[i])) << i;
  EXPECT_EQ(restored.history_rows_read, std::int64_t(state.history.size()));
}

// Written by W = P − 1 ranks (a sub-communicator; 1 at P = 1), read on all P: each rank reads a
// share of at most N/P + 1 rows, and every row is read exactly once, bit for bit.
TEST_F(CheckpointTest, HistoryRowsOfAnotherRankCountAreSharedOutOnceEach) {
  const int rank = world_rank();
  const int size = world_size();
  const int writers = std::max(1, size - 1);
  const std::string path = dir_ + "/history_share.h5";
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, rank < writers ? 0 : MPI_UNDEFINED, rank, &sub);
  if (rank < writers) {
    CheckpointState state = make_state();
    state.has_history = true;
    state.history = history_of(rank);
    write_checkpoint(path, bodies_of(rank, writers), state, sub);
    MPI_Comm_free(&sub);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  std::vector<granite::io::HistoryRow> all;
  for (int w = 0; w < writers; ++w) {
    const auto part = history_of(w);
    all.insert(all.end(), part.begin(), part.end());
  }
  Particles read;
  const CheckpointState restored = read_checkpoint(
      path, read, [&](const Vec3& x) { return slab_owner(x, size); }, MPI_COMM_WORLD);
  ASSERT_TRUE(restored.has_history);
  EXPECT_EQ(restored.history_as_written, writers == size);
  EXPECT_EQ(restored.history_rows_read, std::int64_t(restored.history.size()));
  if (writers != size) {
    EXPECT_LE(restored.history_rows_read, std::int64_t(all.size()) / size + 1);
  }
  std::vector<int> times(all.size(), 0);
  for (const auto& row : restored.history) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const auto& r) { return same_row(r, row); });
    ASSERT_NE(it, all.end()) << "a row not written: first " << row.first;
    ++times[std::size_t(it - all.begin())];
  }
  MPI_Allreduce(MPI_IN_PLACE, times.data(), int(times.size()), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (std::size_t i = 0; i < times.size(); ++i) EXPECT_EQ(times[i], 1) << "row " << i;
}
