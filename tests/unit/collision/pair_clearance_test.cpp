// Pairs of polyhedra proven apart are skipped while the bodies' travel keeps them apart
// (collision/pair_clearance.hpp): the detection from a neighbour list then finds exactly the
// contacts of a full search, step by step, for a box turning in place towards another (the
// rotation's share of the travel: a bound by translation alone would skip the step of first
// contact) and for a gas of bricks and spheres falling, spinning, deleted now and then (the list
// remapped) and sorted for locality at each build (the records followed by id).
#include "granite/collision/detection.hpp"
#include "granite/collision/neighbour_list.hpp"
#include "granite/timestep/simulation.hpp"

#include "../../support/full_search_audit.hpp"
#include "../../support/random_rotation.hpp"
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

using namespace granite;
using namespace granite::collision;

using test_support::keyed_gaps;

TEST(PairClearance, ABoxTurningInPlaceTowardsAnotherIsTestedAgainBeforeTheyTouch) {
  // Box A (half extents 1, 0.2, 0.2) at the origin turns about z by 1° a step; box B lies
  // across its path with its lower face at y = 1. A's edge through (1, 0.2) rises to y = sin θ
  // + 0.2 cos θ, within the threshold of B's face from about 65°: its centre does not move, so
  // only the rotation's share of the travel (2 sin(0.5°) · 1.04 a step) brings the pair back
  // to the narrow phase in time.
  body::MaterialTable materials;
  const auto glass = materials.add({2500.0, 0.5});
  body::ShapeTable shapes;
  const auto bar = shapes.add_box("bar", Vec3(1.0, 0.2, 0.2));
  body::Particles p;
  p.add_shaped(materials, shapes, bar, glass, Vec3::Zero(), Quat::Identity());
  p.add_shaped(materials, shapes, bar, glass, Vec3(0.0, 1.2, 0.0), Quat::Identity());
  const double threshold = 0.01;
  NeighbourList list;
  list.build(p, p.size(), {}, threshold, 0.1);
  ContactDetection candidates, full;
  ContactList a, b;
  int first_contact = -1, expected = -1;
  for (int step = 0; step <= 75; ++step) {
    const double theta = step * std::numbers::pi / 180.0;
    if (expected < 0 && std::sin(theta) + 0.2 * std::cos(theta) >= 1.0 - threshold) expected = step;
    p.orientation[0] = Quat(Eigen::AngleAxisd(step * std::numbers::pi / 180.0, Vec3::UnitZ()));
    ASSERT_FALSE(list.stale(p, p.size()));
    candidates.detect(list, p, {}, shapes, threshold, a);
    full.detect(p, {}, shapes, threshold, b);
    ASSERT_EQ(keyed_gaps(a, p), keyed_gaps(b, p)) << "step " << step;
    if (first_contact < 0 && b.size() > 0) first_contact = step;
  }
  ASSERT_GT(expected, 60);
  EXPECT_EQ(first_contact, expected) << "the edge reaches B's face within the threshold";
  // Apart by 0.8 at the start and by less at every test, the pair is skipped for at most
  // 0.8 / 0.018 = 44 steps: most of the way, but tested again more often as it nears B.
  EXPECT_GT(candidates.pairs_skipped(), 30u);
  EXPECT_GT(candidates.pairs_tested(), 5u);
}

TEST(PairClearance, SpinningBricksAndSpheresWithASkinFindTheContactsOfAFullSearchEveryStep) {
  timestep::Simulation sim;
  auto& par = sim.parameters();
  par.dt = 2e-4;
  par.gravity = {0, 0, -9.81};
  par.contact_threshold = 1e-4;
  par.max_sweeps = 10;
  par.skin = 1.2e-3;
  ASSERT_TRUE(par.locality_sort);
  const auto glass = sim.materials().add({2650.0, 0.3});
  const auto brick = sim.shapes().add_box("brick", Vec3(1.2e-3, 0.6e-3, 0.35e-3));
  const double L = 0.04;
  for (int a = 0; a < 3; ++a) {
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::Unit(a)}, glass);
    sim.globals().add(body::HalfSpace{Vec3::Constant(L), -Vec3::Unit(a)}, glass);
  }
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const double spacing = 3e-3;  // bounding diameter 2.8 mm
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      for (int k = 0; k < 6; ++k) {
        const Vec3 x(0.005 + i * spacing, 0.005 + j * spacing, 0.003 + k * spacing);
        if ((i + j + k) % 3 == 0)  // spheres among them: their pairs are never skipped
          sim.particles().add_sphere(sim.materials(), glass, x, 1.0e-3, Vec3(u(rng), u(rng), 0.0));
        else
          sim.particles().add_shaped(sim.materials(), sim.shapes(), brick, glass, x,
                                     test_support::random_quaternion(rng),
                                     Vec3(u(rng), u(rng), u(rng)));
        sim.particles().angular_velocity.back() = 100.0 * Vec3(u(rng), u(rng), u(rng));
      }
  test_support::FullSearchAudit audit(sim);
  std::size_t deleted = 0;
  const int steps = 200;
  for (int s = 0; s < steps; ++s) {
    sim.step();
    if (s % 5 == 2)  // the list survives a deletion, remapped
      deleted += sim.remove_particles(
          [s](const body::Particles& p, std::size_t i) { return i == std::size_t(s) % p.size(); });
  }
  EXPECT_EQ(deleted, std::size_t(steps / 5));
  EXPECT_EQ(audit.mismatches, 0u) << "steps whose contacts differ from a full search";
  EXPECT_GT(audit.contacts, std::size_t(steps) * 100) << "too few contacts: test too weak";
  EXPECT_GT(sim.rebuilds(), 3u) << "the records were never followed through a new list";
  const double skipped = double(sim.detection().pairs_skipped());
  // (tested: every candidate within reach, the spheres' pairs too, about a third of them)
  EXPECT_GT(skipped, 0.1 * double(sim.detection().pairs_tested())) << "hardly any pair skipped";
}
