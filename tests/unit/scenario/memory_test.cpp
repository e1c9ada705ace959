// The memory estimate (scenario/memory.hpp): exact counts for a cubic subdomain.
#include "granite/scenario/memory.hpp"

#include <gtest/gtest.h>

namespace granite::scenario {
namespace {

TEST(MemoryEstimate, ParticlesContactsAndGhostsOfACubicSubdomain) {
  const double side = 1.0, halo = 0.1;
  const std::size_t owned = 1000;
  const MemoryEstimate m =
      estimate_memory(owned, Vec3::Zero(), Vec3::Constant(side), halo, true, 6.0);
  EXPECT_DOUBLE_EQ(m.particles, 1000.0 * double(bytes_per_particle()));
  EXPECT_DOUBLE_EQ(m.contacts, 1000.0 * 3.0 * double(bytes_per_contact()));  // 6 / 2 per particle
  // Without warm starting no history entry is counted: an entry holds at least the key (two
  // ids and an ordinal), the impulse and two slots of the index (at most half full).
  const MemoryEstimate cold =
      estimate_memory(owned, Vec3::Zero(), Vec3::Constant(side), halo, false, 6.0);
  EXPECT_GE(m.contacts - cold.contacts, 1000.0 * 3.0 * (8 + 8 + 4 + 24 + 2 * 4));
  // Ghosts: the same density in the shell of width `halo` around the cube: 1.2^3 - 1.
  EXPECT_NEAR(m.ghosts, 1000.0 * (1.2 * 1.2 * 1.2 - 1.0) * double(bytes_per_particle()), 1e-6);
  EXPECT_DOUBLE_EQ(m.total(), m.particles + m.contacts + m.ghosts);  // process 0 here
  // At least position, velocity, angular velocity, orientation and radius per particle.
  EXPECT_GE(bytes_per_particle(), 3 * 24 + 32 + 8u);
}

// The data divides among the ranks, the process before its particles does not: 10 GB of data
// and 1 GB per process under 3 GB per rank fit on ceil(10 / 2) = 5 ranks, not 10 / 3 -> 4.
TEST(MemoryEstimate, RanksThatFitDivideTheDataButNotTheProcess) {
  EXPECT_EQ(ranks_that_fit(10e9, 1e9, 3e9), 5);
  EXPECT_EQ(ranks_that_fit(10e9, 0.0, 3e9), 4);
  EXPECT_EQ(ranks_that_fit(1e3, 1e9, 3e9), 1);
  EXPECT_FALSE(ranks_that_fit(10e9, 3e9, 3e9));  // the process alone fills the limit
}

TEST(MemoryEstimate, PeakResidentSetIsMeasured) {
  EXPECT_GT(peak_resident_bytes(), 1e5);  // any process holds more than 100 kB
  EXPECT_EQ(format_bytes(12.34e6), "12.3 MB");
  EXPECT_EQ(format_bytes(2.5e9), "2.50 GB");
}

}  // namespace
}  // namespace granite::scenario
