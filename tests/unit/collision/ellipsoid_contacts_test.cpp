// Ellipsoid narrow phase (collision/ellipsoid_contacts.hpp) against closed forms and
// certificates that do not use the code under test. Scenes are of size ~1 m near the origin:
// one coordinate carries rounding of ~1e-16 m, a support point (a square root and a division)
// a few times that, so positions and gaps are checked to kTol = 1e-12 (a margin of ~1e3).
// Normals: the polish stops at a step of 1e-12 rad, and the outward normals of the reference
// (gradients of the quadric, (x − c)ᵀ M⁻¹ (x − c) = 1, at a point good to 1e-15) are good to
// ~1e-15 / (least radius of curvature ~0.1 m): kNormalTol = 1e-10 leaves a margin of 1e2.
//
// The certificate for a contact (n, p_B, gap) of separated bodies: p_E = p_B + gap n on E's
// surface with E's outward normal −n there, p_B on B's surface with B a support point along n:
// then the planes through p_E and p_B normal to n support E and B, the slab between them of
// width gap separates them (distance >= gap) and |p_E − p_B| = gap (distance <= gap).
#include "granite/collision/ellipsoid_contacts.hpp"
#include "granite/collision/polyhedron_contacts.hpp"
#include "granite/collision/shape_contacts.hpp"

#include "../../support/random_rotation.hpp"
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

using namespace granite;
using namespace granite::collision;

namespace {

constexpr double kTol = 1e-12;
constexpr double kNormalTol = 1e-10;
constexpr double kAll = 100.0;  // a threshold above every gap of these scenes

Vec3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  return Vec3(g(rng), g(rng), g(rng)).normalized();
}

// The quadric's value (x − c)ᵀ M⁻¹ (x − c) (1 on the surface) and its outward unit normal.
double level(const PlacedEllipsoid& e, const Vec3& x) {
  return (e.rotation.transpose() * (x - e.centre)).cwiseQuotient(e.semi_axes).squaredNorm();
}
Vec3 outward(const PlacedEllipsoid& e, const Vec3& x) {
  const Vec3 local = e.rotation.transpose() * (x - e.centre);
  return (e.rotation * local.cwiseQuotient(e.semi_axes.cwiseProduct(e.semi_axes))).normalized();
}
// h_E(d) = d·c + √(dᵀ R D² Rᵀ d), the closed form of the support function.
double support_value(const PlacedEllipsoid& e, const Vec3& d) {
  return d.dot(e.centre) + e.semi_axes.cwiseProduct(e.rotation.transpose() * d).norm();
}

// The gap of `shape` moved to `centre` against ellipsoid b (kAll when none is found).
double gap_to(const PlacedEllipsoid& shape, const Vec3& centre, const PlacedEllipsoid& b) {
  const PlacedEllipsoid e(centre, shape.rotation, shape.semi_axes);
  ContactGeometry g;
  return ellipsoid_convex(e, CoreSupport{&b}, b.margin, b.centre, kAll, g, &b) ? g.gap : kAll;
}

PlacedEllipsoid random_ellipsoid(std::mt19937_64& rng, const Vec3& centre) {
  std::uniform_real_distribution<double> axis(0.3, 1.0);
  return {centre, test_support::random_rotation_matrix(rng), Vec3(axis(rng), axis(rng), axis(rng))};
}

// E's half of the certificate: p_E on its surface, its outward normal −n there.
void expect_on_ellipsoid(const PlacedEllipsoid& e, const ContactGeometry& g) {
  const Vec3 p_e = g.point1();
  EXPECT_NEAR(level(e, p_e), 1.0, kTol);
  EXPECT_NEAR((outward(e, p_e) + g.normal).norm(), 0.0, kNormalTol);
}

// A random direction and the distance along it at which E and B (convex, centre of B at the
// origin) touch, bracketed: returns E's centre placed so that the pair's gap is about `gap`.
template <class Contact>
Vec3 place_at_gap(const Vec3& direction, double gap, const Contact& contact_at) {
  double lo = 0.0, hi = 10.0;  // contact_at(centre) > 0 when apart
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (contact_at(Vec3(mid * direction)) > gap ? hi : lo) = mid;
  }
  return hi * direction;
}

}  // namespace

