// HDF5 snapshots written by all ranks into one file: read back with the serial HDF5 C API on
// every rank and compared bit for bit with what each rank wrote; atomic publication (.tmp), the
// XDMF sidecars, the same InputError on every rank for an unwritable destination, and the
// shaped bodies' surfaces (/shapes) in rank order.
#include "granite/core/build_info.hpp"
#include "granite/core/error.hpp"
#include "granite/io/snapshot.hpp"
#include "granite/body/triangle_mesh.hpp"
#include "granite/io/global_body_mesh.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
// granite_core links HDF5 PRIVATE, so its include directory does not reach this target (the
// library itself is static, so the HDF5 symbols do). Fall back to Debian's parallel path.
#include <hdf5.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using granite::Quat;
using granite::Vec3;
using granite::body::Particles;
using granite::io::SnapshotInfo;

int comm_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int comm_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// true on every rank iff `value` is true on every rank.
bool everywhere(bool value) {
  int local = value ? 1 : 0;
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return global == 1;
}

// --- the known bodies: rank r owns ids r, r + size, r + 2 size, ...; the last rank owns none
// when there is more than one rank. State is a function of the id with non-round values.
int bodies_on(int rank, int size) { return (size > 1 && rank == size - 1) ? 0 : 5 + 3 * rank; }
// Enough bodies for several 32768-row chunks, with chunk and rank boundaries not aligned and
// an empty rank in the middle from 3 ranks on.
int many_bodies_on(int rank, int size) { return (size > 2 && rank == 1) ? 0 : 20011 + 7919 * rank; }
using CountFunction = int (*)(int rank, int size);

struct Body {
  std::int64_t id;
  Vec3 position, velocity, angular_velocity;
  Quat orientation;
  double radius;
  std::uint32_t material;
  std::int32_t group;
};

Body body_for(std::int64_t id) {
  const double x = double(id);
  Body b;
  b.id = id;
  b.position = Vec3(std::sin(x) / 3.0, 1.0 / (x + 7.0), std::exp(-x / 11.0) - 0.1 * x);
  b.velocity = Vec3(std::cos(x) * 1e-3, -x / 9.0, 1.0 / 3.0);
  b.angular_velocity = Vec3(x * M_PI, -std::sqrt(x + 2.0), 1e5 / (x + 3.0));
  b.orientation = Quat(Eigen::AngleAxisd(0.3 + x / 5.0, Vec3(1.0, x, 2.0).normalized()));
  b.radius = 1e-4 * (1.0 + std::fmod(x, 7.0) / 3.0);
  b.material = (id % 5 == 0) ? 4000000000u : std::uint32_t(id % 3);
  b.group = std::int32_t(id % 11) - 5;
  return b;
}

Particles owned_bodies(int rank, int size, CountFunction count = bodies_on) {
  Particles particles;
  for (int k = 0; k < count(rank, size); ++k) {
    const Body b = body_for(rank + std::int64_t(k) * size);
    granite::body::ParticleInit init;
    init.id = b.id;
    init.position = b.position;
    init.velocity = b.velocity;
    init.angular_velocity = b.angular_velocity;
    init.radius = b.radius;
    init.mass = 1.0;
    init.material = b.material;
    init.group = b.group;
    particles.add(init);
    particles.orientation.back() = b.orientation;  // exactly these bits, no re-normalisation
  }
  return particles;
}

// --- a unique directory per test, named by rank 0, removed at the end -----------------------
class SnapshotTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string name;
    if (comm_rank() == 0) {
      std::string pattern = (fs::temp_directory_path() / "granite_snapshot_XXXXXX").string();
      if (mkdtemp(pattern.data()) != nullptr) name = pattern;
    }
    int length = int(name.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    name.resize(std::size_t(length));
    MPI_Bcast(name.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    ASSERT_FALSE(name.empty()) << "mkdtemp failed on rank 0";
    dir_ = name;
  }
  void TearDown() override {
    MPI_Barrier(MPI_COMM_WORLD);
    if (comm_rank() == 0 && !dir_.empty()) fs::remove_all(dir_);
  }
  std::string dir_;
};

// --- reading back with the serial C API ------------------------------------------------------
struct ReadBack {
  std::vector<hsize_t> dims;
  std::vector<double> doubles;
  std::vector<std::int64_t> int64s;
  std::vector<std::int32_t> int32s;
  std::vector<std::uint32_t> uint32s;
};

