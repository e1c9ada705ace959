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

// With the load's extent (a settled bed 4.6 mm deep in configs/brick_pile.yaml's 25 x 25 x
// 80 mm box), the cut area is the load's: 2 ranks cut across the bed (1 x 25 x 4.6 mm^2)
// instead of the domain's long z (625 mm^2). The ghost width is still judged on the domain.
TEST(ChooseDims, MinimisesTheLoadsCutAreaUnderTheDomainsGhostRule) {
  const Vec3 box(0.025, 0.025, 0.08), bed(0.025, 0.025, 0.0046);
  EXPECT_EQ(choose_dims(2, box), (Int3{1, 1, 2}));
  EXPECT_EQ(choose_dims(2, box, {0, 0, 0}, {}, {}, bed), (Int3{1, 2, 1}));
  EXPECT_EQ(choose_dims(8, box, {0, 0, 0}, {}, {}, bed), (Int3{2, 4, 1}));
  // Columns 12.5 mm wide cannot hold a 13 mm ghost width: the bed's counts give way to z.
  EXPECT_EQ(choose_dims(2, box, {0, 0, 0}, GhostWidth{0.0065, 0.0}, {}, bed), (Int3{1, 1, 2}));
  // The load's extent equal to the domain's changes nothing.
  EXPECT_EQ(choose_dims(12, box, {0, 0, 0}, {}, {}, box), choose_dims(12, box));
}

TEST(ChooseDims, HonoursRequestedCountsOrRejectsThem) {
  EXPECT_EQ(choose_dims(12, Vec3(2, 1, 1), {0, 0, 1}), (Int3{4, 3, 1}));
  EXPECT_THROW(choose_dims(6, Vec3(1, 1, 1), {4, 0, 0}), InputError);
}

// Issue 23, item 1: contacts reach 2 r_max + threshold from a centre and the ghosts come from
// the nearest neighbours only, so no cut axis may have subdomains thinner than that.
TEST(ChooseDims, NeverCutsThinnerThanTheGhostWidth) {
  // 12 ranks on 15 x 25 x 35 mm: the minimum cut surface is [2, 2, 3] (2150 mm^2), whose
  // subdomains are 7.5 mm wide along x; [1, 3, 4] (2175 mm^2) is 8.33 mm along y and 8.75 mm
  // along z, the only factorisation at least 8 mm wide along every cut axis.
  const Vec3 box(0.015, 0.025, 0.035);
  EXPECT_EQ(choose_dims(12, box), (Int3{2, 2, 3}));
  EXPECT_EQ(choose_dims(12, box, {0, 0, 0}, GhostWidth{0.00395, 1e-4}), (Int3{1, 3, 4}));
  // A ghost width no factorisation holds: refused.
  EXPECT_THROW(choose_dims(12, box, {0, 0, 0}, GhostWidth{0.0045, 1e-4}), InputError);
  // Issue 23's two spheres (r = 5.5 mm, threshold 0.1 mm: 11.1 mm) in 30 x 20 x 20 mm:
  // 2 ranks cut x (15 mm); no factorisation of 3 holds (10 mm, 6.7 mm, 6.7 mm).
  const GhostWidth two_spheres{0.0055, 1e-4};
  EXPECT_EQ(choose_dims(2, Vec3(0.03, 0.02, 0.02), {0, 0, 0}, two_spheres), (Int3{2, 1, 1}));
  EXPECT_THROW(choose_dims(3, Vec3(0.03, 0.02, 0.02), {0, 0, 0}, two_spheres), InputError);
}

TEST(ChooseDims, RefusesAThinDecompositionNamingAxisWidthAndGhostWidth) {
  const Vec3 box(0.03, 0.02, 0.02);
  const GhostWidth ghost{0.0055, 1e-4};
  try {
    choose_dims(3, box, {3, 1, 1}, ghost);
    FAIL() << "a decomposition with 10 mm subdomains and an 11.1 mm ghost width was accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "domain.decomposition [3, 1, 1] on 3 ranks: the subdomains are 0.01 m wide along "
                 "x, thinner than the ghost width 0.0111 m (2 × largest radius 0.0055 m + "
                 "contact.threshold 0.0001 m) that contacts across subdomains need; choose fewer "
                 "subdomains along that axis");
  }
  // Exactly the ghost width holds (a contact partner at distance w is in the next subdomain).
  EXPECT_EQ(choose_dims(3, Vec3(0.0333, 0.02, 0.02), {3, 1, 1}, GhostWidth{0.00555, 0.0}),
            (Int3{3, 1, 1}));
  // A periodic axis with one subdomain is its own neighbour: it must hold the width too.
  EXPECT_EQ(too_thin(Vec3(0.03, 0.01, 0.02), {1, 1, 1}, {false, false, false}, ghost), "");
  EXPECT_NE(too_thin(Vec3(0.03, 0.01, 0.02), {1, 1, 1}, {false, true, false}, ghost)
                .find("0.01 m wide along y"),
            std::string::npos);
  const Decomposition d({Vec3::Zero(), box}, {3, 1, 1}, {false, false, false});
  EXPECT_NE(d.too_thin(ghost), "");
  EXPECT_EQ(d.too_thin(GhostWidth{0.004, 1e-4}), "");
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
