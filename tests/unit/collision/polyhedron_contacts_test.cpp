// Polyhedron narrow phase against closed forms and brute force. Scenes are of size ~1 m within
// ~10 m of the origin, so one coordinate or distance carries rounding of order 1e-15 m:
// kTol = 1e-12 leaves a margin of 1e3. Brute-force references never use the code under test:
// distances to a box are the clamp in its frame; distances along a segment are golden-section
// minima of that convex function (bracket 1e-13 in t, error at most 1e-13 ℓ).
#include "granite/body/polyhedron.hpp"
#include "granite/collision/gjk.hpp"
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
constexpr double kAll = 100.0;  // a threshold above every gap of these scenes

Mat3 turn(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// The distance from x to the box (centre c, rotation R, half extents h) and its closest point.
double box_distance(const Vec3& x, const Vec3& c, const Mat3& R, const Vec3& h, Vec3& closest) {
  const Vec3 local = R.transpose() * (x - c);
  const Vec3 clamped = local.cwiseMax(-h).cwiseMin(h);
  closest = c + R * clamped;
  if (clamped != local) return (local - clamped).norm();
  return -(h - local.cwiseAbs()).minCoeff();  // inside: minus the distance to the nearest face
}

// The largest face-plane distance of x: 0 on the surface, negative inside.
double surface_offset(const PlacedPolyhedron& p, const Vec3& x) {
  double s = -1e300;
  for (std::size_t f = 0; f < p.normals.size(); ++f)
    s = std::max(s, p.normals[f].dot(x) - p.offsets[f]);
  return s;
}

template <class F>
double golden_min(F f, double lo, double hi) {
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = f(x1), f2 = f(x2);
  while (hi - lo > 1e-13) {
    if (f1 <= f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = f(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = f(x2);
    }
  }
  return std::min({f1, f2, f(lo), f(hi)});
}

struct Pair {
  body::ConvexPolyhedron shape_a, shape_b;
  PlacedPolyhedron a, b;
};

}  // namespace

// A 2×2×1 box resting on a 4×4×2 box, shifted along x: their faces overlap over x ∈ [0.5, 2.5]
// ∩ [-2, 2] = [0.5, 2] and y ∈ [-1, 1]. Four contacts at that rectangle's corners, gap g,
// normal +z, points on the lower box's top face.
TEST(PolyhedronContacts, BoxRestingOnBoxGivesFourCornersOfTheOverlap) {
  const body::ConvexPolyhedron lower = body::box_polyhedron(Vec3(2, 2, 1));
  const body::ConvexPolyhedron upper = body::box_polyhedron(Vec3(1, 1, 0.5));
  for (const double g : {0.01, 0.0, -0.002}) {
    PlacedPolyhedron a, b;
    a.place(upper, Vec3(1.5, 0.0, 1.5 + g), Mat3::Identity());
    b.place(lower, Vec3::Zero(), Mat3::Identity());
    ContactGeometry out[kManifoldPoints];
    ASSERT_EQ(polyhedron_polyhedron(a, b, 0.02, out), 4u) << g;
    std::vector<Vec3> expected = {Vec3(0.5, -1, 1), Vec3(2, -1, 1), Vec3(2, 1, 1), Vec3(0.5, 1, 1)};
    for (const ContactGeometry& c : out) {
      EXPECT_NEAR(c.gap, g, kTol);
      EXPECT_NEAR((c.normal - Vec3::UnitZ()).norm(), 0.0, kTol);
      const auto hit = std::find_if(expected.begin(), expected.end(),
                                    [&](const Vec3& e) { return (e - c.point).norm() < kTol; });
      EXPECT_NE(hit, expected.end()) << c.point.transpose();
      if (hit != expected.end()) expected.erase(hit);
    }
    // Seen the other way round: the same points moved to the upper box, normals reversed.
    ASSERT_EQ(polyhedron_polyhedron(b, a, 0.02, out), 4u);
    for (const ContactGeometry& c : out) {
      EXPECT_NEAR(c.gap, g, kTol);
      EXPECT_NEAR((c.normal + Vec3::UnitZ()).norm(), 0.0, kTol);
      EXPECT_NEAR(c.point.z(), 1.0 + g, kTol);
    }
    EXPECT_EQ(polyhedron_polyhedron(a, b, g - 1e-6, out), 0u) << "gap above the threshold";
  }
}

// Two cubes of half edge 1 turned 45° about x (the upper) and about y (the lower): their edges
// cross. The upper's lowest edge runs along x at z_a − √2, the lower's highest along y at √2:
// one contact, normal z, at the crossing (0, y_a, √2), gap z_a − 2√2.
TEST(PolyhedronContacts, CrossedEdgesGiveOneContactAtTheCrossing) {
  const body::ConvexPolyhedron cube = body::box_polyhedron(Vec3::Ones());
  const double s = std::sqrt(2.0);
  for (const double g : {0.05, 0.0, -0.01}) {
    PlacedPolyhedron a, b;
    a.place(cube, Vec3(0.2, -0.3, 2.0 * s + g), turn(M_PI / 4, Vec3::UnitX()));
    b.place(cube, Vec3::Zero(), turn(M_PI / 4, Vec3::UnitY()));
    ContactGeometry out[kManifoldPoints];
    ASSERT_EQ(polyhedron_polyhedron(a, b, 0.1, out), 1u) << g;
    EXPECT_NEAR(out[0].gap, g, kTol);
    EXPECT_NEAR((out[0].normal - Vec3::UnitZ()).norm(), 0.0, kTol);
    EXPECT_NEAR((out[0].point - Vec3(0.0, -0.3, s)).norm(), 0.0, kTol);
  }
}

// A 4 × 2 × 1 brick lying across another (turned 90° about z), tilted by 0.02 rad and sunk
// by 0.05 below the lower one's top face at its lowest corner, which hangs beyond the lower
// brick. An edge pair's axis, 0.014 rad from z, separates them by −0.036, more than the top
// face's −0.05: the overlap is where the upper brick's bottom face crosses the lower one's top
// face, and its contacts are that face's manifold, not one contact at a crossing of two edges.
// Reference: the bottom face sampled on a grid, its least height above the top face over the
// lower brick's footprint (a linear height's least value over the clipped region lies at a
// corner of it, where the manifold's points are; the grid's 1/400 of the face misses it by at
// most its spacing times the slope, 0.02).
TEST(PolyhedronContacts, BrickTiltedAcrossABrickRestsOnTheFacesManifold) {
  const Vec3 h(2.0, 1.0, 0.5);
  const body::ConvexPolyhedron brick = body::box_polyhedron(h);
  const Mat3 R = turn(M_PI / 2, Vec3::UnitZ()) * turn(0.02, Vec3(1.0, 1.0, 0.0));
  double low = 1e300;  // the upper brick's lowest corner below its centre
  for (const double sx : {-1.0, 1.0})
    for (const double sy : {-1.0, 1.0})
      for (const double sz : {-1.0, 1.0})
        low = std::min(low, (R * Vec3(sx, sy, sz).cwiseProduct(h))[2]);
  PlacedPolyhedron a, b;
  a.place(brick, Vec3(0.0, 0.0, h[2] - 0.05 - low), R);
  b.place(brick, Vec3::Zero(), Mat3::Identity());
  SeparatingAxes axes;
  ASSERT_TRUE(box_axes(a, b, kAll, axes));
  ASSERT_GT(axes.edge, std::max(axes.face_a, axes.face_b) + 0.01);  // the edge pair separates more
  ContactGeometry out[kManifoldPoints];
  const std::size_t n = polyhedron_polyhedron(a, b, kAll, out);
  ASSERT_EQ(n, 4u);  // the corners of the crossing square
  double least = 1e300;
  for (std::size_t c = 0; c < n; ++c) {
    EXPECT_NEAR((out[c].normal - Vec3::UnitZ()).norm(), 0.0, kTol);
    EXPECT_NEAR(out[c].point[2], h[2], kTol);
    EXPECT_NEAR(surface_offset(b, out[c].point), 0.0, kTol);
    EXPECT_NEAR(surface_offset(a, out[c].point1()), 0.0, kTol);
    least = std::min(least, out[c].gap);
  }
  double sampled = 1e300;
  constexpr int kGrid = 400;
  for (int i = 0; i <= kGrid; ++i)
    for (int j = 0; j <= kGrid; ++j) {
      const Vec3 local(h[0] * (2.0 * i / kGrid - 1.0), h[1] * (2.0 * j / kGrid - 1.0), -h[2]);
      const Vec3 x = a.centre + R * local;
      if (std::abs(x[0]) <= h[0] && std::abs(x[1]) <= h[1])
        sampled = std::min(sampled, x[2] - h[2]);
    }
  EXPECT_LE(least, sampled + kTol);
  EXPECT_GE(least, sampled - 0.02 * 2.0 * h[0] / kGrid);
  EXPECT_LE(least, axes.edge);  // the manifold holds the overlap at least as deep
}

// Random bricks stacked on a brick: turned about z at random, tilted by up to 0.05 rad about a
// random horizontal axis, moved by up to half a width and sunk by up to a fifth of the
// thickness at the lowest corner. Wherever an edge pair's axis separates them more than every
// face does and lies within 0.1 rad of the best face's normal, the contacts are that face's
// manifold (two points at least, the face's normal) when it holds the overlap as deep as the
// edge pair does, to its 5 % margin; its least gap then lies between the face's separation
// (no point of the upper brick is deeper along the normal) and that margin. Else they are the
// edge pair's single contact.
TEST(PolyhedronContacts, StackedBricksNearAFaceTakeItsManifold) {
  const Vec3 h(2.0, 1.0, 0.5);
  const body::ConvexPolyhedron brick = body::box_polyhedron(h);
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int near_face = 0, manifolds = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double yaw = M_PI * u(rng), tilt = 0.05 * u(rng), heading = 2.0 * M_PI * u(rng);
    const Mat3 R =
        turn(yaw, Vec3::UnitZ()) * turn(tilt, Vec3(std::cos(heading), std::sin(heading), 0.0));
    double low = 1e300;
    for (const double sx : {-1.0, 1.0})
      for (const double sy : {-1.0, 1.0})
        for (const double sz : {-1.0, 1.0})
          low = std::min(low, (R * Vec3(sx, sy, sz).cwiseProduct(h))[2]);
    const Vec3 x(h[1] * (u(rng) - 0.5), h[1] * (u(rng) - 0.5), h[2] - 0.4 * h[2] * u(rng) - low);
    PlacedPolyhedron a, b;
    a.place(brick, x, R);
    b.place(brick, Vec3::Zero(), Mat3::Identity());
    SeparatingAxes axes;
    ASSERT_TRUE(box_axes(a, b, kAll, axes));
    const bool on_a = axes.face_a > axes.face_b;
    const double face = std::max(axes.face_a, axes.face_b);
    const Vec3 n = on_a ? a.normals[std::size_t(axes.fa)] : b.normals[std::size_t(axes.fb)];
    if (!(axes.edge > face + 1e-9 && std::abs(n.dot(axes.edge_normal)) > 1.0 - 5e-3)) continue;
    ++near_face;
    ContactGeometry out[kManifoldPoints];
    const std::size_t count = polyhedron_polyhedron(a, b, kAll, out);
    ASSERT_GE(count, 1u) << trial;
    if (count == 1) {  // the edge pair's contact
      EXPECT_NEAR(out[0].gap, axes.edge, 1e-12) << trial;
      continue;
    }
    ++manifolds;
    double least = 1e300;
    for (std::size_t c = 0; c < count; ++c) {
      EXPECT_NEAR((out[c].normal - (on_a ? Vec3(-n) : n)).norm(), 0.0, kTol) << trial;
      least = std::min(least, out[c].gap);
    }
    EXPECT_GE(least, face - kTol) << trial;
    EXPECT_LE(least, axes.edge + 0.05 * std::max(0.0, -axes.edge)) << trial;
  }
  EXPECT_GT(near_face, 200);
  EXPECT_GT(manifolds, near_face / 2);
}

