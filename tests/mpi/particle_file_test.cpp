// Particle files read in shares (io::read_particle_file) and built into a run
// (scenario::build_simulation with a `file` source), at 1-4 ranks (issue 44: nothing that grows
// with the total particle count on one rank):
//   - a CSV's shares cover its rows exactly once, each row as written, each rank parsing at most
//     2N/P + 1 rows; a bad line is named, with its line number in the file, on every rank;
//   - a snapshot written by every rank in its own order is numbered in id order, each rank
//     reading at most ceil(N/P) rows; an id that appears twice is refused on every rank;
//   - the build sends each row to its owner: every rank holds, bit for bit and in the same
//     order, the particles of a one-process build of the whole file that fall in its part, with
//     and without a random fill after the file (which must avoid all its rows).
#include "granite/comm/collectives.hpp"
#include "granite/config/config.hpp"
#include "granite/core/error.hpp"
#include "granite/io/particle_file.hpp"
#include "granite/io/snapshot.hpp"
#include "granite/parallel/body_record.hpp"
#include "granite/parallel/unique_ids.hpp"
#include "granite/scenario/build.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace granite;
namespace fs = std::filesystem;

constexpr int kRows = 997;  // a prime: no rank count divides it

// Row k: on a 10 × 10 grid of 1 mm cells per layer (all inside a 1 cm box), radii of three
// sizes, materials alternating.
Vec3 position_of(int k) {
  return Vec3(0.001 * (k % 10) + 0.0005, 0.001 * ((k / 10) % 10) + 0.0005,
              0.001 * (k / 100) + 0.0005);
}
double radius_of(int k) { return 1e-4 * (1 + k % 3); }
int material_of(int k) { return k % 2; }

class ParticleFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string name;
    if (comm_.is_root()) {
      std::string pattern = (fs::temp_directory_path() / "granite_particle_file_XXXXXX").string();
      if (mkdtemp(pattern.data()) != nullptr) name = pattern;
    }
    comm::broadcast_container(name, comm_);
    ASSERT_FALSE(name.empty()) << "mkdtemp failed on rank 0";
    dir_ = name;
  }
  void TearDown() override {
    comm_.barrier();
    if (comm_.is_root() && !dir_.empty()) fs::remove_all(dir_);
  }

  // Writes the CSV of rows 0..kRows-1 on rank 0 (comments before the header, comment and blank
  // lines among the rows); row `bad`, if >= 0, has the radius "abc". Returns its path; `lines`
  // (out) the line number of every row.
  std::string write_csv(const std::string& name, int bad, std::vector<int>* lines = nullptr) {
    const std::string path = dir_ + "/" + name;
    std::vector<int> line_of;
    std::string text = "# rows made elsewhere\n\n# x, y, z in m\nx,y,z,radius,material,group\n";
    int line = 4;
    for (int k = 0; k < kRows; ++k) {
      if (k % 50 == 7) text += "# a comment among the rows\n", ++line;
      if (k % 77 == 3) text += "\n", ++line;
      const Vec3 x = position_of(k);
      char row[256];
      std::snprintf(row, sizeof row, "%.17g,%.17g,%.17g,%s,%s,%d\n", x.x(), x.y(), x.z(),
                    k == bad ? "abc" : std::to_string(radius_of(k)).c_str(),
                    material_of(k) ? "steel" : "glass", k);
      text += row;
      line_of.push_back(++line);
    }
    if (comm_.is_root()) std::ofstream(path) << text;
    comm_.barrier();
    if (lines) *lines = line_of;
    return path;
  }

  comm::Communicator comm_{MPI_COMM_WORLD};
  std::string dir_;
};

const std::vector<std::string> kMaterials{"glass", "steel"};

// Every index of the file exactly once over all ranks.
void expect_each_index_once(const io::ParticleShare& share, const comm::Communicator& comm) {
  EXPECT_EQ(comm::sum(std::int64_t(share.rows.size()), comm), kRows);
  EXPECT_FALSE(parallel::first_duplicate_id(share.index, comm));
  for (const std::int64_t k : share.index) {
    EXPECT_GE(k, 0);
    EXPECT_LT(k, kRows);
  }
}