ReadBack read_dataset(hid_t file, const std::string& name, hid_t memory_type) {
  ReadBack out;
  const hid_t dataset = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  EXPECT_GE(dataset, 0) << "missing dataset " << name;
  if (dataset < 0) return out;
  const hid_t space = H5Dget_space(dataset);
  const int rank = H5Sget_simple_extent_ndims(space);
  out.dims.resize(std::size_t(rank));
  H5Sget_simple_extent_dims(space, out.dims.data(), nullptr);
  hsize_t elements = 1;
  for (hsize_t d : out.dims) elements *= d;
  void* buffer = nullptr;
  if (H5Tequal(memory_type, H5T_NATIVE_DOUBLE) > 0) {
    out.doubles.resize(elements + 1);
    buffer = out.doubles.data();
  } else if (H5Tequal(memory_type, H5T_NATIVE_INT64) > 0) {
    out.int64s.resize(elements + 1);
    buffer = out.int64s.data();
  } else if (H5Tequal(memory_type, H5T_NATIVE_INT32) > 0) {
    out.int32s.resize(elements + 1);
    buffer = out.int32s.data();
  } else {
    out.uint32s.resize(elements + 1);
    buffer = out.uint32s.data();
  }
  if (elements > 0) {
    EXPECT_GE(H5Dread(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer), 0) << name;
  }
  H5Sclose(space);
  H5Dclose(dataset);
  return out;
}

template <class T>
T read_scalar_attribute(hid_t file, const char* name, hid_t memory_type) {
  T value{};
  const hid_t attribute = H5Aopen(file, name, H5P_DEFAULT);
  EXPECT_GE(attribute, 0) << "missing attribute " << name;
  if (attribute < 0) return value;
  EXPECT_GE(H5Aread(attribute, memory_type, &value), 0) << name;
  H5Aclose(attribute);
  return value;
}

std::string read_string_attribute(hid_t file, const char* name) {
  const hid_t attribute = H5Aopen(file, name, H5P_DEFAULT);
  EXPECT_GE(attribute, 0) << "missing attribute " << name;
  if (attribute < 0) return {};
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  char* text = nullptr;
  EXPECT_GE(H5Aread(attribute, type, &text), 0) << name;
  std::string out = text ? text : "";
  H5free_memory(text);
  H5Tclose(type);
  H5Aclose(attribute);
  return out;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Minimal well-formedness: every element closed in order, one root <Xdmf>.
bool tags_balanced(const std::string& xml) {
  std::vector<std::string> open;
  int roots = 0;
  for (std::size_t at = xml.find('<'); at != std::string::npos; at = xml.find('<', at + 1)) {
    const std::size_t end = xml.find('>', at);
    if (end == std::string::npos) return false;
    const std::string tag = xml.substr(at + 1, end - at - 1);
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return false;
      open.pop_back();
      continue;
    }
    const std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
    if (open.empty()) ++roots;
    if (tag.back() != '/') open.push_back(name);
  }
  return open.empty() && roots == 1;
}

std::string big_config() {
  // Longer than the 64 KiB limit of compact attribute storage.
  std::string config = "# resolved configuration\n";
  for (int i = 0; config.size() < 70000; ++i) {
    config += "key_" + std::to_string(i) + ": " + std::to_string(i * 0.125) + "  # \"units\" <m>\n";
  }
  return config;
}

