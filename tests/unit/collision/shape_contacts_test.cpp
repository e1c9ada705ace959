// The narrow phase of clumps (collision/shape_contacts.hpp): one contact per touching pair of
// parts, each with the sphere–sphere conventions; checked against a reference that places the
// parts by quaternion products (q p q*, not the rotation matrix the code uses) and measures
// every pair of parts, and for invariance under a rigid motion of the whole scene.
#include "granite/collision/detection.hpp"
#include "granite/collision/shape_contacts.hpp"

#include "../../support/random_rotation.hpp"
#include <gtest/gtest.h>

#include <random>

using namespace granite;

namespace {

constexpr double kR = 1e-3;

// Four overlapping spheres on a tetrahedron, of unequal radii (so every pair of parts differs).
std::vector<body::SpherePart> tetra() {
  const double c = 0.5e-3;
  return {{0.8 * kR, Vec3(c, c, c)},
          {0.7 * kR, Vec3(c, -c, -c)},
          {0.6 * kR, Vec3(-c, c, -c)},
          {0.9 * kR, Vec3(-c, -c, c)}};
}

struct Scene {
  body::MaterialTable materials;
  body::ShapeTable shapes;
  body::Particles particles;
};

Scene two_clumps(const Vec3& x1, const Quat& q1, const Vec3& x2, const Quat& q2) {
  Scene s;
  const auto glass = s.materials.add({2500.0, 0.5});
  const auto shape = s.shapes.add_clump("tetra", tetra());
  s.particles.add_shaped(s.materials, s.shapes, shape, glass, x1, q1);
  s.particles.add_shaped(s.materials, s.shapes, shape, glass, x2, q2);
  return s;
}

// p turned by q as the quaternion product q (0, p) q*.
Vec3 turned(const Quat& q, const Vec3& p) {
  const Quat v(0.0, p.x(), p.y(), p.z());
  return (q * v * q.conjugate()).vec();
}

struct Expected {
  double gap;
  Vec3 normal, point;
};

// Every pair of parts (part a of body 0, part b of body 1) with gap below the threshold.
std::vector<Expected> reference(const Scene& s, double threshold) {
  std::vector<Expected> out;
  const auto& parts = s.shapes[0].parts;
  for (const auto& a : parts)
    for (const auto& b : parts) {
      const Vec3 ca = s.particles.position[0] + turned(s.particles.orientation[0], a.position);
      const Vec3 cb = s.particles.position[1] + turned(s.particles.orientation[1], b.position);
      const double gap = (ca - cb).norm() - a.radius - b.radius;
      if (gap >= threshold) continue;
      const Vec3 n = (ca - cb).normalized();
      out.push_back({gap, n, cb + b.radius * n});
    }
  return out;
}

collision::ContactList detect(const Scene& s, double threshold) {
  collision::ContactDetection detection;
  collision::ContactList contacts;
  detection.detect(s.particles, body::GlobalBodies{}, s.shapes, threshold, contacts);
  return contacts;
}

}  // namespace

// Random placements near contact: the same contacts as the reference, in its order (part of
// body 0, then part of body 1), to rounding of positions of order 1e-3 m (1e-18 m absolute).
TEST(ShapeContacts, ClumpPairsMatchEveryPairOfPartsMeasuredApart) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double threshold = 0.1 * kR;
  std::size_t touching = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const Vec3 offset = 2.4 * kR * Vec3(u(rng), u(rng), u(rng)).normalized();
    const Scene s =
        two_clumps(Vec3(0.01, 0.02, 0.03), test_support::random_quaternion(rng),
                   Vec3(0.01, 0.02, 0.03) + offset, test_support::random_quaternion(rng));
    const collision::ContactList c = detect(s, threshold);
    const std::vector<Expected> e = reference(s, threshold);
    ASSERT_EQ(c.size(), e.size()) << "trial " << trial;
    touching += c.size();
    for (std::size_t j = 0; j < c.size(); ++j) {
      EXPECT_EQ(c.body1[j], 0u);
      EXPECT_EQ(c.body2[j], 1u);
      EXPECT_NEAR(c.gap[j], e[j].gap, 1e-17) << "trial " << trial;
      EXPECT_LT((c.normal[j] - e[j].normal).norm(), 1e-12) << "trial " << trial;
      EXPECT_LT((c.point[j] - e[j].point).norm(), 1e-17) << "trial " << trial;
      // Each witness point lies on its body's surface: the part it belongs to has that radius.
      const double r1 = collision::surface_radius(s.particles, s.shapes, 0, c.witness1(j));
      const double r2 = collision::surface_radius(s.particles, s.shapes, 1, c.witness2(j));
      EXPECT_GT(r1, 0.5 * kR);
      EXPECT_GT(r2, 0.5 * kR);
    }
  }
  EXPECT_GT(touching, 500u) << "too few contacts: the test is too weak";
}

