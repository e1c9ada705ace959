// The pour (scenario/pour.hpp): the target count or mass over the window, insertion without
// overlap (1e-12 m) among the new spheres, the existing ones and the global bodies, a backlog
// that waits when the region is full, and a state that continues exactly.
#include "granite/scenario/sources/pour.hpp"

#include "granite/core/error.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using granite::Vec3;
using granite::scenario::Sphere;

granite::config::PourSettings box_pour() {
  granite::config::PourSettings s;
  s.region.min = Vec3(0, 0, 0);
  s.region.max = Vec3(0.01, 0.01, 0.004);
  s.rate = 1000.0;
  s.start = 0.1;
  s.end = 0.2;
  s.size = granite::config::fixed_size(0.5e-3);
  s.attempts = 100;
  return s;
}

granite::body::MaterialTable glass() {
  granite::body::MaterialTable m;
  m.add({2500.0, 0.4});
  return m;
}

double worst_overlap(const std::vector<Sphere>& a, const std::vector<Sphere>& b) {
  double worst = -1.0;
  for (const Sphere& p : a)
    for (const Sphere& q : b)
      if (p.id != q.id) worst = std::max(worst, p.radius + q.radius - (p.centre - q.centre).norm());
  return worst;
}

TEST(Pour, TargetCountOverTheWindow) {
  const granite::scenario::Pour pour(box_pour(), 0, 1);
  EXPECT_EQ(pour.target(0.05), 0.0);
  EXPECT_EQ(pour.target(0.15), 50.0);
  EXPECT_EQ(pour.target(0.3), 100.0);
  EXPECT_FALSE(pour.due(0.05));
  EXPECT_TRUE(pour.due(0.1011));
}

TEST(Pour, InsertsWhatIsDueWithoutOverlap) {
  granite::scenario::Pour pour(box_pour(), 1000, 3);
  granite::body::GlobalBodies bodies;
  bodies.add(granite::body::HalfSpace{Vec3(0, 0, 0.001), Vec3::UnitZ()}, 0);  // a floor in it
  const std::vector<Sphere> existing = {{Vec3(0.005, 0.005, 0.002), 1e-3, 0, 7}};
  const auto placed = pour.insert(0.13, 1300, glass(), bodies, existing);
  ASSERT_EQ(placed.size(), 30u);
  EXPECT_EQ(pour.inserted(), 30u);
  EXPECT_EQ(placed.front().id, 1000);
  EXPECT_LE(worst_overlap(placed, placed), 1e-12);
  EXPECT_LE(worst_overlap(placed, existing), 1e-12);
  for (const Sphere& p : placed) {
    EXPECT_GE(p.centre[2] - 0.001, p.radius);  // above the floor
    EXPECT_GE((p.centre - box_pour().region.min).minCoeff(), p.radius);
    EXPECT_GE((box_pour().region.max - p.centre).minCoeff(), p.radius);
  }
  const double mass = 30 * 2500.0 * 4.0 / 3.0 * M_PI * 1.25e-10;
  EXPECT_NEAR(pour.inserted_mass(), mass, 1e-12 * mass);
}

TEST(Pour, AFullRegionLeavesABacklogThatWaits) {
  auto s = box_pour();
  s.rate = 1e6;  // 10^5 due by t = 0.2, far more than fit
  granite::scenario::Pour pour(s, 0, 3);
  const auto placed = pour.insert(0.2, 2000, glass(), {}, {});
  EXPECT_LT(placed.size(), 400u);  // 0.4 cm^3 holds < 0.384 * 4e-7 / 5.24e-10 = 293 spheres
  EXPECT_GT(placed.size(), 100u);
  EXPECT_TRUE(pour.due(0.2));
  EXPECT_LE(worst_overlap(placed, placed), 1e-12);
  // Against the same particles nothing more fits in a few tries per sphere: the rest waits.
  const auto more = pour.insert(0.2, 2001, glass(), {}, placed);
  EXPECT_LE(worst_overlap(more, placed), 1e-12);
  EXPECT_LT(pour.inserted(), 100000u);
}

TEST(Pour, MassRateInsertsTheMassWithinOneParticle) {
  auto s = box_pour();
  s.rate = 0.0;
  s.mass_rate = 1e-4;  // kg/s: 5e-6 kg by t = 0.15, ~3.8 spheres of 1.31e-6 kg
  granite::scenario::Pour pour(s, 0, 3);
  pour.insert(0.15, 1500, glass(), {}, {});
  const double m = 2500.0 * 4.0 / 3.0 * M_PI * 1.25e-10;
  EXPECT_GE(pour.inserted_mass(), 5e-6);
  EXPECT_LT(pour.inserted_mass(), 5e-6 + m);
  EXPECT_EQ(pour.inserted(), 4u);
}

TEST(Pour, StateContinuesExactly) {
  granite::scenario::Pour a(box_pour(), 0, 9), b(box_pour(), 0, 9);
  a.insert(0.12, 1200, glass(), {}, {});
  b.restore(a.state());
  EXPECT_EQ(b.state(), a.state());
  const auto next_a = a.insert(0.14, 1400, glass(), {}, {});
  const auto next_b = b.insert(0.14, 1400, glass(), {}, {});
  ASSERT_EQ(next_a.size(), next_b.size());
  for (std::size_t k = 0; k < next_a.size(); ++k) {
    EXPECT_EQ(next_a[k].id, next_b[k].id);
    EXPECT_EQ(next_a[k].centre, next_b[k].centre);
  }
  EXPECT_EQ(a.velocity(5), b.velocity(5));
  EXPECT_THROW(b.restore("12 nonsense"), granite::InputError);
}

}  // namespace