TEST(EllipsoidContacts, TheMarginIsHalfTheLeastRadiusOfCurvature) {
  EXPECT_DOUBLE_EQ(ellipsoid_margin(Vec3(2.0, 1.5, 1.0)), 0.25);  // c²/(2a) = 1/4
  EXPECT_DOUBLE_EQ(ellipsoid_margin(Vec3(1.0, 1.0, 1.0)), 0.5);   // a ball: r/2
}

TEST(EllipsoidContacts, ABallShapedEllipsoidMeetsASphereAsSphereSphereDoes) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> gap(-0.01, 0.5), radius(0.2, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const double r1 = radius(rng), r2 = radius(rng);
    const Vec3 x2(0.3, -0.2, 0.1);
    const Vec3 x1 = x2 + (r1 + r2 + gap(rng)) * random_unit(rng);
    const PlacedEllipsoid e(x1, test_support::random_rotation_matrix(rng), Vec3::Constant(r1));
    ContactGeometry got, want;
    ASSERT_TRUE(ellipsoid_convex(e, SegmentSupport{x2, x2}, r2, x2, kAll, got));
    ASSERT_TRUE(sphere_sphere(x1, r1, x2, r2, kAll, want));
    EXPECT_NEAR(got.gap, want.gap, kTol);
    EXPECT_NEAR((got.normal - want.normal).norm(), 0.0, kNormalTol);
    EXPECT_NEAR((got.point - want.point).norm(), 0.0, 1e-10);  // normal error times r2
  }
}

TEST(EllipsoidContacts, EllipsoidPairsSatisfyTheSeparationCertificate) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> gap(0.0, 0.3);
  for (int trial = 0; trial < 300; ++trial) {
    const PlacedEllipsoid b = random_ellipsoid(rng, Vec3::Zero());
    const PlacedEllipsoid shape = random_ellipsoid(rng, Vec3::Zero());
    const auto gap_at = [&](const Vec3& centre) { return gap_to(shape, centre, b); };
    const double want = trial % 5 == 0 ? 0.0 : gap(rng);  // every fifth touching
    const PlacedEllipsoid e(place_at_gap(random_unit(rng), want, gap_at), shape.rotation,
                            shape.semi_axes);
    ContactGeometry g;
    ASSERT_TRUE(ellipsoid_convex(e, CoreSupport{&b}, b.margin, b.centre, kAll, g, &b));
    expect_on_ellipsoid(e, g);
    EXPECT_NEAR(level(b, g.point), 1.0, kTol);
    EXPECT_NEAR((outward(b, g.point) - g.normal).norm(), 0.0, kNormalTol);
    // The slab: E beyond the plane through p_E, B below the one through p_B (closed forms).
    EXPECT_NEAR(-support_value(e, -g.normal), g.normal.dot(g.point1()), kTol);
    EXPECT_NEAR(support_value(b, g.normal), g.normal.dot(g.point), kTol);
    EXPECT_NEAR(g.gap, want, 1e-9);  // the bisection's target, to its bracket
  }
}

TEST(EllipsoidContacts, SlightOverlapsGiveTheTranslationThatSeparatesThem) {
  // Moved back along the normal by the penetration, the pair touches: the gap is then 0 and
  // the normal unchanged.
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> depth(1e-6, 1e-2);
  for (int trial = 0; trial < 100; ++trial) {
    const PlacedEllipsoid b = random_ellipsoid(rng, Vec3::Zero());
    const PlacedEllipsoid shape = random_ellipsoid(rng, Vec3::Zero());
    const auto gap_at = [&](const Vec3& centre) { return gap_to(shape, centre, b); };
    const Vec3 x = place_at_gap(random_unit(rng), -depth(rng), gap_at);
    const PlacedEllipsoid e(x, shape.rotation, shape.semi_axes);
    ContactGeometry g;
    ASSERT_TRUE(ellipsoid_convex(e, CoreSupport{&b}, b.margin, b.centre, kAll, g, &b));
    ASSERT_LT(g.gap, 0.0);
    expect_on_ellipsoid(e, g);
    const PlacedEllipsoid moved(Vec3(x - g.gap * g.normal), shape.rotation, shape.semi_axes);
    ContactGeometry h;
    ASSERT_TRUE(ellipsoid_convex(moved, CoreSupport{&b}, b.margin, b.centre, kAll, h, &b));
    EXPECT_NEAR(h.gap, 0.0, kTol);
    EXPECT_NEAR((h.normal - g.normal).norm(), 0.0, kNormalTol);
  }
}

