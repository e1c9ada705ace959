// The closed-form separating axes of two boxes against the general ones (faces by vertices,
// edge pairs on the Gauss map) on the same boxes given as convex hulls of their 8 corners.
// Both measure the same separations of bodies of size ~1 within ~3 of each other, each a few
// dot products of such numbers: rounding of order 1e-15, so kTol = 1e-12 keeps a margin of 1e3.
// Scenes whose largest separation lies within kTol of the threshold, or whose face and edge
// candidates tie to within kTol, could legitimately differ and are left out (none in practice:
// they have measure zero under random placements, and the test counts them).
#include "granite/body/polyhedron.hpp"
#include "granite/collision/polyhedron_contacts.hpp"
#include "granite/collision/separating_axes.hpp"

#include "../../support/random_rotation.hpp"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace granite;
using namespace granite::collision;

namespace {

constexpr double kTol = 1e-12;

body::ConvexPolyhedron hull_of(const body::ConvexPolyhedron& box) {
  return body::convex_hull(box.vertices, "cube corners");
}

struct Scene {
  body::ConvexPolyhedron box_a, box_b, hull_a, hull_b;
  PlacedPolyhedron a, b, ha, hb;
};

// Two boxes of random half extents in [0.2, 1], turned at random, a's centre at a random
// distance in [0.5, 3] from b's.
void random_scene(std::mt19937_64& rng, Scene& s) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g;
  const auto extents = [&] {
    return Vec3(0.2 + 0.8 * u(rng), 0.2 + 0.8 * u(rng), 0.2 + 0.8 * u(rng));
  };
  s.box_a = body::box_polyhedron(extents());
  s.box_b = body::box_polyhedron(extents());
  s.hull_a = hull_of(s.box_a);
  s.hull_b = hull_of(s.box_b);
  const Mat3 ra = test_support::random_rotation_matrix(rng),
             rb = test_support::random_rotation_matrix(rng);
  const Vec3 xa = Vec3(g(rng), g(rng), g(rng)).normalized() * (0.5 + 2.5 * u(rng));
  const Vec3 xb(0.1, -0.2, 0.3);
  s.a.place(s.box_a, xb + xa, ra);
  s.b.place(s.box_b, xb, rb);
  s.ha.place(s.hull_a, xb + xa, ra);
  s.hb.place(s.hull_b, xb, rb);
}

}  // namespace

TEST(SeparatingAxes, BoxPolyhedraAreMarkedAndHullsAreNot) {
  Scene s;
  std::mt19937_64 rng(1);
  random_scene(rng, s);
  EXPECT_TRUE(s.a.is_box() && s.b.is_box());
  EXPECT_FALSE(s.ha.is_box() || s.hb.is_box());
  body::ConvexPolyhedron shifted = s.box_a;
  body::shift_origin(shifted, Vec3(0.1, 0.0, 0.0));
  EXPECT_TRUE(shifted.box_half_extents.isZero(0.0)) << "a box off its origin is a polyhedron";
}

// The separations along faces of each and along edge pairs, and whether some axis separates
// beyond the threshold, agree; so do the edges that give the largest edge separation.
TEST(SeparatingAxes, BoxesInClosedFormAgreeWithTheGeneralTest) {
  std::mt19937_64 rng(7);
  int separated = 0, compared = 0, edge_largest = 0, skipped = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Scene s;
    random_scene(rng, s);
    const double threshold = 0.1;
    SeparatingAxes box, general;
    const bool box_touch = box_axes(s.a, s.b, threshold, box);
    const bool general_touch = general_axes(s.ha, s.hb, threshold, general);
    // The decisive separation, from an unbounded run of both (no early exit).
    SeparatingAxes full;
    ASSERT_TRUE(box_axes(s.a, s.b, 1e300, full));
    const double largest = std::max({full.face_a, full.face_b, full.edge});
    if (std::abs(largest - threshold) < kTol) {
      ++skipped;
      continue;
    }
    ASSERT_EQ(box_touch, general_touch) << trial << " largest " << largest;
    if (!box_touch) {
      ++separated;
      continue;
    }
    ++compared;
    EXPECT_NEAR(box.face_a, general.face_a, kTol) << trial;
    EXPECT_NEAR(box.face_b, general.face_b, kTol) << trial;
    EXPECT_NEAR(box.edge, general.edge, kTol) << trial;
    // The chosen faces are the same planes (the hull numbers its faces otherwise).
    EXPECT_NEAR((s.a.normals[std::size_t(box.fa)] - s.ha.normals[std::size_t(general.fa)]).norm(),
                0.0, kTol)
        << trial;
    EXPECT_NEAR((s.b.normals[std::size_t(box.fb)] - s.hb.normals[std::size_t(general.fb)]).norm(),
                0.0, kTol)
        << trial;
    if (box.edge > std::max(box.face_a, box.face_b)) {
      ++edge_largest;
      EXPECT_NEAR((box.edge_normal - general.edge_normal).norm(), 0.0, 1e-9) << trial;
      // The same edges, in either direction.
      const auto same_edge = [](const std::array<Vec3, 2>& p, const std::array<Vec3, 2>& q) {
        return std::min((p[0] - q[0]).norm() + (p[1] - q[1]).norm(),
                        (p[0] - q[1]).norm() + (p[1] - q[0]).norm()) < 1e-11;
      };
      EXPECT_TRUE(same_edge(box.edge_a, general.edge_a)) << trial;
      EXPECT_TRUE(same_edge(box.edge_b, general.edge_b)) << trial;
    }
  }
  EXPECT_EQ(skipped, 0);
  EXPECT_GT(separated, 100);
  EXPECT_GT(compared, 100);
  EXPECT_GT(edge_largest, 20);
}

// The whole narrow phase on boxes gives the contacts it gives on their hulls: the same count,
// normals and least gap. The points themselves may differ where the manifold keeps 4 of more
// clipped points: the clipped polygons start at different corners, and the choice among points
// of equal depth (an incident edge parallel to the reference face) follows their order.
TEST(SeparatingAxes, BoxContactsEqualTheHullContacts) {
  std::mt19937_64 rng(9);
  int with_contacts = 0, manifolds = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Scene s;
    random_scene(rng, s);
    const double threshold = 0.1;
    ContactGeometry box[kManifoldPoints], hull[kManifoldPoints];
    const std::size_t n = polyhedron_polyhedron(s.a, s.b, threshold, box);
    ASSERT_EQ(n, polyhedron_polyhedron(s.ha, s.hb, threshold, hull)) << trial;
    with_contacts += n > 0;
    manifolds += n > 1;
    const auto least = [n](const ContactGeometry* c) {
      double g = 1e300;
      for (std::size_t k = 0; k < n; ++k) g = std::min(g, c[k].gap);
      return g;
    };
    if (n > 0) {
      EXPECT_NEAR(least(box), least(hull), kTol) << trial;
    }
    for (std::size_t k = 0; k < n; ++k) {
      EXPECT_NEAR((box[k].normal - hull[0].normal).norm(), 0.0, kTol) << trial;
      if (n == 1) {
        EXPECT_NEAR((box[0].point - hull[0].point).norm(), 0.0, 1e-11) << trial;
      }
    }
  }
  EXPECT_GT(with_contacts, 200);
  EXPECT_GT(manifolds, 20);
}
