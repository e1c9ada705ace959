// The warm-start history on another rank count (issue 44), at 1-4 ranks: the id directory
// (parallel::owners_of) names each id's owner without any rank holding every id, and a
// restore routes each history row a rank read to the owners of its particles, so that every
// rank ends with exactly the entries of the contacts it may relax, each once, bit for bit; an
// older checkpoint's text history is read as those versions read it.
#include "granite/body/material.hpp"
#include "granite/core/error.hpp"
#include "granite/comm/communicator.hpp"
#include "granite/io/checkpoint.hpp"
#include "granite/parallel/id_directory.hpp"
#include "granite/scenario/engine_state.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace granite;

// Rank r owns ids r, r + P, r + 2P, r + 3P (16 ids at P = 4), id 4P and above: nobody.
std::vector<BodyId> owned_by(int rank, int ranks) {
  std::vector<BodyId> ids;
  for (int k = 0; k < 4; ++k) ids.push_back(BodyId(rank + k * ranks));
  return ids;
}

TEST(IdDirectory, EveryRankLearnsTheOwnerOfEachIdItAsksFor) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  // Each rank asks for every owned id (twice over) and for one nobody owns.
  std::vector<BodyId> wanted;
  for (BodyId id = 0; id < 4 * P; ++id) wanted.push_back(id);
  wanted.push_back(BodyId(comm.rank()));
  wanted.push_back(4 * P + 3);
  const auto owners = parallel::owners_of(wanted, owned_by(comm.rank(), P), comm);
  EXPECT_EQ(owners.size(), std::size_t(4 * P));
  for (BodyId id = 0; id < 4 * P; ++id) {
    const auto it = owners.find(id);
    ASSERT_NE(it, owners.end()) << id;
    EXPECT_EQ(it->second, int(id % P)) << id;
  }
  EXPECT_EQ(owners.count(4 * P + 3), 0u);
}

TEST(HistoryRestore, RowsReadOnAnotherRankCountReachTheOwnersOfTheirParticlesOnce) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  const int rank = comm.rank();
  // Rows: every pair (a, b), a < b < 4P, with ordinal 0, and with a global body (−1, −2) for
  // each a; rank r "read" rows i with i mod P = r (its share), some of them twice over ranks.
  std::vector<io::HistoryRow> all;
  for (BodyId a = 0; a < 4 * P; ++a) {
    for (BodyId b = a + 1; b < 4 * P; ++b) all.push_back({a, b, 0, {}, {}});
    all.push_back({a, -1, 0, {}, {}});
    all.push_back({a, -2, 1, {}, {}});
  }
  all.push_back({4 * P, 4 * P + 1, 0, {}, {}});  // particles nobody owns: dropped
  for (std::size_t i = 0; i < all.size(); ++i)
    for (int c = 0; c < 3; ++c) {
      all[i].impulse[c] = std::sin(double(i) + c) / 3.0;
      all[i].torque[c] = std::cos(double(i) * c) / 7.0;
    }
  io::CheckpointState state;
  state.has_history = true;
  state.history_as_written = false;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (int(i % std::size_t(P)) == rank) state.history.push_back(all[i]);

  timestep::Simulation sim;
  const auto glass = sim.materials().add({2500.0, 0.5});
  for (const BodyId id : owned_by(rank, P)) {
    sim.particles().add_sphere(sim.materials(), glass, Vec3(double(id), 0, 0), 0.1, Vec3::Zero(),
                               id);
  }
  scenario::restore_contact_history(state, sim, comm);

  const auto mine = [&](BodyId id) { return id >= 0 && id < 4 * P && int(id % P) == rank; };
  std::vector<io::HistoryRow> expected;
  for (const io::HistoryRow& r : all)
    if (mine(r.first) || mine(r.second)) expected.push_back(r);
  std::sort(expected.begin(), expected.end(),
            [](const io::HistoryRow& x, const io::HistoryRow& y) { return solver::by_key(x, y); });
  const std::vector<solver::HistoryEntry> got = sim.contact_history().entries();  // sorted
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].key.first, expected[i].first) << i;
    EXPECT_EQ(got[i].key.second, expected[i].second) << i;
    EXPECT_EQ(got[i].key.ordinal, expected[i].ordinal) << i;
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(std::memcmp(&got[i].impulse[c], &expected[i].impulse[c], sizeof(double)), 0);
      EXPECT_EQ(std::memcmp(&got[i].torque[c], &expected[i].torque[c], sizeof(double)), 0);
    }
  }
}

// A checkpoint of format 7 or before kept the history as text under /engine/contact_history:
// "ranks R", then per entry the rank that held it, the key and the impulse (and a torque
// impulse with rolling resistance) in hexfloats. On as many ranks each takes its own lines;
// on another rank count every rank takes every line, as those versions did.
TEST(HistoryRestore, AnOlderCheckpointsTextHistoryIsReadAsBefore) {
  const comm::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  for (const int writers : {P, P + 1}) {
    std::string text = "ranks " + std::to_string(writers) + "\n";
    for (int w = 0; w < writers; ++w)  // rank w held entry (10 w, 10 w + 1), a torque if w is odd
      text += std::to_string(w) + " " + std::to_string(10 * w) + " " + std::to_string(10 * w + 1) +
              " 0 0x1.8p+0 0x0p+0 -0x1p-2" + (w % 2 ? " 0x1p-3 0x0p+0 0x0p+0" : "") + "\n";
    io::CheckpointState state;
    state.engine["contact_history"] = text;
    timestep::Simulation sim;
    scenario::restore_contact_history(state, sim, comm);
    const std::vector<solver::HistoryEntry> got = sim.contact_history().entries();
    if (writers == P) {
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(got[0].key.first, 10 * comm.rank());
      EXPECT_EQ(got[0].key.second, 10 * comm.rank() + 1);
      EXPECT_EQ(got[0].impulse, Vec3(1.5, 0.0, -0.25));
      EXPECT_EQ(got[0].torque, comm.rank() % 2 ? Vec3(0.125, 0, 0) : Vec3::Zero());
    } else {
      ASSERT_EQ(got.size(), std::size_t(writers));
      for (int w = 0; w < writers; ++w) EXPECT_EQ(got[std::size_t(w)].key.first, 10 * w);
    }
  }
  io::CheckpointState broken;
  broken.engine["contact_history"] = "ranks 1\n0 1 2 0 0x1p+0\n";  // two numbers missing
  timestep::Simulation sim;
  EXPECT_THROW(scenario::restore_contact_history(broken, sim, comm), InputError);
}

}  // namespace