// Writes the known bodies and checks everything that comes back, on every rank.
void write_and_verify(const std::string& path, int compression, CountFunction count = bodies_on) {
  const int rank = comm_rank();
  const int size = comm_size();
  const Particles particles = owned_bodies(rank, size, count);
  SnapshotInfo info;
  info.time = 0.0123456789;
  info.step = 424242;
  info.config = big_config();
  info.decomposition = {size, 1, 1};
  info.compression = compression;
  granite::io::write_snapshot(path, particles, info, MPI_COMM_WORLD);

  std::map<std::int64_t, int> expected_owner;
  for (int r = 0; r < size; ++r) {
    for (int k = 0; k < count(r, size); ++k) expected_owner[r + std::int64_t(k) * size] = r;
  }
  const hsize_t n = expected_owner.size();

  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0) << "cannot open " << path;
  const ReadBack id = read_dataset(file, "/particles/id", H5T_NATIVE_INT64);
  const ReadBack position = read_dataset(file, "/particles/position", H5T_NATIVE_DOUBLE);
  const ReadBack velocity = read_dataset(file, "/particles/velocity", H5T_NATIVE_DOUBLE);
  const ReadBack angular = read_dataset(file, "/particles/angular_velocity", H5T_NATIVE_DOUBLE);
  const ReadBack orientation = read_dataset(file, "/particles/orientation", H5T_NATIVE_DOUBLE);
  const ReadBack radius = read_dataset(file, "/particles/radius", H5T_NATIVE_DOUBLE);
  const ReadBack material = read_dataset(file, "/particles/material", H5T_NATIVE_UINT32);
  const ReadBack owner = read_dataset(file, "/particles/owner_rank", H5T_NATIVE_INT32);
  const ReadBack group = read_dataset(file, "/particles/group", H5T_NATIVE_INT32);

  EXPECT_EQ(id.dims, std::vector<hsize_t>({n}));
  EXPECT_EQ(position.dims, std::vector<hsize_t>({n, 3}));
  EXPECT_EQ(velocity.dims, std::vector<hsize_t>({n, 3}));
  EXPECT_EQ(angular.dims, std::vector<hsize_t>({n, 3}));
  EXPECT_EQ(orientation.dims, std::vector<hsize_t>({n, 4}));
  EXPECT_EQ(radius.dims, std::vector<hsize_t>({n}));
  EXPECT_EQ(material.dims, std::vector<hsize_t>({n}));
  EXPECT_EQ(owner.dims, std::vector<hsize_t>({n}));
  EXPECT_EQ(group.dims, std::vector<hsize_t>({n}));

  if (id.dims == std::vector<hsize_t>({n}) && position.dims == std::vector<hsize_t>({n, 3}) &&
      velocity.dims == position.dims && angular.dims == position.dims &&
      orientation.dims == std::vector<hsize_t>({n, 4}) && radius.dims == id.dims &&
      material.dims == id.dims && owner.dims == id.dims && group.dims == id.dims) {
    std::map<std::int64_t, int> seen;
    for (hsize_t i = 0; i < n; ++i) {
      const std::int64_t body = id.int64s[i];
      ++seen[body];
      const auto expected = expected_owner.find(body);
      ASSERT_NE(expected, expected_owner.end()) << "unexpected id " << body;
      const Body b = body_for(body);
      for (int c = 0; c < 3; ++c) {
        // Bit-identical: exact equality of doubles (no NaN among them).
        EXPECT_EQ(position.doubles[3 * i + c], b.position[c]) << "id " << body;
        EXPECT_EQ(velocity.doubles[3 * i + c], b.velocity[c]) << "id " << body;
        EXPECT_EQ(angular.doubles[3 * i + c], b.angular_velocity[c]) << "id " << body;
      }
      EXPECT_EQ(orientation.doubles[4 * i + 0], b.orientation.w()) << "id " << body;
      EXPECT_EQ(orientation.doubles[4 * i + 1], b.orientation.x()) << "id " << body;
      EXPECT_EQ(orientation.doubles[4 * i + 2], b.orientation.y()) << "id " << body;
      EXPECT_EQ(orientation.doubles[4 * i + 3], b.orientation.z()) << "id " << body;
      EXPECT_EQ(radius.doubles[i], b.radius) << "id " << body;
      EXPECT_EQ(material.uint32s[i], b.material) << "id " << body;
      EXPECT_EQ(owner.int32s[i], expected->second) << "id " << body;
      EXPECT_EQ(group.int32s[i], b.group) << "id " << body;
    }
    EXPECT_EQ(seen.size(), expected_owner.size());
    for (const auto& [body, times] : seen) EXPECT_EQ(times, 1) << "id " << body;
  }

  EXPECT_EQ(read_scalar_attribute<double>(file, "time", H5T_NATIVE_DOUBLE), info.time);
  EXPECT_EQ(read_scalar_attribute<std::int64_t>(file, "step", H5T_NATIVE_INT64), info.step);
  EXPECT_EQ(read_scalar_attribute<std::int32_t>(file, "ranks", H5T_NATIVE_INT32), size);
  EXPECT_EQ(read_scalar_attribute<std::int64_t>(file, "particle_count", H5T_NATIVE_INT64),
            std::int64_t(n));
  EXPECT_EQ(read_string_attribute(file, "config"), info.config);
  EXPECT_EQ(read_string_attribute(file, "units"), "SI: m, s, kg");
  EXPECT_EQ(read_string_attribute(file, "granite_version"), granite::build_info::version());
  EXPECT_EQ(read_string_attribute(file, "git_commit"), granite::build_info::git_commit());
  EXPECT_EQ(read_string_attribute(file, "format"), "granite-snapshot");
  EXPECT_EQ(read_scalar_attribute<std::int32_t>(file, "format_version", H5T_NATIVE_INT32), 4);
  std::int32_t dims[3] = {0, 0, 0};
  const hid_t attribute = H5Aopen(file, "decomposition", H5P_DEFAULT);
  EXPECT_GE(attribute, 0);
  if (attribute >= 0) {
    EXPECT_GE(H5Aread(attribute, H5T_NATIVE_INT32, dims), 0);
    H5Aclose(attribute);
  }
  EXPECT_EQ(dims[0], size);
  EXPECT_EQ(dims[1], 1);
  EXPECT_EQ(dims[2], 1);
  EXPECT_GE(H5Fclose(file), 0);
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST_F(SnapshotTest, EveryBodyOnceAndBitIdentical) { write_and_verify(dir_ + "/plain.h5", 0); }

