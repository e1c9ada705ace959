// Linked cells against the O(N²) reference: the same candidate set within reach, and the
// full detection against brute-force narrow phase on random polydisperse spheres.
#include "granite/collision/detection.hpp"
#include "granite/collision/linked_cells.hpp"
#include "granite/collision/narrow_phase.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace granite;
using namespace granite::collision;

namespace {

using PairSet = std::set<std::pair<std::uint32_t, std::uint32_t>>;

body::Particles random_spheres(std::size_t n, double box, double rmin, double rmax,
                               std::uint32_t seed, body::MaterialTable& materials) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, box), ur(rmin, rmax);
  body::Particles p;
  const auto mat = materials.add({1000.0, 0.3});
  for (std::size_t i = 0; i < n; ++i)
    p.add_sphere(materials, mat, Vec3(u(rng), u(rng), u(rng)), ur(rng));
  return p;
}

}  // namespace

TEST(LinkedCells, SameContactSetAsBruteForce) {
  for (const double threshold : {0.0, 0.02}) {
    body::MaterialTable materials;
    // Dense enough that every sphere has several neighbours (and some overlap).
    const auto p = random_spheres(3000, 1.0, 0.02, 0.05, 11, materials);
    const auto ref = brute_force_pairs(p.position, p.radius, threshold);
    ASSERT_GT(ref.size(), 3000u);

    LinkedCells cells;
    cells.build(p.position, 2 * p.max_radius() + threshold);
    PairSet found;
    std::size_t visits = 0;
    cells.for_each_candidate_pair([&](std::uint32_t a, std::uint32_t b) {
      ++visits;
      ASSERT_NE(a, b);
      const double reach = p.radius[a] + p.radius[b] + threshold;
      if ((p.position[a] - p.position[b]).squaredNorm() <= reach * reach) {
        EXPECT_TRUE(found.emplace(std::min(a, b), std::max(a, b)).second) << "pair twice";
      }
    });
    EXPECT_EQ(found, PairSet(ref.begin(), ref.end()));
    // O(N): far fewer candidates than N²/2.
    EXPECT_LT(visits, 3000u * 3000u / 20u);

    // The full detection reports exactly the reference pairs (no global bodies).
    ContactDetection detection;
    ContactList contacts;
    detection.detect(p, body::GlobalBodies{}, body::ShapeTable{}, threshold, contacts);
    PairSet detected;
    for (std::size_t j = 0; j < contacts.size(); ++j) {
      EXPECT_LT(contacts.body1[j], contacts.body2[j]);
      EXPECT_LE(contacts.gap[j], threshold);
      detected.emplace(contacts.body1[j], contacts.body2[j]);
      const Vec3 d = p.position[contacts.body1[j]] - p.position[contacts.body2[j]];
      EXPECT_NEAR(contacts.normal[j].dot(d.normalized()), 1.0, 1e-12);
    }
    EXPECT_EQ(detected, PairSet(ref.begin(), ref.end()));
  }
}

// The ranges visit every candidate pair of for_each_candidate_pair exactly once, in grids with
// one cell along some axes (the rows' ends), and nothing else.
TEST(LinkedCells, RangesVisitTheCandidatePairsOnce) {
  std::mt19937 rng(3);
  for (const Vec3& box :
       {Vec3(1.0, 1.0, 1.0), Vec3(1.0, 0.05, 1.0), Vec3(0.05, 1.0, 0.05), Vec3(0.05, 0.05, 0.05)}) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<Vec3> x(2000);
    for (Vec3& xi : x) xi = box.cwiseProduct(Vec3(u(rng), u(rng), u(rng)));
    LinkedCells cells;
    cells.build(x, 0.1);
    std::multiset<std::pair<std::uint32_t, std::uint32_t>> pairs, ranged;
    cells.for_each_candidate_pair(
        [&](std::uint32_t a, std::uint32_t b) { pairs.emplace(std::min(a, b), std::max(a, b)); });
    const auto& order = cells.sorted();
    cells.for_each_candidate_range([&](std::uint32_t p, std::uint32_t begin, std::uint32_t end) {
      for (std::uint32_t q = begin; q < end; ++q)
        ranged.emplace(std::min(order[p], order[q]), std::max(order[p], order[q]));
    });
    EXPECT_EQ(ranged, pairs) << box.transpose();
    EXPECT_GT(pairs.size(), 2000u);
  }
}

TEST(LinkedCells, SparseSystemKeepsGridSmall) {
  // Two clusters very far apart: the grid must not allocate (distance / cell)^3 cells.
  std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(0.5, 0, 0), Vec3(1e4, 1e4, 1e4),
                         Vec3(1e4 + 0.5, 1e4, 1e4)};
  LinkedCells cells;
  cells.build(x, 1.0);
  EXPECT_LE(cells.dims()[0] * cells.dims()[1] * cells.dims()[2], 2 * 4 + 27);
  PairSet found;
  cells.for_each_candidate_pair([&](std::uint32_t a, std::uint32_t b) {
    if ((x[a] - x[b]).norm() <= 1.0) found.emplace(std::min(a, b), std::max(a, b));
  });
  EXPECT_EQ(found, (PairSet{{0, 1}, {2, 3}}));
}

TEST(Detection, GlobalBodiesAndFriction) {
  body::MaterialTable materials;
  const auto grain = materials.add({2650.0, 0.5});
  const auto wall = materials.add({7800.0, 0.2});
  body::Particles p;
  p.add_sphere(materials, grain, Vec3(0, 0, 0.09), 0.1);  // on the floor, penetrating 0.01
  p.add_sphere(materials, grain, Vec3(0, 0, 0.5), 0.1);   // free
  body::GlobalBodies globals;
  globals.add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, wall);
  ContactDetection detection;
  ContactList contacts;
  detection.detect(p, globals, body::ShapeTable{}, 0.0, contacts);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts.body1[0], 0u);
  EXPECT_TRUE(contacts.involves_global(0));
  EXPECT_EQ(contacts.global_index(0), 0u);
  EXPECT_NEAR(contacts.gap[0], -0.01, 1e-15);
  // μ is the pair's (the minimum: MaterialTable::pair_friction), taken by the setup
  // (SetupContacts.FrictionIsThePairsOfMaterials).
  EXPECT_DOUBLE_EQ(materials.pair_friction(grain, wall), 0.2);
  // Closing contacts: the pair has gap 0.21, the free sphere's floor contact gap 0.4.
  detection.detect(p, globals, body::ShapeTable{}, 0.2, contacts);
  EXPECT_EQ(contacts.size(), 1u);
  detection.detect(p, globals, body::ShapeTable{}, 0.25, contacts);
  EXPECT_EQ(contacts.size(), 2u);
  detection.detect(p, globals, body::ShapeTable{}, 0.41, contacts);
  EXPECT_EQ(contacts.size(), 3u);
}