// Turning and moving the whole scene turns the normals and moves the points with it; the gaps
// are unchanged (to rounding at the scale 1e-3 m).
TEST(ShapeContacts, ARigidMotionOfTheSceneMovesTheContactsWithIt) {
  std::mt19937_64 rng(11);
  const Quat q1 = test_support::random_quaternion(rng), q2 = test_support::random_quaternion(rng);
  const Vec3 x1(0.0, 0.0, 0.0), x2(1.9 * kR, 0.4 * kR, -0.3 * kR);
  const Scene a = two_clumps(x1, q1, x2, q2);
  const Quat g = test_support::random_quaternion(rng);
  const Vec3 shift(0.3, -0.2, 0.7);
  const Scene b = two_clumps(g * x1 + shift, g * q1, g * x2 + shift, g * q2);
  const collision::ContactList ca = detect(a, 0.0), cb = detect(b, 0.0);
  ASSERT_GT(ca.size(), 0u);
  ASSERT_EQ(ca.size(), cb.size());
  for (std::size_t j = 0; j < ca.size(); ++j) {
    EXPECT_NEAR(ca.gap[j], cb.gap[j], 1e-15);
    EXPECT_LT((g * ca.normal[j] - cb.normal[j]).norm(), 1e-12);
    EXPECT_LT((g * ca.point[j] + shift - cb.point[j]).norm(), 1e-15);
  }
}

// A clump against a plane: one contact per part below the threshold, each at its part's lowest
// point; a sphere meeting a clump: one per touching part.
TEST(ShapeContacts, PartsMeetGlobalBodiesAndSpheresOneContactEach) {
  Scene s;
  const auto glass = s.materials.add({2500.0, 0.5});
  const auto shape = s.shapes.add_clump("tetra", tetra());
  s.particles.add_shaped(s.materials, s.shapes, shape, glass, Vec3(0, 0, 0), Quat::Identity());
  const auto& parts = s.shapes[shape].parts;
  // The floor just under the lowest part, whose bottom is at z = min(p_z − r).
  double lowest = 1.0;
  for (const auto& p : parts) lowest = std::min(lowest, p.position.z() - p.radius);
  body::GlobalBodies floor;
  floor.add(body::HalfSpace{Vec3(0, 0, lowest), Vec3::UnitZ()}, glass);
  collision::ContactDetection detection;
  collision::ContactList c;
  const double threshold = 0.05 * kR;
  detection.detect(s.particles, floor, s.shapes, threshold, c);
  std::size_t expected = 0;
  for (const auto& p : parts) expected += p.position.z() - p.radius - lowest < threshold ? 1 : 0;
  ASSERT_EQ(c.size(), expected);
  for (std::size_t j = 0; j < c.size(); ++j) {
    EXPECT_EQ(c.body2[j], 1u);  // the global body after the one particle
    EXPECT_EQ(c.normal[j], Vec3::UnitZ());
  }
  // A sphere resting on the top part only.
  const auto top = std::max_element(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
    return a.position.z() + a.radius < b.position.z() + b.radius;
  });
  s.particles.add_sphere(s.materials, glass, top->position + Vec3(0, 0, top->radius + 0.2 * kR),
                         0.2 * kR);
  detection.detect(s.particles, body::GlobalBodies{}, s.shapes, 0.0, c);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c.gap[0], 0.0, 1e-18);
  EXPECT_EQ(collision::surface_radius(s.particles, s.shapes, 0, c.witness2(0)), top->radius);
  EXPECT_EQ(collision::surface_radius(s.particles, s.shapes, 1, c.witness1(0)), 0.2 * kR);
}