// Parallel HDF5 >= 1.10.2 writes filtered (gzip) datasets collectively.
TEST_F(SnapshotTest, CompressedSnapshotIsBitIdentical) {
  write_and_verify(dir_ + "/compressed.h5", 6);
}

TEST_F(SnapshotTest, ManyChunksAcrossRankBoundaries) {
  write_and_verify(dir_ + "/many.h5", 0, many_bodies_on);
  write_and_verify(dir_ + "/many_compressed.h5", 1, many_bodies_on);
}

TEST_F(SnapshotTest, EmptySnapshotHasZeroRows) {
  SnapshotInfo info;
  info.step = 3;
  const std::string path = dir_ + "/empty.h5";
  granite::io::write_snapshot(path, Particles{}, info, MPI_COMM_WORLD);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(read_dataset(file, "/particles/id", H5T_NATIVE_INT64).dims, std::vector<hsize_t>({0}));
  EXPECT_EQ(read_dataset(file, "/particles/position", H5T_NATIVE_DOUBLE).dims,
            std::vector<hsize_t>({0, 3}));
  EXPECT_EQ(read_dataset(file, "/particles/orientation", H5T_NATIVE_DOUBLE).dims,
            std::vector<hsize_t>({0, 4}));
  EXPECT_EQ(read_scalar_attribute<std::int64_t>(file, "step", H5T_NATIVE_INT64), 3);
  H5Fclose(file);
}

TEST_F(SnapshotTest, WriterPublishesAtomicallyWithXdmfAndSeries) {
  const int rank = comm_rank();
  const int size = comm_size();
  const std::string dir = dir_ + "/out/nested";  // created by the writer
  granite::io::SnapshotWriter writer(dir, MPI_COMM_WORLD);
  const Particles particles = owned_bodies(rank, size);
  std::int64_t n = 0;
  for (int r = 0; r < size; ++r) n += bodies_on(r, size);

  SnapshotInfo info;
  info.time = 0.5;
  info.step = 7;
  const std::string first = writer.write(particles, info);
  EXPECT_EQ(first, (fs::path(dir) / "snapshot_00000007.h5").string());
  info.time = 0.75;
  info.step = 123456789;
  const std::string second = writer.write(particles, info);
  EXPECT_EQ(second, (fs::path(dir) / "snapshot_123456789.h5").string());
  MPI_Barrier(MPI_COMM_WORLD);

  // Every rank looks at the shared directory.
  for (const auto& entry : fs::directory_iterator(dir)) {
    EXPECT_NE(entry.path().extension(), ".tmp") << "left behind: " << entry.path();
  }
  EXPECT_TRUE(fs::is_regular_file(first));
  EXPECT_TRUE(fs::is_regular_file(second));

  const std::string xdmf = read_text(fs::path(dir) / "snapshot_00000007.xdmf");
  EXPECT_TRUE(tags_balanced(xdmf)) << xdmf;
  EXPECT_NE(xdmf.find("<Xdmf Version=\"3.0\""), std::string::npos);
  EXPECT_NE(xdmf.find("TopologyType=\"Polyvertex\" NumberOfElements=\"" + std::to_string(n) + "\""),
            std::string::npos)
      << xdmf;
  EXPECT_NE(xdmf.find("GeometryType=\"XYZ\""), std::string::npos);
  for (const char* dataset :
       {"position", "velocity", "angular_velocity", "radius", "id", "owner_rank"}) {
    EXPECT_NE(xdmf.find(std::string(">snapshot_00000007.h5:/particles/") + dataset + "<"),
              std::string::npos)
        << dataset;
  }
  EXPECT_NE(xdmf.find("Dimensions=\"" + std::to_string(n) + " 3\""), std::string::npos);
  EXPECT_EQ(count_of(xdmf, "AttributeType=\"Vector\""), 2u);

  const std::string series = read_text(fs::path(dir) / "series.xdmf");
  EXPECT_TRUE(tags_balanced(series)) << series;
  EXPECT_NE(series.find("CollectionType=\"Temporal\""), std::string::npos);
  EXPECT_EQ(count_of(series, "GridType=\"Uniform\""), 2u) << series;
  EXPECT_EQ(count_of(series, "<Time Value="), 2u);
  EXPECT_NE(series.find("<Time Value=\"0.5\"/>"), std::string::npos);
  EXPECT_NE(series.find("<Time Value=\"0.75\"/>"), std::string::npos);
  EXPECT_NE(series.find(">snapshot_00000007.h5:/particles/position<"), std::string::npos);
  EXPECT_NE(series.find(">snapshot_123456789.h5:/particles/position<"), std::string::npos);
  EXPECT_LT(series.find("snapshot_00000007.h5"), series.find("snapshot_123456789.h5"));

  // A writer on the same directory (a restart) keeps listing the existing snapshots.
  granite::io::SnapshotWriter restarted(dir, MPI_COMM_WORLD);
  info.time = 0.625;
  info.step = 8;
  restarted.write(particles, info);
  MPI_Barrier(MPI_COMM_WORLD);
  const std::string resumed = read_text(fs::path(dir) / "series.xdmf");
  EXPECT_EQ(count_of(resumed, "GridType=\"Uniform\""), 3u) << resumed;
  EXPECT_LT(resumed.find("snapshot_00000008.h5"), resumed.find("snapshot_123456789.h5"));

  // Rebuilding the series from the directory alone gives the same file.
  if (rank == 0) granite::io::write_series_xdmf(dir);
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(read_text(fs::path(dir) / "series.xdmf"), resumed);
}