TEST_F(ParticleFileTest, CsvSharesCoverTheRowsOnceAsWritten) {
  const std::string path = write_csv("rows.csv", -1);
  const io::ParticleShare share = io::read_particle_file(path, kMaterials, 0, comm_);
  EXPECT_EQ(share.total, kRows);
  ASSERT_EQ(share.index.size(), share.rows.size());
  EXPECT_EQ(share.rows_read, std::int64_t(share.rows.size()));
  // Lines differ in length by far less than a factor 2: a byte share holds < 2N/P + 1 rows.
  EXPECT_LE(share.rows_read, 2 * kRows / comm_.size() + 1);
  expect_each_index_once(share, comm_);
  for (std::size_t i = 0; i < share.rows.size(); ++i) {
    const int k = int(share.index[i]);
    const io::ParticleRow& row = share.rows[i];
    EXPECT_EQ(row.position, position_of(k)) << "row " << k;  // %.17g reads back exactly
    EXPECT_EQ(row.radius, std::strtod(std::to_string(radius_of(k)).c_str(), nullptr));
    EXPECT_EQ(row.material, material_of(k));
    EXPECT_TRUE(row.has_group);
    EXPECT_EQ(row.group, k);
  }
}

TEST_F(ParticleFileTest, ACsvBadLineIsNamedWithItsLineOnEveryRank) {
  std::vector<int> lines;
  const std::string path = write_csv("bad.csv", 700, &lines);
  try {
    io::read_particle_file(path, kMaterials, 0, comm_);
    ADD_FAILURE() << "no error on rank " << comm_.rank();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":" + std::to_string(lines[700]) +
                                         ": radius: expected a finite number, got 'abc'");
  }
}

// Rank r owns the rows k = r, r + P, ... in descending order; row k has the id 3k + k mod 3
// (increasing in k, with gaps), so the file's rows are in neither row nor id order.
body::Particles scattered_rows(const comm::Communicator& comm, int extra_id = -1) {
  body::Particles p;
  std::vector<int> mine;
  for (int k = comm.rank(); k < kRows; k += comm.size()) mine.insert(mine.begin(), k);
  for (const int k : mine) {
    body::ParticleInit init;
    init.id = 3 * k + k % 3;
    init.position = position_of(k);
    init.radius = radius_of(k);
    init.mass = 1.0;
    init.material = body::MaterialIndex(material_of(k));
    p.add(init);
  }
  if (extra_id >= 0 && comm.rank() == comm.size() - 1) {
    body::ParticleInit init;
    init.id = extra_id;
    init.radius = 1e-4;
    init.mass = 1.0;
    p.add(init);
  }
  return p;
}

TEST_F(ParticleFileTest, SnapshotSharesAreNumberedInIdOrder) {
  const std::string path = dir_ + "/rows.h5";
  io::write_snapshot(path, scattered_rows(comm_), io::SnapshotInfo{}, comm_);
  const io::ParticleShare share = io::read_particle_file(path, kMaterials, 0, comm_);
  EXPECT_EQ(share.total, kRows);
  EXPECT_LE(share.rows_read, (kRows + comm_.size() - 1) / comm_.size());
  expect_each_index_once(share, comm_);
  for (std::size_t i = 0; i < share.rows.size(); ++i) {
    const int k = int(share.index[i]);  // the k-th id is row k's
    EXPECT_EQ(share.rows[i].position, position_of(k)) << "row " << k;
    EXPECT_EQ(share.rows[i].radius, radius_of(k));
    EXPECT_EQ(share.rows[i].material, material_of(k));
  }
}

TEST_F(ParticleFileTest, ASnapshotIdThatAppearsTwiceIsRefusedOnEveryRank) {
  const std::string path = dir_ + "/twice.h5";
  io::write_snapshot(path, scattered_rows(comm_, 3 * 5 + 5 % 3), io::SnapshotInfo{}, comm_);
  try {
    io::read_particle_file(path, kMaterials, 0, comm_);
    ADD_FAILURE() << "no error on rank " << comm_.rank();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": cannot read particles from this Granite snapshot or checkpoint (particle "
                     "id 17 appears twice)");
  }
}