// Random pairs of random convex polyhedra: contacts' witness points on their bodies' surfaces,
// the least gap never above the exact distance (GJK; separating axes give a lower bound, exact
// when touching), no contact only when the distance exceeds the threshold, and a turned and
// moved scene gives the same contacts turned and moved.
TEST(PolyhedronContacts, RandomPairsAgreeWithTheDistanceAndAreFrameIndependent) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int touching = 0, separated = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Vec3> pa, pb;
    for (int k = 0; k < 12; ++k) {
      pa.emplace_back(g(rng), g(rng), g(rng));
      pb.emplace_back(g(rng), g(rng), g(rng));
    }
    const body::ConvexPolyhedron A = body::convex_hull(pa, "a"), B = body::convex_hull(pb, "b");
    const Mat3 Ra = test_support::random_rotation_matrix(rng),
               Rb = test_support::random_rotation_matrix(rng);
    const Vec3 xa = Vec3(g(rng), g(rng), g(rng)).normalized() * (1.0 + 3.0 * u(rng));
    PlacedPolyhedron a, b;
    a.place(A, xa, Ra);
    b.place(B, Vec3::Zero(), Rb);
    const double threshold = 0.3;
    ContactGeometry out[kManifoldPoints];
    const std::size_t n = polyhedron_polyhedron(a, b, threshold, out);
    const GjkResult exact = gjk_distance(PointSetSupport{a.vertices.data(), a.vertices.size()},
                                         PointSetSupport{b.vertices.data(), b.vertices.size()}, xa);
    const double distance = exact.overlap ? 0.0 : exact.distance;
    if (n == 0) {
      EXPECT_GT(distance, threshold - kTol) << trial;
      continue;
    }
    (exact.overlap ? touching : separated)++;
    double least = 1e300;
    for (std::size_t c = 0; c < n; ++c) {
      EXPECT_NEAR(out[c].normal.norm(), 1.0, kTol);
      EXPECT_NEAR(surface_offset(b, out[c].point), 0.0, 1e-11) << trial;
      EXPECT_NEAR(surface_offset(a, out[c].point1()), 0.0, 1e-11) << trial;
      EXPECT_LE(out[c].gap, threshold);
      least = std::min(least, out[c].gap);
    }
    if (!exact.overlap) {
      EXPECT_LE(least, distance + kTol) << trial;
    } else {
      EXPECT_LE(least, kTol) << trial;
    }
    // The same scene turned by Q and moved by t.
    const Mat3 Q = test_support::random_rotation_matrix(rng);
    const Vec3 t(g(rng), g(rng), g(rng));
    PlacedPolyhedron a2, b2;
    a2.place(A, Q * xa + t, Q * Ra);
    b2.place(B, t, Q * Rb);
    ContactGeometry out2[kManifoldPoints];
    ASSERT_EQ(polyhedron_polyhedron(a2, b2, threshold, out2), n) << trial;
    for (std::size_t c = 0; c < n; ++c) {
      EXPECT_NEAR(out2[c].gap, out[c].gap, 1e-11) << trial;
      EXPECT_NEAR((out2[c].normal - Q * out[c].normal).norm(), 0.0, 1e-10) << trial;
      EXPECT_NEAR((out2[c].point - (Q * out[c].point + t)).norm(), 0.0, 1e-10) << trial;
    }
  }
  EXPECT_GT(touching, 10);
  EXPECT_GT(separated, 10);
}