TEST_F(SnapshotTest, UnwritableDestinationIsAnInputErrorOnEveryRank) {
  const std::string blocker = dir_ + "/regular_file";
  if (comm_rank() == 0) std::ofstream(blocker) << "not a directory\n";
  MPI_Barrier(MPI_COMM_WORLD);
  const Particles particles = owned_bodies(comm_rank(), comm_size());

  bool writer_rejected = false;
  try {
    granite::io::SnapshotWriter writer(blocker + "/snapshots", MPI_COMM_WORLD);
  } catch (const granite::InputError& error) {
    writer_rejected = std::string(error.what()).find(blocker + "/snapshots") != std::string::npos;
    EXPECT_TRUE(writer_rejected) << error.what();
  }
  EXPECT_TRUE(everywhere(writer_rejected));

  bool write_rejected = false;
  const std::string path = blocker + "/snapshot.h5";
  try {
    granite::io::write_snapshot(path, particles, SnapshotInfo{}, MPI_COMM_WORLD);
  } catch (const granite::InputError& error) {
    write_rejected = std::string(error.what()).find(path) != std::string::npos;
    EXPECT_TRUE(write_rejected) << error.what();
  }
  EXPECT_TRUE(everywhere(write_rejected));
}

TEST_F(SnapshotTest, CompressionLevelOutsideGzipRangeIsRejected) {
  SnapshotInfo info;
  info.compression = 10;
  bool rejected = false;
  try {
    granite::io::write_snapshot(dir_ + "/bad.h5", Particles{}, info, MPI_COMM_WORLD);
  } catch (const granite::InputError&) {
    rejected = true;
  }
  EXPECT_TRUE(everywhere(rejected));
  EXPECT_FALSE(fs::exists(dir_ + "/bad.h5"));
  EXPECT_FALSE(fs::exists(dir_ + "/bad.h5.tmp"));
}