// The build of `config` on one process (`one`) and over all ranks, parts by slabs along x.
void expect_build_matches_one_process(const std::string& config, const comm::Communicator& comm,
                                      timestep::Simulation& one) {
  config::ScenarioConfig cfg = config::load_scenario(config, {});
  const comm::Communicator self = comm::self();
  config::Settings whole = cfg.settings;
  scenario::measure_particle_files(whole, self);
  scenario::measure_particle_files(cfg.settings, comm);
  const auto owner = [&](const Vec3& x) {
    return std::min(comm.size() - 1, int(std::floor(x.x() / 0.01 * comm.size())));
  };
  timestep::Simulation parts;
  std::mt19937_64 rng_one(1), rng_parts(1);
  const BodyId next_one = scenario::build_simulation(whole, one, rng_one);
  const BodyId next_parts = scenario::build_simulation(
      cfg.settings, parts, rng_parts, scenario::Placement{.owner = owner, .comm = &comm});
  EXPECT_EQ(next_parts, next_one);
  std::vector<parallel::BodyRecord> expected;
  for (std::size_t i = 0; i < one.particles().size(); ++i)
    if (owner(one.particles().position[i]) == comm.rank())
      expected.push_back(parallel::pack(one.particles(), i));
  ASSERT_EQ(parts.particles().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(parallel::pack(parts.particles(), i).bytes, expected[i].bytes)
        << "particle " << i << " (id " << parts.particles().id[i] << ")";
  EXPECT_EQ(comm::sum(std::uint64_t(parts.particles().size()), comm), one.particles().size());
  // In id order, as a whole-file read adds them (a snapshot's rows are not).
  EXPECT_TRUE(std::is_sorted(parts.particles().id.begin(), parts.particles().id.end()));
}

std::string write_config(const std::string& dir, const std::string& file, bool fill,
                         const comm::Communicator& comm) {
  const std::string path = dir + "/build.yaml";
  if (comm.is_root()) {
    std::ofstream out(path);
    out << "run: {dt: 1.0e-4, end_time: 1.0e-4}\n"
           "domain: {min: [0, 0, 0], max: [0.01, 0.01, 0.02]}\n"
           "materials:\n"
           "  - {name: glass, density: 2500}\n"
           "  - {name: steel, density: 7800}\n"
           "particles:\n"
           "  - {type: lattice, min: [0, 0, 0.012], max: [0.01, 0.01, 0.014], spacing: 0.001,"
           " radius: 2.0e-4, material: glass}\n"
           "  - {type: file, path: "
        << file << ", material: glass, group: 3}\n";
    if (fill)
      out << "  - type: random\n"
             "    region: {type: box, min: [0, 0, 0], max: [0.01, 0.01, 0.02]}\n"
             "    count: 200\n"
             "    radius: 3.0e-4\n"
             "    material: steel\n";
  }
  comm.barrier();
  return path;
}

TEST_F(ParticleFileTest, TheBuildSendsEachRowToItsOwner) {
  const std::string csv = write_csv("rows.csv", -1);
  timestep::Simulation from_csv, from_snapshot;
  expect_build_matches_one_process(write_config(dir_, csv, false, comm_), comm_, from_csv);
  const std::string h5 = dir_ + "/rows.h5";
  io::write_snapshot(h5, scattered_rows(comm_), io::SnapshotInfo{}, comm_);
  expect_build_matches_one_process(write_config(dir_, h5, false, comm_), comm_, from_snapshot);
}

TEST_F(ParticleFileTest, ARandomFillAfterTheFileAvoidsAllItsRows) {
  const std::string csv = write_csv("rows.csv", -1);
  timestep::Simulation one;
  expect_build_matches_one_process(write_config(dir_, csv, true, comm_), comm_, one);
  // Ids: the lattice's 200, the file's kRows, then the fill's, none touching a file row.
  const body::Particles& p = one.particles();
  const BodyId first_row = 200, first_fill = first_row + kRows;
  ASSERT_GT(p.size(), std::size_t(first_fill));
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (p.id[i] < first_fill || p.id[j] < first_row || p.id[j] >= first_fill) continue;
      ASSERT_GE((p.position[i] - p.position[j]).norm(), p.radius[i] + p.radius[j])
          << "fill particle " << p.id[i] << " overlaps row " << p.id[j] - first_row;
    }
}

}  // namespace
