// Load balance geometry (parallel/balance.hpp, Decomposition's movable cuts): cuts at the
// weight quantiles, the minimum subdomain width, ownership and subdomains under moved cuts.
#include "granite/parallel/balance.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <stdexcept>

namespace {

using namespace granite;
using namespace granite::parallel;

TEST(CutsFromHistogram, AnEvenHistogramGivesTheEqualCuts) {
  const std::vector<std::uint64_t> even(400, 3);
  const std::vector<double> cuts = cuts_from_histogram(even, 1.0, 5.0, 4, 0.1);
  ASSERT_EQ(cuts.size(), 5u);
  for (int k = 0; k <= 4; ++k) EXPECT_NEAR(cuts[std::size_t(k)], 1.0 + k, 1e-12);
  EXPECT_EQ(cuts.front(), 1.0);
  EXPECT_EQ(cuts.back(), 5.0);
}

TEST(CutsFromHistogram, CutsAreTheWeightQuantilesInterpolatedInsideABin) {
  // All the weight evenly in the first quarter [0, 1) of [0, 4): the cuts of 4 parts at 0.25,
  // 0.5, 0.75 (exact: 100 bins of 0.01 each, the quantiles fall on bin edges or inside).
  std::vector<std::uint64_t> h(400, 0);
  for (std::size_t b = 0; b < 100; ++b) h[b] = 7;
  const std::vector<double> cuts = cuts_from_histogram(h, 0.0, 4.0, 4, 0.01);
  EXPECT_NEAR(cuts[1], 0.25, 1e-12);
  EXPECT_NEAR(cuts[2], 0.50, 1e-12);
  EXPECT_NEAR(cuts[3], 0.75, 1e-12);
  // One heavy bin [0.5, 0.51) holding everything: 2 parts cut it in the middle (linear).
  std::vector<std::uint64_t> one(400, 0);
  one[50] = 10;
  EXPECT_NEAR(cuts_from_histogram(one, 0.0, 4.0, 2, 0.01)[1], 0.505, 1e-12);
}

TEST(CutsFromHistogram, EverySlabIsAtLeastTheMinimumWidth) {
  // Everything in the first bin: the quantile cuts would all be near 0; with min width 0.5 the
  // slabs are pushed to exactly 0.5 wide from below, the last one takes the rest.
  std::vector<std::uint64_t> h(1000, 0);
  h[0] = 1000;
  const std::vector<double> cuts = cuts_from_histogram(h, 0.0, 10.0, 4, 0.5);
  for (int k = 1; k <= 4; ++k) EXPECT_GE(cuts[std::size_t(k)] - cuts[std::size_t(k) - 1], 0.5);
  EXPECT_NEAR(cuts[3], 1.5, 1e-8);
  EXPECT_EQ(cuts[4], 10.0);
  // Everything in the last bin: pushed down from above.
  std::vector<std::uint64_t> top(1000, 0);
  top[999] = 5;
  const std::vector<double> down = cuts_from_histogram(top, 0.0, 10.0, 4, 0.5);
  for (int k = 1; k <= 4; ++k) EXPECT_GE(down[std::size_t(k)] - down[std::size_t(k) - 1], 0.5);
  EXPECT_NEAR(down[1], 8.5, 1e-8);
}

TEST(CutsFromHistogram, EqualCutsWhenNothingToBalanceOrNoRoom) {
  std::vector<std::uint64_t> empty(100, 0), h(100, 0);
  h[3] = 9;
  EXPECT_EQ(cuts_from_histogram(empty, 0.0, 3.0, 3, 0.1),
            (std::vector<double>{0.0, 1.0, 2.0, 3.0}));
  // 3 slabs of at least 1.01 do not fit in 3: the equal cuts (which a run then refuses as too
  // thin, as without balance).
  EXPECT_EQ(cuts_from_histogram(h, 0.0, 3.0, 3, 1.01), (std::vector<double>{0.0, 1.0, 2.0, 3.0}));
}

// Moves every inner cut of d by a random amount in [−0.2, 0.2] (the domain's faces stay).
void jitter_inner_cuts(Decomposition& d, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  Cuts cuts = d.cuts();
  for (int a = 0; a < 3; ++a)
    for (std::size_t k = 0; k < cuts[a].size(); ++k) {
      const std::size_t n = std::size_t(d.dims()[a]) + 1;
      if (k % n != 0 && k % n != n - 1) cuts[a][k] += jitter(rng);
    }
  d.set_cuts(cuts);
}

TEST(DecompositionCuts, OwnershipSubdomainsThinnessAndNeighboursFollowTheNestedCuts) {
  Decomposition d({Vec3(0, 0, 0), Vec3(4, 2, 1)}, {3, 2, 1}, {false, false, false});
  EXPECT_TRUE(d.uniform());
  Cuts cuts = d.cuts();
  cuts[0] = {0.0, 0.5, 1.0, 4.0};
  cuts[1] = {0.0, 1.5, 2.0, /* x-slab 1 */ 0.0, 0.5, 2.0, /* x-slab 2 */ 0.0, 0.6, 2.0};
  d.set_cuts(cuts);
  EXPECT_FALSE(d.uniform());
  EXPECT_EQ(d.owner_of(Vec3(0.49, 1.4, 0.5)), d.rank_of({0, 0, 0}));
  EXPECT_EQ(d.owner_of(Vec3(0.5, 0.5, 0.5)), d.rank_of({1, 1, 0}));  // faces: upper subdomain
  EXPECT_EQ(d.owner_of(Vec3(3.9, 0.59, 0.5)), d.rank_of({2, 0, 0}));
  EXPECT_EQ(d.owner_of(Vec3(-1.0, 9.0, 0.5)), d.rank_of({0, 1, 0}));  // outside: the nearest
  const Box b = d.subdomain(d.rank_of({1, 1, 0}));
  EXPECT_EQ(b.min, Vec3(0.5, 0.5, 0.0));
  EXPECT_EQ(b.max, Vec3(1.0, 2.0, 1.0));
  // The thinnest slab counts: 0.5 wide along x and along y (x-slab 1's lower box).
  EXPECT_NE(d.too_thin(GhostWidth{0.26, 0.0, 0.0}), "");
  EXPECT_EQ(d.too_thin(GhostWidth{0.25, 0.0, 0.0}), "");
  // Neighbours of (1, 0, 0) = [0.5, 1] x [0, 0.5]: the boxes it touches, and (2, 1, 0) =
  // [1, 4] x [0.6, 2], 0.1 away (closer than the thinnest subdomain, 0.5), but not
  // (0, 1, 0) = [0, 0.5] x [1.5, 2], 1.0 away.
  std::vector<int> ranks = d.neighbour_ranks(d.rank_of({1, 0, 0}));
  EXPECT_EQ(ranks, (std::vector<int>{d.rank_of({0, 0, 0}), d.rank_of({2, 0, 0}),
                                     d.rank_of({1, 1, 0}), d.rank_of({2, 1, 0})}));
}

TEST(DecompositionCuts, NeighboursAreMutualWithOppositeShifts) {
  // Random nested cuts on a grid periodic along x and z: B is a neighbour of A with shift s
  // exactly when A is one of B with shift -s.
  Decomposition d({Vec3(0, 0, 0), Vec3(3, 2, 2)}, {3, 2, 2}, {true, false, true});
  std::mt19937_64 rng(5);
  jitter_inner_cuts(d, rng);
  std::size_t pairs = 0;
  for (int r = 0; r < d.size(); ++r)
    for (const Neighbour& n : d.neighbours(r)) {
      bool mutual = false;
      for (const Neighbour& m : d.neighbours(n.rank))
        mutual = mutual || (m.rank == r && (m.shift + n.shift).norm() == 0.0);
      EXPECT_TRUE(mutual) << r << " -> " << n.rank;
      ++pairs;
    }
  EXPECT_GT(pairs, std::size_t(d.size()) * 5);
}

TEST(DecompositionCuts, RefusesCutsThatDoNotSpanTheDomainInOrder) {
  Decomposition d({Vec3(0, 0, 0), Vec3(4, 2, 1)}, {2, 2, 1}, {false, false, false});
  const Cuts good = d.cuts();
  Cuts cuts = good;
  cuts[0] = {0.0, 3.0};  // too few
  EXPECT_THROW(d.set_cuts(cuts), std::invalid_argument);
  cuts[0] = {0.0, 4.5, 4.0};  // not increasing
  EXPECT_THROW(d.set_cuts(cuts), std::invalid_argument);
  cuts[0] = {0.1, 2.0, 4.0};  // not from the face
  EXPECT_THROW(d.set_cuts(cuts), std::invalid_argument);
  cuts = good;
  cuts[1].resize(3);  // one run of y-cuts where there are two x-slabs
  EXPECT_THROW(d.set_cuts(cuts), std::invalid_argument);
  EXPECT_NO_THROW(d.set_cuts(good));
}

TEST(MaxOverMean, IsOneForAnEvenLoadAndRanksForOneLoadedRank) {
  EXPECT_DOUBLE_EQ(max_over_mean({5, 5, 5, 5}), 1.0);
  EXPECT_DOUBLE_EQ(max_over_mean({0, 0, 12, 0}), 4.0);
  EXPECT_DOUBLE_EQ(max_over_mean({0, 0}), 1.0);
}

// Over 3 sweeps an open contact's work is 3 kVisitNs = 30 ns, a closed one's 3 (kVisitNs +
// kClosedNs) = 108 ns; a contact of two particles gives each half (the ghost's half stays
// with the ghost's owner, which relaxes none of it), one with a global body gives all.
TEST(WorkWeights, EachParticlesShareOfItsContactsVisitsAndClosedUpdates) {
  collision::ContactList c;
  c.num_particles = 4;  // owned 0-2, one ghost (3); global bodies from index 4
  c.body1 = {0, 0, 1, 2};
  c.body2 = {1, 3, 4, 5};
  c.gap.assign(4, 0.0);
  const std::vector<Vec3> impulses = {Vec3(1e-6, 0, 0), Vec3::Zero(), Vec3(0, 0, 2e-7),
                                      Vec3::Zero()};
  ASSERT_EQ(kVisitNs, 10u);
  ASSERT_EQ(kClosedNs, 26u);
  const std::uint64_t p = kParticleNs;
  EXPECT_EQ(work_weights(c, impulses, 3, 3),
            (std::vector<std::uint64_t>{p + 54 + 15, p + 54 + 108, p + 30}));
  EXPECT_EQ(work_weights(c, impulses, 0, 3), (std::vector<std::uint64_t>{p, p, p}));
}

}  // namespace