// Spheres (a == b) against a turned box: the exact gap, normal and closest point (the clamp
// in the box's frame), outside and inside.
TEST(PolyhedronContacts, SphereAgainstBoxIsTheClamp) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  const Vec3 h(1.0, 0.5, 0.25), c(0.5, -1.0, 2.0);
  const body::ConvexPolyhedron box = body::box_polyhedron(h);
  for (int trial = 0; trial < 500; ++trial) {
    const Mat3 R = test_support::random_rotation_matrix(rng);
    PlacedPolyhedron p;
    p.place(box, c, R);
    const Vec3 x = c + 1.5 * Vec3(g(rng), g(rng), g(rng));
    const double r = 0.2;
    Vec3 closest;
    const double d = box_distance(x, c, R, h, closest);
    ContactGeometry out[2];
    ASSERT_EQ(capsule_polyhedron(x, x, r, p, kAll, out), 1u);
    EXPECT_NEAR(out[0].gap, d - r, kTol) << trial;
    if (d > 1e-6) {
      EXPECT_NEAR((out[0].point - closest).norm(), 0.0, 1e-10) << trial;
      EXPECT_NEAR((out[0].normal - (x - closest) / d).norm(), 0.0, 1e-9) << trial;
    } else {  // inside: the nearest face, the point on it under the centre
      EXPECT_NEAR(surface_offset(p, out[0].point), 0.0, kTol);
      EXPECT_NEAR((out[0].point + (d)*out[0].normal - x).norm(), 0.0, kTol) << trial;
    }
  }
}