TEST(EllipsoidContacts, EllipsoidAgainstBoxesSatisfiesTheCertificateOnFacesEdgesAndCorners) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> gap(0.0, 0.3), half(0.2, 0.8);
  const body::ConvexPolyhedron unit = body::box_polyhedron(Vec3::Ones());
  int faces = 0, others = 0;
  for (int trial = 0; trial < 300; ++trial) {
    body::Box box{Vec3::Zero(), Vec3(half(rng), half(rng), half(rng)),
                  Quat(test_support::random_rotation_matrix(rng))};
    PlacedPolyhedron p;
    p.place(box);
    const PlacedEllipsoid shape = random_ellipsoid(rng, Vec3::Zero());
    const auto gap_at = [&](const Vec3& centre) {
      const PlacedEllipsoid e(centre, shape.rotation, shape.semi_axes);
      ContactGeometry g;
      return ellipsoid_polyhedron(e, p, kAll, g) == 1 ? g.gap : kAll;
    };
    // Every third approaches along a face normal (a face contact), the others at random.
    const Mat3 R = box.orientation.toRotationMatrix();
    const Vec3 direction = trial % 3 == 0 ? Vec3(R.col(trial % 9 / 3)) : random_unit(rng);
    const double want = gap(rng);
    const PlacedEllipsoid e(place_at_gap(direction, want, gap_at), shape.rotation, shape.semi_axes);
    ContactGeometry g;
    ASSERT_EQ(ellipsoid_polyhedron(e, p, kAll, g), 1U);
    expect_on_ellipsoid(e, g);
    // p_B on the box's surface and a support point along n (the box's vertices' maximum).
    const Vec3 local = R.transpose() * (g.point - box.center);
    EXPECT_NEAR((local.cwiseAbs() - box.half_extents).maxCoeff(), 0.0, kTol);
    double top = -kAll;
    for (const Vec3& v : p.vertices) top = std::max(top, g.normal.dot(v));
    EXPECT_NEAR(top, g.normal.dot(g.point), kTol);
    EXPECT_NEAR(g.gap, want, 1e-9);
    const bool on_face = (local.cwiseAbs() - box.half_extents).cwiseAbs().minCoeff() <= kTol &&
                         ((local.cwiseAbs() - box.half_extents).array().abs() <= kTol).count() == 1;
    (on_face ? faces : others)++;
  }
  EXPECT_GT(faces, 50);  // both kinds were met
  EXPECT_GT(others, 50);
}