// --- shaped bodies: the /shapes mesh ----------------------------------------------------------
// Rank r's bodies as above, every second one (local index 1, 3, ...) a dimer of parts of radius
// 1 and 0.8 mm: ranks hold different numbers of shaped bodies, the last of several none.
struct ShapedScene {
  granite::body::MaterialTable materials;
  granite::body::ShapeTable shapes;
  granite::body::ShapeIndex dimer;
  ShapedScene() {
    materials.add(granite::body::Material{});
    dimer = shapes.add_clump("dimer", {{1e-3, Vec3(-0.6e-3, 0, 0)}, {0.8e-3, Vec3(0.6e-3, 0, 0)}});
  }
  static bool shaped(int k) { return k % 2 == 1; }
  Particles bodies(int rank, int size, bool with_shapes) const {
    Particles particles;
    for (int k = 0; k < bodies_on(rank, size); ++k) {
      const Body b = body_for(rank + std::int64_t(k) * size);
      if (with_shapes && shaped(k))
        particles.add_shaped(materials, shapes, dimer, 0, b.position, b.orientation, b.velocity,
                             b.id);
      else
        particles.add_sphere(materials, 0, b.position, b.radius, b.velocity, b.id);
    }
    return particles;
  }
};

TEST_F(SnapshotTest, ShapedBodiesAreOneTriangleMeshInRankOrder) {
  const int size = comm_size();
  const ShapedScene scene;
  SnapshotInfo info;
  info.step = 5;
  info.shapes = &scene.shapes;
  const std::string path = dir_ + "/shaped.h5";
  granite::io::write_snapshot(path, scene.bodies(comm_rank(), size, true), info, MPI_COMM_WORLD);

  std::vector<std::int64_t> shaped;  // the shaped bodies' ids in rank order
  for (int r = 0; r < size; ++r)
    for (int k = 0; k < bodies_on(r, size); ++k)
      if (ShapedScene::shaped(k)) shaped.push_back(r + std::int64_t(k) * size);
  const hsize_t n = shaped.size();
  ASSERT_GT(n, 0u);

  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const ReadBack vertices = read_dataset(file, "/shapes/vertices", H5T_NATIVE_DOUBLE);
  const ReadBack triangles = read_dataset(file, "/shapes/triangles", H5T_NATIVE_INT64);
  const ReadBack id = read_dataset(file, "/shapes/id", H5T_NATIVE_INT64);
  const hid_t group = H5Gopen2(file, "/shapes", H5P_DEFAULT);
  EXPECT_EQ(read_scalar_attribute<std::int64_t>(group, "vertex_count", H5T_NATIVE_INT64),
            std::int64_t(84 * n));
  EXPECT_EQ(read_scalar_attribute<std::int64_t>(group, "triangle_count", H5T_NATIVE_INT64),
            std::int64_t(160 * n));
  EXPECT_EQ(read_scalar_attribute<std::int32_t>(group, "icosphere_subdivisions", H5T_NATIVE_INT32),
            1);
  H5Gclose(group);
  H5Fclose(file);
  ASSERT_EQ(vertices.dims, std::vector<hsize_t>({84 * n, 3}));  // 2 parts x 42
  ASSERT_EQ(triangles.dims, std::vector<hsize_t>({160 * n, 3}));
  ASSERT_EQ(id.dims, std::vector<hsize_t>({160 * n}));

  const auto& parts = scene.shapes[scene.dimer].parts;
  for (hsize_t j = 0; j < n; ++j) {  // body j: triangles 160 j.., vertices 84 j..
    const Body b = body_for(shaped[j]);
    for (hsize_t t = 160 * j; t < 160 * (j + 1); ++t) {
      EXPECT_EQ(id.int64s[t], shaped[j]) << "triangle " << t;
      for (int c = 0; c < 3; ++c) {
        const std::int64_t v = triangles.int64s[3 * t + c];
        EXPECT_EQ(hsize_t(v) / 84, j) << "triangle " << t << " uses vertex " << v;
      }
    }
    const granite::Mat3 rotation = b.orientation.toRotationMatrix();
    for (hsize_t v = 84 * j; v < 84 * (j + 1); ++v) {
      const auto& part = parts[(v - 84 * j) / 42];
      const Vec3 x(vertices.doubles[3 * v], vertices.doubles[3 * v + 1],
                   vertices.doubles[3 * v + 2]);
      EXPECT_NEAR((x - granite::body::part_centre(b.position, rotation, part)).norm(), part.radius,
                  1e-15)
          << "vertex " << v;
    }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  const std::string xdmf = read_text(fs::path(dir_) / "shaped.xdmf");
  EXPECT_TRUE(tags_balanced(xdmf)) << xdmf;
  EXPECT_NE(xdmf.find("CollectionType=\"Spatial\""), std::string::npos);
  EXPECT_NE(xdmf.find("<Grid Name=\"shapes\" GridType=\"Uniform\">"), std::string::npos);
  EXPECT_NE(xdmf.find("TopologyType=\"Triangle\" NumberOfElements=\"" + std::to_string(160 * n)),
            std::string::npos);
  for (const auto& [rows, dataset] : {std::pair{std::to_string(160 * n) + " 3", "triangles"},
                                      std::pair{std::to_string(84 * n) + " 3", "vertices"},
                                      std::pair{std::to_string(160 * n), "id"}})
    EXPECT_NE(xdmf.find("Dimensions=\"" + rows + "\" NumberType=\"" +
                        (std::string(dataset) == "vertices" ? "Float" : "Int") +
                        "\" Precision=\"8\" Format=\"HDF\">shaped.h5:/shapes/" + dataset + "<"),
              std::string::npos)
        << dataset << "\n"
        << xdmf;
  EXPECT_NE(xdmf.find("<Attribute Name=\"id\" AttributeType=\"Scalar\" Center=\"Cell\">"),
            std::string::npos);
}

// With a shape table but only spheres the file has no /shapes and the same /particles as
// without the table; the XDMF grid is a spatial collection (of the particles alone).
TEST_F(SnapshotTest, SpheresAloneWriteNoShapes) {
  const ShapedScene scene;
  const Particles spheres = scene.bodies(comm_rank(), comm_size(), false);
  SnapshotInfo plain;
  plain.step = 9;
  SnapshotInfo with_table = plain;
  with_table.shapes = &scene.shapes;
  granite::io::write_snapshot(dir_ + "/plain.h5", spheres, plain, MPI_COMM_WORLD);
  granite::io::write_snapshot(dir_ + "/table.h5", spheres, with_table, MPI_COMM_WORLD);

  const hid_t a = H5Fopen((dir_ + "/plain.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t b = H5Fopen((dir_ + "/table.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  EXPECT_EQ(H5Lexists(b, "shapes", H5P_DEFAULT), 0);
  for (const char* name : {"position", "orientation", "velocity", "radius"}) {
    const std::string dataset = std::string("/particles/") + name;
    EXPECT_EQ(read_dataset(a, dataset, H5T_NATIVE_DOUBLE).doubles,
              read_dataset(b, dataset, H5T_NATIVE_DOUBLE).doubles)
        << name;
  }
  for (const char* name : {"/particles/shape", "/particles/owner_rank"})
    EXPECT_EQ(read_dataset(a, name, H5T_NATIVE_INT32).int32s,
              read_dataset(b, name, H5T_NATIVE_INT32).int32s)
        << name;
  H5Fclose(a);
  H5Fclose(b);

  MPI_Barrier(MPI_COMM_WORLD);
  const std::string without = read_text(fs::path(dir_) / "plain.xdmf");
  const std::string with = read_text(fs::path(dir_) / "table.xdmf");
  EXPECT_EQ(without.find("Collection"), std::string::npos) << without;
  EXPECT_NE(with.find("CollectionType=\"Spatial\""), std::string::npos) << with;
  EXPECT_EQ(with.find("shapes"), std::string::npos) << with;
  EXPECT_TRUE(tags_balanced(with)) << with;
}

}  // namespace

// --- the global bodies: /global_bodies ----------------------------------------------------------

// Each rank passes its part of the global bodies' surfaces: rank 0 the analytic bodies, every
// rank the triangles of a mesh wall it owns (here every rank keeps the whole 8 x 8 grid of
// 128 triangles and owns those t with t mod ranks = rank). /global_bodies holds each part once,
// bit for bit: the box's 12 triangles, the floor's 2, and every grid triangle exactly once, its
// corners at the right vertices; the XDMF grid "global_bodies" refers to those datasets (no
// inline data: a large mesh wall costs the XDMF files nothing).
TEST_F(SnapshotTest, GlobalBodiesAreWrittenOnceAndReferencedByTheXdmf) {
  using granite::body::TriangleMesh;
  const int rank = comm_rank(), ranks = comm_size();
  constexpr int kGrid = 8;
  std::vector<Vec3> corners;
  std::vector<granite::body::MeshTriangle> cells;
  for (int j = 0; j <= kGrid; ++j)
    for (int i = 0; i <= kGrid; ++i) corners.emplace_back(0.1 * i, 0.1 * j, 0.0);
  for (int j = 0; j < kGrid; ++j)
    for (int i = 0; i < kGrid; ++i) {
      const int a = j * (kGrid + 1) + i;
      cells.push_back({a, a + 1, a + kGrid + 2});
      cells.push_back({a, a + kGrid + 2, a + kGrid + 1});
    }
  const TriangleMesh whole(corners, cells);
  std::vector<std::int32_t> all(whole.triangle_count());
  std::vector<bool> owned(all.size());
  for (std::size_t t = 0; t < all.size(); ++t) {
    all[t] = std::int32_t(t);
    owned[t] = int(t) % ranks == rank;
  }
  granite::body::GlobalBodies bodies;
  bodies.add(granite::body::Box{Vec3(0.1, 0.2, 0.3), Vec3(0.1, 0.2, 0.3),
                                granite::Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()))},
             0);
  bodies.add(granite::body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, 0);
  const Vec3 shift(0.0, 0.0, 0.5);
  bodies.add(granite::body::Mesh{std::make_shared<const TriangleMesh>(whole.part(all, owned)),
                                 shift, granite::Quat::Identity()},
             0);
  const granite::io::SurfaceMesh mesh = granite::io::global_body_mesh(
      bodies, Vec3::Constant(-1.0), Vec3::Constant(1.0), granite::io::kCylinderSegments, rank == 0);
  SnapshotInfo info;
  info.step = 3;
  info.global_bodies = &mesh;
  const std::string path = dir_ + "/bodies.h5";
  granite::io::write_snapshot(path, owned_bodies(rank, ranks), info, MPI_COMM_WORLD);

  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const ReadBack vertices = read_dataset(file, "/global_bodies/vertices", H5T_NATIVE_DOUBLE);
  const ReadBack triangles = read_dataset(file, "/global_bodies/triangles", H5T_NATIVE_INT64);
  const ReadBack body = read_dataset(file, "/global_bodies/body", H5T_NATIVE_INT32);
  H5Fclose(file);
  constexpr std::size_t kTotal = 12 + 2 + 2 * kGrid * kGrid;
  ASSERT_EQ(triangles.dims, std::vector<hsize_t>({kTotal, 3}));
  ASSERT_EQ(body.dims, std::vector<hsize_t>({kTotal}));
  const auto point = [&](std::int64_t v) {
    return Vec3(vertices.doubles[std::size_t(3 * v)], vertices.doubles[std::size_t(3 * v + 1)],
                vertices.doubles[std::size_t(3 * v + 2)]);
  };
  // The analytic bodies' 14 come first (rank 0's part), as the mesh builds them.
  if (rank == 0)
    for (std::size_t t = 0; t < 14; ++t) {
      EXPECT_EQ(body.int32s[t], mesh.body[t]);
      for (int c = 0; c < 3; ++c)
        EXPECT_EQ(point(triangles.int64s[3 * t + c]),
                  mesh.points[std::size_t(mesh.triangles[t][c])]);
    }
  // Every grid triangle once, by its corners (placed by the shift).
  std::map<std::array<double, 9>, int> seen;
  for (std::size_t t = 0; t < kTotal; ++t) {
    if (body.int32s[t] != 2) continue;
    std::array<double, 9> key{};
    for (int c = 0; c < 3; ++c)
      for (int a = 0; a < 3; ++a)
        key[std::size_t(3 * c + a)] = point(triangles.int64s[3 * t + c])[a];
    ++seen[key];
  }
  ASSERT_EQ(seen.size(), whole.triangle_count());
  for (std::int32_t t = 0; t < std::int32_t(whole.triangle_count()); ++t) {
    std::array<double, 9> key{};
    for (int c = 0; c < 3; ++c)
      for (int a = 0; a < 3; ++a) key[std::size_t(3 * c + a)] = (whole.corner(t, c) + shift)[a];
    EXPECT_EQ(seen[key], 1) << "grid triangle " << t;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  const std::string xdmf = read_text(fs::path(dir_) / "bodies.xdmf");
  EXPECT_TRUE(tags_balanced(xdmf)) << xdmf;
  EXPECT_NE(xdmf.find("CollectionType=\"Spatial\""), std::string::npos);
  EXPECT_NE(xdmf.find("<Grid Name=\"global_bodies\" GridType=\"Uniform\">"), std::string::npos);
  EXPECT_NE(
      xdmf.find("TopologyType=\"Triangle\" NumberOfElements=\"" + std::to_string(kTotal) + "\""),
      std::string::npos);
  for (const char* dataset : {"vertices", "triangles", "body"})
    EXPECT_NE(xdmf.find(std::string(">bodies.h5:/global_bodies/") + dataset + "<"),
              std::string::npos)
        << dataset;
  EXPECT_EQ(xdmf.find("Format=\"XML\""), std::string::npos) << "inline data";
}