// Capsules against a turned box: the least gap is the least over the segment of the point's
// distance to the box less r (golden section); every contact on the box's surface.
TEST(PolyhedronContacts, CapsuleAgainstBoxHasTheLeastGapAlongItsSegment) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> g;
  const Vec3 h(1.0, 0.5, 0.25);
  const body::ConvexPolyhedron box = body::box_polyhedron(h);
  for (int trial = 0; trial < 400; ++trial) {
    const Mat3 R = test_support::random_rotation_matrix(rng);
    PlacedPolyhedron p;
    p.place(box, Vec3::Zero(), R);
    const Vec3 a = 1.5 * Vec3(g(rng), g(rng), g(rng)), b = a + Vec3(g(rng), g(rng), g(rng));
    const double r = 0.1;
    const double least = golden_min(
        [&](double t) {
          Vec3 closest;
          return box_distance(a + t * (b - a), Vec3::Zero(), R, h, closest);
        },
        0.0, 1.0);
    ContactGeometry out[2];
    const std::size_t n = capsule_polyhedron(a, b, r, p, kAll, out);
    ASSERT_GE(n, 1u);
    double found = 1e300;
    for (std::size_t c = 0; c < n; ++c) {
      found = std::min(found, out[c].gap);
      EXPECT_NEAR(surface_offset(p, out[c].point), 0.0, kTol) << trial;
      // Each contact is that of a sphere of the capsule: its centre x = point + (gap + r) n
      // lies on the segment, and its gap is x's distance to the box less r.
      const Vec3 x = out[c].point + (out[c].gap + r) * out[c].normal;
      const double t = std::clamp((x - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
      EXPECT_NEAR((a + t * (b - a) - x).norm(), 0.0, 1e-11) << trial;
      Vec3 closest;
      if (const double dx = box_distance(x, Vec3::Zero(), R, h, closest); dx > 1e-9) {
        EXPECT_NEAR(out[c].gap, dx - r, 1e-11) << trial;
      }
    }
    // Inside the box the segment's distance is not the SAT depth along one axis in general;
    // the comparison holds where the segment stays outside (least > 0).
    if (least > 1e-9) {
      EXPECT_NEAR(found, least - r, 1e-11) << trial;
    }
  }
}

// A capsule lying on a box's top face, partly over its rim: two contacts, at the segment's
// end over the face and where it leaves the face, both with the face's normal and the gap.
TEST(PolyhedronContacts, CapsuleLyingOnAFaceGetsTwoContactsClippedToTheFace) {
  const body::ConvexPolyhedron box = body::box_polyhedron(Vec3(1, 1, 1));
  PlacedPolyhedron p;
  p.place(box, Vec3::Zero(), Mat3::Identity());
  const double r = 0.2, gap = 0.003;
  const Vec3 a(0.2, 0.3, 1 + r + gap), b(1.6, 0.3, 1 + r + gap);
  ContactGeometry out[2];
  ASSERT_EQ(capsule_polyhedron(a, b, r, p, 0.01, out), 2u);
  for (const ContactGeometry& c : out) {
    EXPECT_NEAR(c.gap, gap, kTol);
    EXPECT_NEAR((c.normal - Vec3::UnitZ()).norm(), 0.0, kTol);
  }
  EXPECT_NEAR((out[0].point - Vec3(0.2, 0.3, 1)).norm(), 0.0, kTol);
  EXPECT_NEAR((out[1].point - Vec3(1.0, 0.3, 1)).norm(), 0.0, kTol);
}

// A box on the floor (half-space z >= 0): tilted about x by a small angle, two corners touch,
// the other two are higher by 2 h_y sin θ; flat, four contacts. A global box (body 2) gives
// what the same box as a placed polyhedron gives.
TEST(PolyhedronContacts, BoxOnTheFloorAndOnAGlobalBox) {
  const Vec3 h(0.5, 0.4, 0.3);
  const body::ConvexPolyhedron box = body::box_polyhedron(h);
  const body::Primitive floor = body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()};
  PlacedPolyhedron p;
  ContactGeometry out[kPolyhedronPrimitiveContacts];
  p.place(box, Vec3(0, 0, h.z() + 1e-4), Mat3::Identity());
  ASSERT_EQ(polyhedron_primitive(p, floor, 1e-3, out), 4u);
  for (std::size_t c = 0; c < 4; ++c) EXPECT_NEAR(out[c].gap, 1e-4, kTol);
  const double theta = 0.01;
  const Mat3 R = turn(theta, Vec3::UnitX());
  const double low = h.z() * std::cos(theta) + h.y() * std::sin(theta);
  p.place(box, Vec3(0, 0, low), R);
  ASSERT_EQ(polyhedron_primitive(p, floor, 1e-3, out), 2u);
  EXPECT_EQ(polyhedron_primitive(p, floor, 2 * h.y() * std::sin(theta) + 1e-9, out), 4u);
  body::Box global{Vec3(0, 0, -1), Vec3(2, 2, 1), Quat::Identity()};
  const body::ConvexPolyhedron global_shape = body::box_polyhedron(global.half_extents);
  PlacedPolyhedron q;  // keeps a pointer to its shape
  q.place(global_shape, global.center, Mat3::Identity());
  ContactGeometry expected[kManifoldPoints];
  const std::size_t n = polyhedron_polyhedron(p, q, 1e-3, expected);
  ASSERT_EQ(polyhedron_primitive(p, global, 1e-3, out), n);
  for (std::size_t c = 0; c < n; ++c) {
    EXPECT_NEAR(out[c].gap, expected[c].gap, kTol);
    EXPECT_NEAR((out[c].point - expected[c].point).norm(), 0.0, kTol);
  }
}