TEST(EllipsoidContacts, EllipsoidAgainstACapsuleSatisfiesTheCertificate) {
  std::mt19937_64 rng(14);
  std::uniform_real_distribution<double> gap(0.0, 0.3);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 a(-0.6, 0.1, 0.0), b(0.5, -0.2, 0.3);
    const double r = 0.25;
    const PlacedEllipsoid shape = random_ellipsoid(rng, Vec3::Zero());
    const auto gap_at = [&](const Vec3& centre) {
      const PlacedEllipsoid e(centre, shape.rotation, shape.semi_axes);
      ContactGeometry g;
      return ellipsoid_convex(e, SegmentSupport{a, b}, r, Vec3(0.5 * (a + b)), kAll, g) ? g.gap
                                                                                        : kAll;
    };
    const double want = gap(rng);
    const PlacedEllipsoid e(
        Vec3(0.5 * (a + b) +
             place_at_gap(random_unit(rng), want,
                          [&](const Vec3& x) { return gap_at(Vec3(0.5 * (a + b) + x)); })),
        shape.rotation, shape.semi_axes);
    ContactGeometry g;
    ASSERT_TRUE(ellipsoid_convex(e, SegmentSupport{a, b}, r, Vec3(0.5 * (a + b)), kAll, g));
    expect_on_ellipsoid(e, g);
    // p_B − r n is the segment's support point along n, and the closest point of the segment
    // to p_B at distance r.
    const Vec3 core = g.point - r * g.normal;
    EXPECT_NEAR(std::max(g.normal.dot(a), g.normal.dot(b)), g.normal.dot(core), kTol);
    const double t = std::clamp((core - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
    EXPECT_NEAR((a + t * (b - a) - core).norm(), 0.0, 1e-10);
    EXPECT_NEAR(g.gap, want, 1e-9);
  }
}

TEST(EllipsoidContacts, AHalfSpaceMeetsTheSupportPointExactly) {
  std::mt19937_64 rng(15);
  for (int trial = 0; trial < 50; ++trial) {
    const PlacedEllipsoid e = random_ellipsoid(rng, Vec3(0.1, 0.2, 0.9));
    const body::HalfSpace plane{Vec3(0.0, 0.0, 0.1), random_unit(rng)};
    const body::Primitive primitive = plane;
    ContactGeometry g[kEllipsoidPrimitiveContacts];
    ASSERT_EQ(ellipsoid_primitive(e, primitive, kAll, g), 1U);
    const double want = plane.normal.dot(e.centre - plane.point) - support_value(e, plane.normal) +
                        plane.normal.dot(e.centre);  // n·(x − p) − √(nᵀ M n)
    EXPECT_NEAR(g[0].gap, want, kTol);
    EXPECT_NEAR((g[0].normal - plane.normal).norm(), 0.0, 0.0);
    EXPECT_NEAR(plane.normal.dot(g[0].point - plane.point), 0.0, kTol);
    expect_on_ellipsoid(e, g[0]);
  }
}

TEST(EllipsoidContacts, InADrumTheMantleTouchesTheFarthestPointAndTheCapsTheSupport) {
  const body::Cylinder drum{Vec3::Zero(), Vec3::UnitZ(), 1.0, 1.0, true};
  const body::Primitive primitive = drum;
  // Axis-aligned, long axis radial: the farthest point is the axis' end (its curvature radius
  // across, b²/a = 0.133, is below its distance 0.8 from the axis), gap 1 − 0.5 − 0.3.
  {
    const PlacedEllipsoid e(Vec3(0.5, 0.0, 0.0), Mat3::Identity(), Vec3(0.3, 0.2, 0.1));
    ContactGeometry g[kEllipsoidPrimitiveContacts];
    ASSERT_EQ(ellipsoid_primitive(e, primitive, 0.25, g), 1U);
    EXPECT_NEAR(g[0].gap, 0.2, kTol);
    EXPECT_NEAR((g[0].normal + Vec3::UnitX()).norm(), 0.0, kNormalTol);
    EXPECT_NEAR((g[0].point - Vec3(1.0, 0.0, 0.0)).norm(), 0.0, kTol);
  }
  // Turned at random near the mantle and the top cap: the cap gap is L − z − √(uᵀ M u); the
  // mantle's reach is no less than any sampled surface point's distance from the axis, and
  // the samples (angular step π/400, error <= a (π/400)²/2 = 3.1e-5 a) come within that.
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 20; ++trial) {
    const PlacedEllipsoid e = random_ellipsoid(rng, Vec3(-0.15, 0.2, 0.0));
    const PlacedEllipsoid near_wall(Vec3(e.centre + Vec3(0.0, 0.0, 1.0 - e.size())), e.rotation,
                                    e.semi_axes);
    ContactGeometry g[kEllipsoidPrimitiveContacts];
    const std::size_t count = ellipsoid_primitive(near_wall, primitive, kAll, g);
    ASSERT_EQ(count, 3U);  // both caps and the mantle
    const double top = drum.half_length - support_value(near_wall, Vec3::UnitZ());
    EXPECT_NEAR(g[0].gap, top, kTol);
    EXPECT_NEAR((g[0].normal + Vec3::UnitZ()).norm(), 0.0, 0.0);
    double farthest = 0.0;
    const int n = 400;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j < 2 * n; ++j) {
        const double theta = std::numbers::pi * i / n, phi = std::numbers::pi * j / n;
        const Vec3 u(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                     std::cos(theta));
        const Vec3 x = near_wall.centre + near_wall.rotation * near_wall.semi_axes.cwiseProduct(u);
        farthest = std::max(farthest, x.head<2>().norm());
      }
    const double reach = drum.radius - g[2].gap;
    EXPECT_GE(reach, farthest - kTol);
    EXPECT_LE(reach - farthest, 3.1e-5 * near_wall.size());
    expect_on_ellipsoid(near_wall, g[2]);
  }
}