// reach(rank, m): the subdomain grown by m, unbounded beyond the domain on non-periodic axes;
// lowest_rank_reaching(box, m): the least rank whose reach intersects the box, against every
// rank tried in turn, on random nested cuts periodic along x only, for random boxes inside,
// across and outside the domain (−1 where none reaches: beyond a periodic face).
TEST(DecompositionCuts, LowestRankReachingMatchesEveryRankTried) {
  Decomposition d({Vec3(0, 0, 0), Vec3(3, 2, 2)}, {3, 2, 2}, {true, false, false});
  std::mt19937_64 rng(11);
  jitter_inner_cuts(d, rng);
  std::uniform_real_distribution<double> corner(-1.0, 4.0), size(0.0, 0.6);
  const double m = 0.15;
  for (int r = 0; r < d.size(); ++r) {
    const Box s = d.subdomain(r), reach = d.reach(r, m);
    const Int3 c = d.coords(r);
    EXPECT_EQ(reach.min.x(), s.min.x() - m);  // periodic: bounded
    EXPECT_EQ(reach.max.x(), s.max.x() + m);
    for (int a : {1, 2}) {
      EXPECT_EQ(reach.min[a], c[a] == 0 ? -std::numeric_limits<double>::infinity() : s.min[a] - m);
      EXPECT_EQ(reach.max[a],
                c[a] == d.dims()[a] - 1 ? std::numeric_limits<double>::infinity() : s.max[a] + m);
    }
  }
  int none = 0, several = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    Box box;
    for (int a = 0; a < 3; ++a) {
      box.min[a] = corner(rng);
      box.max[a] = box.min[a] + size(rng);
    }
    int expected = -1, reaching = 0;
    for (int r = 0; r < d.size(); ++r) {
      const Box reach = d.reach(r, m);
      if ((reach.min.array() <= box.max.array()).all() &&
          (box.min.array() <= reach.max.array()).all()) {
        ++reaching;
        if (expected < 0) expected = r;
      }
    }
    none += expected < 0;
    several += reaching > 1;
    EXPECT_EQ(d.lowest_rank_reaching(box, m), expected) << "trial " << trial;
  }
  EXPECT_GT(none, 100);  // both cases occur
  EXPECT_GT(several, 100);
}
