// Every rank reads the scenario itself: all ranks must resolve it identically, and a bad
// file must be rejected on every rank (so no rank goes on alone and hangs the others).
#include "granite/core/error.hpp"
#include "granite/config/config.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

namespace {

std::string config_path() {
  return std::string(GRANITE_SOURCE_DIR) + "/configs/obstacle_drop.yaml";
}

TEST(ConfigOnRanks, EveryRankResolvesTheSameConfiguration) {
  const std::string text =
      granite::config::to_text(granite::config::load_scenario(config_path(), {}).resolved);
  int length = int(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string root = text;  // rank 0's text after the broadcast
  root.resize(std::size_t(length));
  MPI_Bcast(root.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(text, root);
}

TEST(ConfigOnRanks, BadOverrideIsRejectedOnEveryRank) {
  int rejected = 0;
  try {
    granite::config::load_scenario(config_path(), {"solver.max_sweeps=0"});
  } catch (const granite::InputError&) {
    rejected = 1;
  }
  int everywhere = 0;
  MPI_Allreduce(&rejected, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(everywhere, 1);
}

}  // namespace