TEST(EllipsoidContacts, ARigidMotionOfThePairMovesTheContactWithIt) {
  std::mt19937_64 rng(17);
  const PlacedEllipsoid b = random_ellipsoid(rng, Vec3::Zero());
  const PlacedEllipsoid e = random_ellipsoid(rng, Vec3(0.9, 0.4, -0.3));
  ContactGeometry g;
  ASSERT_TRUE(ellipsoid_convex(e, CoreSupport{&b}, b.margin, b.centre, kAll, g, &b));
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3 R = test_support::random_rotation_matrix(rng);
    const Vec3 t = random_unit(rng) * 5.0;
    const PlacedEllipsoid b2(Vec3(R * b.centre + t), Mat3(R * b.rotation), b.semi_axes);
    const PlacedEllipsoid e2(Vec3(R * e.centre + t), Mat3(R * e.rotation), e.semi_axes);
    ContactGeometry h;
    ASSERT_TRUE(ellipsoid_convex(e2, CoreSupport{&b2}, b2.margin, b2.centre, kAll, h, &b2));
    EXPECT_NEAR(h.gap, g.gap, 1e-11);  // coordinates ~5 m: rounding 5 times the scene's
    EXPECT_NEAR((h.normal - R * g.normal).norm(), 0.0, kNormalTol);
    EXPECT_NEAR((h.point - (R * g.point + t)).norm(), 0.0, 1e-11);
  }
}

TEST(EllipsoidContacts, OnAGlobalBoxsFaceTheNormalIsTheFacesExactly) {
  // The face's certificate: E's support point along −n lies over the face (the top, z = 0.5),
  // so the contact is the face's: its normal +z exactly and its gap the lowest point's height,
  // −h_E(−z) − 0.5.
  const body::Primitive box = body::Box{Vec3::Zero(), Vec3(1.0, 1.0, 0.5), Quat::Identity()};
  std::mt19937_64 rng(18);
  for (int trial = 0; trial < 20; ++trial) {
    const PlacedEllipsoid e(Vec3(0.1, -0.2, 0.5 + 0.3 + 0.01 * trial),
                            test_support::random_rotation_matrix(rng), Vec3(0.3, 0.2, 0.1));
    ContactGeometry g[kEllipsoidPrimitiveContacts];
    ASSERT_EQ(ellipsoid_primitive(e, box, kAll, g), 1U);
    EXPECT_EQ(g[0].normal, Vec3::UnitZ());
    EXPECT_NEAR(g[0].gap, -support_value(e, -Vec3::UnitZ()) - 0.5, kTol);
    expect_on_ellipsoid(e, g[0]);
  }
}

TEST(EllipsoidContacts, SurfaceRadiusIsOneOverTheSquareRootOfTheGaussianCurvature) {
  // At the end of the axis a the principal radii are b²/a and c²/a: 1/√K = b c / a; at the end
  // of c, a b / c; a ball-shaped ellipsoid has its radius everywhere. Points off the surface
  // are projected along the ray from the centre.
  body::MaterialTable materials;
  const auto glass = materials.add({2500.0, 0.5});
  body::ShapeTable shapes;
  const auto pebble = shapes.add_ellipsoid("pebble", Vec3(3.0, 2.0, 1.0));
  const auto ball = shapes.add_ellipsoid("ball", Vec3(1.5, 1.5, 1.5));
  body::Particles particles;
  const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  particles.add_shaped(materials, shapes, pebble, glass, Vec3(1, 2, 3), q);
  particles.add_shaped(materials, shapes, ball, glass, Vec3(-1, 0, 0), q);
  const Vec3 x(1, 2, 3);
  EXPECT_NEAR(surface_radius(particles, shapes, 0, Vec3(x + q * Vec3(3.0, 0, 0))), 2.0 / 3.0,
              1e-14);
  EXPECT_NEAR(surface_radius(particles, shapes, 0, Vec3(x + q * Vec3(0, 0, 1.2))), 6.0, 1e-13);
  EXPECT_NEAR(surface_radius(particles, shapes, 1, Vec3(-1, 0, 0) + Vec3(0.3, -0.4, 2.0)), 1.5,
              1e-14);
}
