// Decomposition geometry: rank arithmetic, ownership, periodic wrapping, neighbour lists and
// the automatic choice of subdomain counts.
#include "granite/core/error.hpp"
#include "granite/parallel/decomposition.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace {

using namespace granite;
using namespace granite::parallel;

TEST(ChooseDims, MinimisesCutSurface) {
  EXPECT_EQ(choose_dims(8, Vec3(1, 1, 1)), (Int3{2, 2, 2}));
  EXPECT_EQ(choose_dims(4, Vec3(4, 1, 1)), (Int3{4, 1, 1}));
  EXPECT_EQ(choose_dims(6, Vec3(3, 2, 1)), (Int3{3, 2, 1}));
  EXPECT_EQ(choose_dims(7, Vec3(1, 1, 1))[0] * choose_dims(7, Vec3(1, 1, 1))[1] *
                choose_dims(7, Vec3(1, 1, 1))[2],
            7);
  // The paper's channel (15 x 6.5 x 2 cm) on 640 ranks: the minimum-surface grid, whose
  // surface is no larger than that of the paper's 16 x 10 x 4.
  const Vec3 channel(0.15, 0.065, 0.02);
  const Int3 d = choose_dims(640, channel);
  auto surface = [&](const Int3& p) {
    return (p[0] - 1) * channel[1] * channel[2] + (p[1] - 1) * channel[0] * channel[2] +
           (p[2] - 1) * channel[0] * channel[1];
  };
  EXPECT_EQ(d[0] * d[1] * d[2], 640);
  EXPECT_LE(surface(d), surface({16, 10, 4}) + 1e-15);
}

TEST(ChooseDims, HonoursRequestedCountsOrRejectsThem) {
  EXPECT_EQ(choose_dims(12, Vec3(2, 1, 1), {0, 0, 1}), (Int3{4, 3, 1}));
  EXPECT_THROW(choose_dims(6, Vec3(1, 1, 1), {4, 0, 0}), InputError);
}

TEST(Decomposition, OwnerIsTheSubdomainContainingThePoint) {
  const Decomposition d({Vec3(0, 0, 0), Vec3(3, 2, 1)}, {3, 2, 2}, {false, false, false});
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 1000; ++k) {
    const Vec3 x(3 * u(rng), 2 * u(rng), u(rng));
    const int r = d.owner_of(x);
    ASSERT_GE(r, 0);
    ASSERT_LT(r, d.size());
    EXPECT_EQ(d.subdomain(r).distance(x), 0.0);
    EXPECT_EQ(d.rank_of(d.coords(r)), r);
  }
  // Outside the domain: the nearest subdomain.
  EXPECT_EQ(d.owner_of(Vec3(-0.1, 0.5, 0.5)), d.owner_of(Vec3(0.0, 0.5, 0.5)));
  EXPECT_EQ(d.owner_of(Vec3(1.5, 5.0, -3.0)), d.owner_of(Vec3(1.5, 2.0, 0.0)));
  EXPECT_EQ(d.owner_of(Vec3(3.0, 2.0, 1.0)), d.size() - 1);  // the upper faces belong to the domain
}

TEST(Decomposition, PeriodicWrapAndOwnership) {
  const Decomposition d({Vec3(0, 0, 0), Vec3(2, 1, 1)}, {2, 1, 1}, {true, false, false});
  EXPECT_TRUE(d.wrap(Vec3(2.5, 0.5, 0.5)).isApprox(Vec3(0.5, 0.5, 0.5)));
  EXPECT_TRUE(d.wrap(Vec3(-0.25, 0.5, 0.5)).isApprox(Vec3(1.75, 0.5, 0.5)));
  EXPECT_TRUE(d.wrap(Vec3(6.25, 0.5, 0.5)).isApprox(Vec3(0.25, 0.5, 0.5)));
  EXPECT_EQ(d.owner_of(Vec3(-0.25, 0.5, 0.5)), 1);
  EXPECT_EQ(d.owner_of(Vec3(0.5, 1.5, 0.5)), 0);  // y is not periodic: nearest subdomain
}

TEST(Decomposition, NeighbourCounts) {
  const Decomposition interior({Vec3(0, 0, 0), Vec3(3, 3, 3)}, {3, 3, 3}, {false, false, false});
  EXPECT_EQ(interior.neighbours(interior.rank_of({1, 1, 1})).size(), 26u);
  EXPECT_EQ(interior.neighbours(interior.rank_of({0, 0, 0})).size(), 7u);
  EXPECT_EQ(interior.neighbours(interior.rank_of({1, 0, 0})).size(), 11u);

  // One subdomain, periodic in x only: two images of itself, shifted by -/+ the length.
  const Decomposition single({Vec3(0, 0, 0), Vec3(2, 1, 1)}, {1, 1, 1}, {true, false, false});
  const auto n = single.neighbours(0);
  ASSERT_EQ(n.size(), 2u);
  std::set<double> shifts;
  for (const auto& k : n) {
    EXPECT_EQ(k.rank, 0);
    shifts.insert(k.shift[0]);
    // The image box lies next to the domain: the shift moves it back onto the subdomain.
    EXPECT_TRUE((k.box.min + k.shift).isApprox(Vec3(0, 0, 0)));
  }
  EXPECT_EQ(shifts, (std::set<double>{-2.0, 2.0}));
}

}  // namespace