// A cube of half edge 0.5 inside a drum (hollow cylinder of radius 2 about z, caps at ±1), its
// outer face a chord of the mantle with its four corners at the wall, resting on the lower cap:
// four contacts with the mantle (normals across the axis) and four with the cap.
TEST(PolyhedronContacts, CubeInADrumTouchesWithItsVertices) {
  const body::ConvexPolyhedron cube = body::box_polyhedron(Vec3(0.5, 0.5, 0.5));
  const body::Cylinder drum{Vec3::Zero(), Vec3::UnitZ(), 2.0, 1.0, true};
  // Outer face at x = x0 + 0.5 with corners y = ±0.5: radius √((x0 + .5)² + .25) = 2 − gap.
  const double gap = 1e-4, outer = std::sqrt((2.0 - gap) * (2.0 - gap) - 0.25);
  PlacedPolyhedron p;
  p.place(cube, Vec3(outer - 0.5, 0.0, -0.5 + gap), Mat3::Identity());
  ContactGeometry out[kPolyhedronPrimitiveContacts];
  const std::size_t n = polyhedron_primitive(p, drum, 1e-3, out);
  ASSERT_EQ(n, 8u);
  int mantle = 0;
  for (std::size_t c = 0; c < n; ++c) {
    EXPECT_NEAR(out[c].gap, gap, kTol);
    mantle += std::abs(out[c].normal.z()) < kTol;
  }
  EXPECT_EQ(mantle, 4);
}

// A cube above a solid cylinder's flat top cap (axis z, radius 1, half length 1): the distance
// to the (eroded, rounded) cylinder less the margin is the exact gap away from the rims.
TEST(PolyhedronContacts, CubeAboveASolidCylindersCap) {
  const body::ConvexPolyhedron cube = body::box_polyhedron(Vec3(0.25, 0.25, 0.25));
  const body::Cylinder pillar{Vec3::Zero(), Vec3::UnitZ(), 1.0, 1.0, false};
  for (const double gap : {0.01, 1e-5, -1e-3}) {
    PlacedPolyhedron p;
    p.place(cube, Vec3(0.2, 0.1, 1.25 + gap), turn(0.3, Vec3::UnitZ()));
    ContactGeometry out[kPolyhedronPrimitiveContacts];
    ASSERT_EQ(polyhedron_primitive(p, pillar, 0.02, out), 1u);
    EXPECT_NEAR(out[0].gap, gap, 1e-10);
    EXPECT_NEAR((out[0].normal - Vec3::UnitZ()).norm(), 0.0, 1e-8);
    EXPECT_NEAR(out[0].point.z(), 1.0, 1e-10);
  }
}
