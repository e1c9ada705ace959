// Capsule narrow phase against brute force. A capsule (a, b, r) is the set of points within r
// of the segment [a, b]. The brute force never uses the code under test: distances to a
// segment are golden-section minima of the convex |x − p(t)|, distances between segments dense
// samples of one segment refined by golden section, least gaps to a primitive dense samples of
// the segment's signed distance (body::signed_distance) refined the same way.
//
// Error bounds used by the tolerances below:
// - golden section on a convex f over a bracket shrunk to width w returns a value within
//   w·Lip(f) of the least; every function here is a distance of a point moving along a
//   segment of length ℓ, so Lip = ℓ (in t ∈ [0, 1]) and the error is at most w ℓ;
// - sampling a segment with step δ: the least sample is at most δ/2 above the least value
//   (the minimiser is within δ/2 of a sample, the distance 1-Lipschitz in the point) and never
//   below it;
// - rounding: scenes are within ~10 m of the origin, so one distance carries an error of order
//   1e-15 m.
#include "granite/collision/capsule_contacts.hpp"
#include "granite/collision/narrow_phase.hpp"

#include "../../support/random_rotation.hpp"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace granite;
using namespace granite::collision;

namespace {

constexpr double kTol = 1e-12;     // hand-computed geometry: rounding only
constexpr double kGolden = 1e-13;  // golden-section bracket (in t ∈ [0, 1])
// Brute-force comparisons: the golden brackets cost at most kGolden (ℓ1 + ℓ2) <= 1e-12 for
// the segments here (each shorter than 5 m), rounding ~1e-14 (observed: 4e-14 at most).
constexpr double kBrute = 2e-12;
constexpr double kThresholdAll = 100.0;  // larger than any gap in these scenes: report all

void expect_vec(const Vec3& a, const Vec3& b, double tol = kTol) {
  EXPECT_NEAR((a - b).norm(), 0.0, tol) << "got " << a.transpose() << " expected " << b.transpose();
}

// Least value of a convex f over [lo, hi] by golden section, down to a bracket of width
// kGolden.
template <class F>
double golden_min(F f, double lo, double hi) {
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  double f1 = f(x1), f2 = f(x2);
  while (hi - lo > kGolden) {
    if (f1 <= f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = f(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = f(x2);
    }
  }
  // The bracket's ends are candidates too (a minimiser at an end is approached, never reached).
  return std::min({f1, f2, f(lo), f(hi)});
}

// Brute-force distance from x to the segment [a, b]: error <= kGolden |b − a|.
double point_segment(const Vec3& x, const Vec3& a, const Vec3& b) {
  return golden_min([&](double t) { return (x - (a + t * (b - a))).norm(); }, 0.0, 1.0);
}

// Least of a convex g over [0, 1]: `samples` evenly spaced samples (step δ = 1/(samples − 1)),
// then golden section on the two steps around the least sample (convexity puts a minimiser
// there). `sampled` is the least sample, `refined` the golden-section value.
struct Least {
  double sampled, refined;
};
template <class G>
Least sampled_then_refined(G g, int samples) {
  const double step = 1.0 / (samples - 1);
  int best = 0;
  double sampled = g(0.0);
  for (int k = 1; k < samples; ++k) {
    const double v = g(k * step);
    if (v < sampled) sampled = v, best = k;
  }
  const double lo = std::max(0.0, (best - 1) * step), hi = std::min(1.0, (best + 1) * step);
  return {sampled, std::min(sampled, golden_min(g, lo, hi))};
}

// Brute-force distance between segments: s ↦ distance from a1 + s (b1 − a1) to segment 2 is
// convex (distance to a convex set along a line). 2001 samples: sampled − refined <= δ ℓ1 / 2.
Least segment_segment(const Vec3& a1, const Vec3& b1, const Vec3& a2, const Vec3& b2) {
  return sampled_then_refined([&](double s) { return point_segment(a1 + s * (b1 - a1), a2, b2); },
                              2001);
}

double sine_between(const Vec3& d1, const Vec3& d2) {
  return d1.cross(d2).norm() / (d1.norm() * d2.norm());
}

Vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n;
  Vec3 v(n(rng), n(rng), n(rng));
  return v.normalized();
}
Vec3 random_point(std::mt19937& rng, double half_width) {
  std::uniform_real_distribution<double> u(-half_width, half_width);
  return Vec3(u(rng), u(rng), u(rng));
}
// A unit vector perpendicular to the unit vector u.
Vec3 random_perpendicular(std::mt19937& rng, const Vec3& u) {
  const Vec3 v = random_unit(rng);
  return (v - v.dot(u) * u).normalized();
}

struct CapsulePair {
  Vec3 a1, b1, a2, b2;
  double r1, r2;
};

// Seeded configurations of one kind: 0 general, 1 near-parallel (tilts 1e-9 to 1e-3),
// 2 exactly parallel (dyadic coordinates, so that b2 − a2 = k (b1 − a1) exactly), 3 crossing
// (the axes meet), 4 end to end (segment 2 starts near segment 1's end b1), 5 tiny (segment 1,
// and every other time segment 2 too, 1e-7 m long).
CapsulePair random_pair(std::mt19937& rng, int kind) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> dyadic(-16, 16);
  CapsulePair c;
  c.r1 = 0.05 + 0.45 * u(rng);
  c.r2 = 0.05 + 0.45 * u(rng);
  const auto dyadic_vec = [&]() -> Vec3 {
    const double x = dyadic(rng), y = dyadic(rng), z = dyadic(rng);
    return Vec3(x, y, z) / 8.0;
  };
  switch (kind) {
  case 0:
    c.a1 = random_point(rng, 1.0), c.b1 = random_point(rng, 1.0);
    c.a2 = random_point(rng, 1.0), c.b2 = random_point(rng, 1.0);
    break;
  case 1: {
    const Vec3 d = random_unit(rng);
    c.a1 = random_point(rng, 1.0);
    c.b1 = c.a1 + (0.5 + 2.5 * u(rng)) * d;
    const double tilt = std::pow(10.0, -9.0 + 6.0 * u(rng));
    const Vec3 d2 = std::cos(tilt) * d + std::sin(tilt) * random_perpendicular(rng, d);
    c.a2 = c.a1 + (-1.0 + 3.0 * u(rng)) * d + (0.1 + u(rng)) * random_perpendicular(rng, d);
    c.b2 = c.a2 + (u(rng) < 0.5 ? -1.0 : 1.0) * (0.5 + 2.5 * u(rng)) * d2;
    break;
  }
  case 2: {
    Vec3 d = dyadic_vec();
    while (d.isZero()) d = dyadic_vec();
    const double k[] = {0.5, -0.5, 1.0, -1.0, 2.0, -0.25};
    c.a1 = dyadic_vec(), c.b1 = c.a1 + d;
    c.a2 = dyadic_vec(), c.b2 = c.a2 + k[rng() % 6] * d;
    break;
  }
  case 3: {
    c.a1 = random_point(rng, 1.0), c.b1 = random_point(rng, 1.0);
    const Vec3 p = c.a1 + (0.1 + 0.8 * u(rng)) * (c.b1 - c.a1);
    const Vec3 d2 = (0.5 + u(rng)) * random_unit(rng);
    c.a2 = p - (0.1 + 0.8 * u(rng)) * d2, c.b2 = c.a2 + d2;
    break;
  }
  case 4: {
    c.a1 = random_point(rng, 1.0), c.b1 = random_point(rng, 1.0);
    const Vec3 d1 = c.b1 - c.a1;
    c.a2 = c.b1 + 0.2 * u(rng) * random_unit(rng);
    // Half of them collinear continuations, half bent.
    c.b2 = c.a2 + (u(rng) < 0.5 ? (0.5 + u(rng)) * d1 : d1.norm() * random_unit(rng));
    break;
  }
  default:
    c.a1 = random_point(rng, 1.0), c.b1 = c.a1 + 1e-7 * random_unit(rng);
    c.a2 = random_point(rng, 1.0), c.b2 = random_point(rng, 1.0);
    if (u(rng) < 0.5) c.b2 = c.a2 + 1e-7 * random_unit(rng);
    break;
  }
  return c;
}

// Checks capsule_capsule on c against brute force; returns the number of contacts.
std::size_t check_against_brute_force(const CapsulePair& c) {
  ContactGeometry out[2];
  const std::size_t n = capsule_capsule(c.a1, c.b1, c.r1, c.a2, c.b2, c.r2, kThresholdAll, out);
  EXPECT_GE(n, 1u);
  const Least d = segment_segment(c.a1, c.b1, c.a2, c.b2);
  const double l1 = (c.b1 - c.a1).norm(), radii = c.r1 + c.r2;
  // Every contact is the distance of a true pair of points: never below the least.
  double least = kThresholdAll;
  for (std::size_t k = 0; k < n; ++k) {
    EXPECT_GE(out[k].gap, d.refined - radii - kBrute);
    least = std::min(least, out[k].gap);
  }
  // Sampling bound on segment 1 (step δ = ℓ1/2000): least sample − δ/2 <= least <= it.
  EXPECT_LE(least, d.sampled - radii + kBrute);
  EXPECT_GE(least, d.sampled - radii - l1 / 2000.0 / 2.0 - kBrute);
  if (n == 1) {
    EXPECT_NEAR(least, d.refined - radii, kBrute);
  } else {
    // Two-point manifold (parallel): the least gap missed by at most overlap·|sin θ| <= ℓ1 sin θ.
    const double sine = sine_between(c.b1 - c.a1, c.b2 - c.a2);
    EXPECT_LT(sine, kCapsuleParallelSine);
    EXPECT_LE(least, d.refined - radii + l1 * sine + kBrute);
  }
  for (std::size_t k = 0; k < n; ++k) {
    const ContactGeometry& g = out[k];
    EXPECT_NEAR(g.normal.norm(), 1.0, kTol);
    if (g.gap + radii < 1e-6) continue;  // axes (nearly) meet: no defined normal
    // Witness points on the surfaces; the normal joins a point of each axis.
    EXPECT_NEAR(point_segment(g.point, c.a2, c.b2), c.r2, kBrute);
    EXPECT_NEAR(point_segment(g.point1(), c.a1, c.b1), c.r1, kBrute);
    EXPECT_NEAR(point_segment(g.point1() + c.r1 * g.normal, c.a1, c.b1), 0.0, kBrute);
    EXPECT_NEAR(point_segment(g.point - c.r2 * g.normal, c.a2, c.b2), 0.0, kBrute);
  }
  return n;
}

// Least gap of the capsule (a, b, r) to a primitive by brute force: g(t) = sd(a + t d) − r,
// 20001 samples (δ = ℓ/20000) refined by golden section (for a convex solid, a half-space,
// or a drum, where g is concave per wall and the least sample is exact at an end).
Least primitive_least_gap(const Vec3& a, const Vec3& b, double r, const body::Primitive& p) {
  return sampled_then_refined(
      [&](double t) { return body::signed_distance(p, a + t * (b - a)) - r; }, 20001);
}

double least_gap(const ContactGeometry* g, std::size_t n) {
  double least = kThresholdAll;
  for (std::size_t k = 0; k < n; ++k) least = std::min(least, g[k].gap);
  return least;
}

}  // namespace

TEST(CapsuleContacts, FlippedSwapsRoles) {
  ContactGeometry g{Vec3(1, 2, 3), Vec3(0, 0, 1), 0.25};
  const ContactGeometry f = flipped(g);
  expect_vec(f.normal, Vec3(0, 0, -1));
  expect_vec(f.point, g.point1());
  expect_vec(f.point1(), g.point);
  EXPECT_EQ(f.gap, g.gap);
  // The sphere–capsule contact flipped is the capsule–(zero-length capsule) contact. The two
  // compute the same closest point; gaps subtract the radii in another order (1 ulp).
  ContactGeometry one, two[2];
  const Vec3 c(0.3, 1.1, 0.2), a(-1, 0, 0), b(1, 0.5, 0);
  ASSERT_TRUE(sphere_capsule(c, 0.4, a, b, 0.7, 0.0, one));
  ASSERT_EQ(capsule_capsule(a, b, 0.7, c, c, 0.4, 0.0, two), 1u);
  EXPECT_NEAR(flipped(one).gap, two[0].gap, kTol);
  expect_vec(flipped(one).normal, two[0].normal);
  expect_vec(flipped(one).point, two[0].point);
}

// Sphere against capsule: gap = (distance from c to the segment) − rs − rc, by golden section
// (error <= kGolden ℓ < 1e-12); the witness points on the two surfaces.
TEST(CapsuleContacts, SphereCapsuleAgreesWithBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 2000; ++k) {
    const Vec3 c = random_point(rng, 2.0), a = random_point(rng, 1.0);
    // A quarter of the capsules are short (1e-6 m), a quarter point away from c along its
    // axis (c beyond end a, on the axis: the end cap's contact, normal along the axis).
    Vec3 b = random_point(rng, 1.0);
    if (k % 4 == 1) b = a + 1e-6 * random_unit(rng);
    if (k % 4 == 2) b = a - (0.1 + u(rng)) * (c - a);
    const double rs = 0.05 + 0.5 * u(rng), rc = 0.05 + 0.5 * u(rng);
    ContactGeometry g;
    ASSERT_TRUE(sphere_capsule(c, rs, a, b, rc, kThresholdAll, g));
    const double distance = point_segment(c, a, b);
    EXPECT_NEAR(g.gap, distance - rs - rc, kBrute);
    EXPECT_NEAR(g.normal.norm(), 1.0, kTol);
    EXPECT_NEAR(point_segment(g.point, a, b), rc, kBrute);  // on the capsule
    EXPECT_NEAR((g.point1() - c).norm(), rs, kBrute);       // on the sphere
    EXPECT_NEAR(point_segment(g.point - rc * g.normal, a, b), 0.0, kBrute);
  }
  // Threshold: a gap of 0.5 is reported for threshold 0.5, not 0.4.
  ContactGeometry g;
  EXPECT_TRUE(sphere_capsule(Vec3(0, 0, 2), 0.5, Vec3(-1, 0, 0), Vec3(1, 0, 0), 1.0, 0.5, g));
  EXPECT_NEAR(g.gap, 0.5, kTol);
  expect_vec(g.point, Vec3(0, 0, 1));
  EXPECT_FALSE(sphere_capsule(Vec3(0, 0, 2), 0.5, Vec3(-1, 0, 0), Vec3(1, 0, 0), 1.0, 0.4, g));
  // Beyond an end: the end sphere's contact.
  ASSERT_TRUE(sphere_capsule(Vec3(2.4, 0, 0), 0.5, Vec3(-1, 0, 0), Vec3(1, 0, 0), 1.0, 0.0, g));
  EXPECT_NEAR(g.gap, -0.1, kTol);
  expect_vec(g.normal, Vec3(1, 0, 0));
  expect_vec(g.point, Vec3(2, 0, 0));
}

// A capsule of zero length is a sphere: the same contact as sphere_sphere (and sphere_capsule
// as the capsule–capsule contact with a zero-length first capsule), bit for bit.
TEST(CapsuleContacts, ZeroLengthCapsulesAreSpheres) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int hits = 0, misses = 0;
  for (int k = 0; k < 1000; ++k) {
    const Vec3 x1 = random_point(rng, 1.0), x2 = random_point(rng, 1.0);
    const Vec3 a2 = random_point(rng, 1.0), b2 = random_point(rng, 1.0);
    const double r1 = 0.05 + 0.5 * u(rng), r2 = 0.05 + 0.5 * u(rng), threshold = 0.5 * u(rng);
    ContactGeometry s, c[2], sc;
    const bool hit = sphere_sphere(x1, r1, x2, r2, threshold, s);
    (hit ? hits : misses) += 1;
    ASSERT_EQ(capsule_capsule(x1, x1, r1, x2, x2, r2, threshold, c), hit ? 1u : 0u);
    ASSERT_EQ(sphere_capsule(x1, r1, x2, x2, r2, threshold, sc), hit);
    if (hit) {
      EXPECT_EQ(c[0].gap, s.gap);
      EXPECT_EQ(c[0].normal, s.normal);
      EXPECT_EQ(c[0].point, s.point);
      EXPECT_EQ(sc.gap, s.gap);
      EXPECT_EQ(sc.normal, s.normal);
      EXPECT_EQ(sc.point, s.point);
    }
    // Only the first capsule of zero length: sphere_capsule's contact.
    const bool touch = sphere_capsule(x1, r1, a2, b2, r2, threshold, sc);
    ASSERT_EQ(capsule_capsule(x1, x1, r1, a2, b2, r2, threshold, c), touch ? 1u : 0u);
    if (touch) {
      EXPECT_EQ(c[0].gap, sc.gap);
      EXPECT_EQ(c[0].normal, sc.normal);
      EXPECT_EQ(c[0].point, sc.point);
    }
  }
  EXPECT_GT(hits, 100);
  EXPECT_GT(misses, 100);
}

// Random general, near-parallel, exactly parallel, crossing, end-to-end and tiny pairs against
// the brute-force distance between the segments (see check_against_brute_force for the bounds).
TEST(CapsuleContacts, CapsuleCapsuleAgreesWithBruteForce) {
  std::mt19937 rng(5);
  int manifolds = 0, singles = 0;
  for (int kind = 0; kind < 6; ++kind)
    for (int k = 0; k < 60; ++k) {
      const CapsulePair c = random_pair(rng, kind);
      SCOPED_TRACE("kind " + std::to_string(kind) + " case " + std::to_string(k));
      (check_against_brute_force(c) == 2 ? manifolds : singles) += 1;
    }
  // The two-point manifold is exercised (near- and exactly parallel overlapping pairs).
  EXPECT_GT(manifolds, 30);
  EXPECT_GT(singles, 200);
}

TEST(CapsuleContacts, ParallelSideBySideGivesTwoContacts) {
  ContactGeometry out[2];
  const Vec3 a1(0, 0, 0), b1(4, 0, 0);
  // Capsule 2 above capsule 1, overlapping it along x over [1, 4], 0.1 deep: contacts at
  // x = 1 and x = 4 with the same gap.
  ASSERT_EQ(capsule_capsule(a1, b1, 0.5, Vec3(1, 0, 0.9), Vec3(6, 0, 0.9), 0.5, 0.0, out), 2u);
  for (const ContactGeometry& g : out) {
    EXPECT_NEAR(g.gap, -0.1, kTol);
    expect_vec(g.normal, Vec3(0, 0, -1));
  }
  EXPECT_EQ(out[0].gap, out[1].gap);
  expect_vec(out[0].point, Vec3(1, 0, 0.4));
  expect_vec(out[1].point, Vec3(4, 0, 0.4));
  expect_vec(out[0].point1(), Vec3(1, 0, 0.5));
  // Segment 2 shorter, reversed, beside segment 1's middle: the ends of its projection.
  ASSERT_EQ(capsule_capsule(a1, b1, 0.5, Vec3(3, 0.9, 0), Vec3(2, 0.9, 0), 0.5, 0.0, out), 2u);
  expect_vec(out[0].point, Vec3(2, 0.4, 0));
  expect_vec(out[1].point, Vec3(3, 0.4, 0));
  expect_vec(out[0].normal, Vec3(0, -1, 0));
  EXPECT_EQ(out[0].gap, out[1].gap);
  // Parallel but not overlapping along the axis: one contact, end b1 against end a2.
  ASSERT_EQ(capsule_capsule(a1, b1, 0.5, Vec3(5, 0, 0.9), Vec3(7, 0, 0.9), 0.5, 1.0, out), 1u);
  const Vec3 n = Vec3(-1, 0, -0.9).normalized();
  EXPECT_NEAR(out[0].gap, std::sqrt(1.81) - 1.0, kTol);
  expect_vec(out[0].normal, n);
  expect_vec(out[0].point, Vec3(5, 0, 0.9) + 0.5 * n);
  // End to end (an overlap of length 0): one contact.
  ASSERT_EQ(capsule_capsule(a1, b1, 0.5, Vec3(4, 0, 0.9), Vec3(7, 0, 0.9), 0.5, 0.0, out), 1u);
  EXPECT_NEAR(out[0].gap, -0.1, kTol);
  expect_vec(out[0].point, Vec3(4, 0, 0.4));
  // The threshold applies: 1.0 apart, threshold 0.5: none.
  EXPECT_EQ(capsule_capsule(a1, b1, 0.5, Vec3(1, 0, 2), Vec3(6, 0, 2), 0.5, 0.5, out), 0u);
}

// Capsule 2 over capsule 1 (ℓ = 4) tilted up by θ about y from its end over a1: within the
// tolerance (θ = 1e-8) two contacts, at x = 0 (gap 0.9 cos θ − 1) and x = 4 (gap 4 sin θ +
// 0.9 cos θ − 1, the distance of (4, 0, 0) from the tilted axis); beyond it (θ = 1e-4) the one
// closest pair, a1 and a2 (gap −0.1).
TEST(CapsuleContacts, ParallelToleranceDecidesTheManifold) {
  ContactGeometry out[2];
  const Vec3 a1(0, 0, 0), b1(4, 0, 0), a2(0, 0, 0.9);
  double theta = 1e-8;
  Vec3 b2 = a2 + 4.0 * Vec3(std::cos(theta), 0, std::sin(theta));
  ASSERT_LT(theta, kCapsuleParallelSine);
  ASSERT_EQ(capsule_capsule(a1, b1, 0.5, a2, b2, 0.5, 0.0, out), 2u);
  EXPECT_NEAR(out[0].gap, 0.9 * std::cos(theta) - 1.0, kTol);
  EXPECT_NEAR(out[1].gap, 4.0 * std::sin(theta) + 0.9 * std::cos(theta) - 1.0, kTol);
  theta = 1e-4;
  b2 = a2 + 4.0 * Vec3(std::cos(theta), 0, std::sin(theta));
  ASSERT_EQ(capsule_capsule(a1, b1, 0.5, a2, b2, 0.5, 0.0, out), 1u);
  EXPECT_NEAR(out[0].gap, -0.1, kTol);
  expect_vec(out[0].point, Vec3(0, 0, 0.4));
  expect_vec(out[0].normal, Vec3(0, 0, -1));
}

// Turning the scene by Q and moving it by T turns the normals (n' = Q n) and moves the points
// (x' = Q x + T); gaps are unchanged. Rounding: coordinates up to ~8 m carry ~1e-15 m; the
// closest points solve a 2×2 system of condition ~1/sin² θ, kept below 400 by using pairs with
// sin θ > 0.05 (or exactly parallel ones, whose manifold ends are well conditioned), so points
// move by < 400 · 8 · 1e-15 ≈ 3e-12 (tolerance 1e-11); normals divide that by the axes'
// distance, kept above 0.05: < 6e-11 (tolerance 1e-10). Observed: 1.1e-14.
TEST(CapsuleContacts, RigidMotionInvariance) {
  std::mt19937 rng(17);
  int checked = 0, manifolds = 0;
  for (int k = 0; k < 600; ++k) {
    const CapsulePair c = random_pair(rng, k % 2 == 0 ? 0 : 2);
    const double sine = sine_between(c.b1 - c.a1, c.b2 - c.a2);
    if (sine != 0.0 && sine < 0.05) continue;
    ContactGeometry g[2], h[2];
    const std::size_t n = capsule_capsule(c.a1, c.b1, c.r1, c.a2, c.b2, c.r2, kThresholdAll, g);
    ASSERT_GE(n, 1u);
    if (least_gap(g, n) + c.r1 + c.r2 < 0.05) continue;
    const Quat q = test_support::random_quaternion(rng);
    const Vec3 t = random_point(rng, 5.0);
    const auto move = [&](const Vec3& x) { return Vec3(q * x + t); };
    ASSERT_EQ(capsule_capsule(move(c.a1), move(c.b1), c.r1, move(c.a2), move(c.b2), c.r2,
                              kThresholdAll, h),
              n);
    for (std::size_t j = 0; j < n; ++j) {
      EXPECT_NEAR(h[j].gap, g[j].gap, kTol);
      expect_vec(h[j].normal, q * g[j].normal, 1e-10);
      expect_vec(h[j].point, move(g[j].point), 1e-11);
    }
    ++checked;
    manifolds += n == 2;
  }
  EXPECT_GT(checked, 200);
  EXPECT_GT(manifolds, 20);
}

// Half-space: the height is affine along the segment, so the ends carry the least gap.
TEST(CapsuleContacts, HalfSpaceEndContacts) {
  const body::HalfSpace floor{Vec3(0, 0, 0), Vec3(0, 0, 1)};
  ContactGeometry out[kCapsulePrimitiveContacts];
  // Lying flat, 0.05 deep: both ends.
  ASSERT_EQ(capsule_primitive(Vec3(-1, 0, 0.45), Vec3(1, 0, 0.45), 0.5, floor, 0.0, out), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_NEAR(out[k].gap, -0.05, kTol);
    expect_vec(out[k].normal, Vec3(0, 0, 1));
  }
  expect_vec(out[0].point, Vec3(-1, 0, 0));
  expect_vec(out[1].point, Vec3(1, 0, 0));
  // Tilted: the upper end's gap 0.25 is beyond threshold 0.1 (the lower end only), within 0.3.
  ASSERT_EQ(capsule_primitive(Vec3(-1, 0, 0.45), Vec3(1, 0, 0.75), 0.5, floor, 0.1, out), 1u);
  EXPECT_NEAR(out[0].gap, -0.05, kTol);
  expect_vec(out[0].point, Vec3(-1, 0, 0));
  ASSERT_EQ(capsule_primitive(Vec3(-1, 0, 0.45), Vec3(1, 0, 0.75), 0.5, floor, 0.3, out), 2u);
  EXPECT_NEAR(out[1].gap, 0.25, kTol);
}

// Box: a capsule lying flat on a face gets its two end contacts only (the signed distance is
// constant along it: no interior point is lower by the 1e-9 (r + ℓ) margin); one lying across
// an edge or a corner gets the contact at the edge or corner under its middle.
TEST(CapsuleContacts, BoxFlatOnAFaceAndAcrossAnEdge) {
  const body::Box box{Vec3(0, 0, 0), Vec3(1, 1, 1), Quat::Identity()};
  ContactGeometry out[kCapsulePrimitiveContacts];
  const Vec3 a(-0.5, 0.2, 1.29), b(0.5, 0.2, 1.29);
  for (const double threshold : {0.0, kThresholdAll}) {
    ASSERT_EQ(capsule_primitive(a, b, 0.3, box, threshold, out), 2u);
    EXPECT_NEAR(out[0].gap, -0.01, kTol);
    EXPECT_NEAR(out[1].gap, -0.01, kTol);
    expect_vec(out[0].point, Vec3(-0.5, 0.2, 1));
    expect_vec(out[1].point, Vec3(0.5, 0.2, 1));
  }
  // The same on a turned box moved up to 1 km away, lying on a face and along an edge (0.01
  // deep at 45° over the edge x = z = 1): the signed distance is constant along the segment
  // up to rounding (~1e-13 m at 1 km), so still two contacts.
  std::mt19937 rng(29);
  const Vec3 along_edge = Vec3(1, 0, 1) + 0.29 * Vec3(1, 0, 1).normalized();
  for (int k = 0; k < 200; ++k) {
    const Quat q = test_support::random_quaternion(rng);
    const Vec3 c = random_point(rng, 1000.0);
    const body::Box turned{c, Vec3(1, 1, 1), q};
    ASSERT_EQ(capsule_primitive(c + q * a, c + q * b, 0.3, turned, kThresholdAll, out), 2u);
    EXPECT_NEAR(out[0].gap, -0.01, 1e-12);
    const Vec3 e0 = c + q * (along_edge - Vec3(0, 0.5, 0));
    const Vec3 e1 = c + q * (along_edge + Vec3(0, 0.5, 0));
    ASSERT_EQ(capsule_primitive(e0, e1, 0.3, turned, kThresholdAll, out), 2u);
    EXPECT_NEAR(out[1].gap, -0.01, 1e-12);
  }
  // Across the edge x = z = 1, the segment (ℓ = 2) perpendicular to the edge's bisector m at
  // height h = 0.25 over it; r = 0.3. The distance is √(h² + u²) near the middle (u: the
  // offset along the segment), and the ends are (1 + h)/√2 above the faces (gap 0.584).
  // Bisection on the slope finds the middle within 1e-15 ℓ (offset u < 2e-15 m), so the gap
  // is h − r to rounding (its error is u²/2h), the normal within u/h < 1e-14 of m, and the
  // point is the edge's (corner's) own.
  const double h = 0.25, r = 0.3;
  const auto check_interior = [&](const Vec3& feature, const Vec3& m, const Vec3& e) {
    const Vec3 mid = feature + h * m, a = mid - e, b = mid + e;
    ASSERT_EQ(capsule_primitive(a, b, r, box, 0.0, out), 1u);
    EXPECT_NEAR(out[0].gap, h - r, kTol);
    expect_vec(out[0].normal, m);
    expect_vec(out[0].point, feature);
    // Brute force: the least sphere_box gap over 20001 samples (δ = 1e-4: within δ/2 = 5e-5),
    // refined by golden section (within kBrute).
    const Least brute = sampled_then_refined(
        [&](double t) {
          ContactGeometry g;
          EXPECT_TRUE(sphere_box(a + t * (b - a), r, box, kThresholdAll, g));
          return g.gap;
        },
        20001);
    EXPECT_LE(out[0].gap, brute.sampled + kBrute);
    EXPECT_GE(out[0].gap, brute.sampled - 5e-5);
    EXPECT_NEAR(out[0].gap, brute.refined, kBrute);
    // With every gap reported: the two ends and the interior contact.
    ASSERT_EQ(capsule_primitive(a, b, r, box, kThresholdAll, out), 3u);
    EXPECT_NEAR(out[0].gap, out[1].gap, kTol);
    EXPECT_GT(out[0].gap, h - r + 0.5);
    EXPECT_NEAR(out[2].gap, h - r, kTol);
  };
  check_interior(Vec3(1, 0, 1), Vec3(1, 0, 1).normalized(), Vec3(1, 0, -1).normalized());
  check_interior(Vec3(1, 1, 1), Vec3(1, 1, 1).normalized(), Vec3(1, -1, 0).normalized());
}

// Solid cylinder (axis y, R = 1, L = 2): flat on the mantle along the axis (two end
// contacts), across the mantle (the contact at the top of the mantle under its middle), across
// the rim of a cap (the rim point: in the plane x = 0, which holds the axis, the cylinder is
// the rectangle |y| <= 2, |z| <= 1, so this is the box's edge case).
TEST(CapsuleContacts, SolidCylinderMantleAndRim) {
  const body::Cylinder cylinder{Vec3(0, 0, 0), Vec3(0, 1, 0), 1.0, 2.0};
  ContactGeometry out[kCapsulePrimitiveContacts];
  for (const double threshold : {0.0, kThresholdAll}) {
    ASSERT_EQ(capsule_primitive(Vec3(0, -1, 1.25), Vec3(0, 1, 1.25), 0.3, cylinder, threshold, out),
              2u);
    EXPECT_NEAR(out[0].gap, -0.05, kTol);
    EXPECT_NEAR(out[1].gap, -0.05, kTol);
    expect_vec(out[0].point, Vec3(0, -1, 1));
    expect_vec(out[1].normal, Vec3(0, 0, 1));
  }
  // Lying on the mantle (centre 1.29 from the axis, ℓ = 1) skewed by α in the tangent plane:
  // the middle is nearer the axis than the ends by √(1.29² + 0.25 sin² α) − 1.29 ≈ 0.097 sin² α:
  // 8.7e-11 m for α = 3e-5, below the margin 1e-9 (r + ℓ) = 1.3e-9 m (two contacts); 9.7e-8 m
  // for α = 1e-3, above it (three).
  for (const auto& [alpha, count] : {std::pair{3e-5, 2u}, std::pair{1e-3, 3u}}) {
    const Vec3 half = 0.5 * Vec3(std::sin(alpha), std::cos(alpha), 0);
    ASSERT_EQ(capsule_primitive(Vec3(0, 0, 1.29) - half, Vec3(0, 0, 1.29) + half, 0.3, cylinder,
                                kThresholdAll, out),
              count);
    // The last contact: the middle's (gap −0.01) if three, else end b's.
    const double end_gap = std::hypot(1.29, 0.5 * std::sin(alpha)) - 1.3;
    EXPECT_NEAR(out[count - 1].gap, count == 3 ? -0.01 : end_gap, kTol);
  }
  // Across the mantle at height 1.2, ℓ = 3: least distance 0.2 at the middle; the ends'
  // √(1.5² + 1.2²) − 1 = 0.921. The search's offset (< 3e-15 m) again tilts the normal by
  // less than 1e-14.
  ASSERT_EQ(capsule_primitive(Vec3(-1.5, 0, 1.2), Vec3(1.5, 0, 1.2), 0.3, cylinder, 0.0, out), 1u);
  EXPECT_NEAR(out[0].gap, -0.1, kTol);
  expect_vec(out[0].normal, Vec3(0, 0, 1));
  expect_vec(out[0].point, Vec3(0, 0, 1));
  // Across the rim at (0, 2, 1), 0.25 above it.
  const Vec3 m = Vec3(0, 1, 1).normalized(), e = Vec3(0, 1, -1).normalized();
  const Vec3 mid = Vec3(0, 2, 1) + 0.25 * m;
  ASSERT_EQ(capsule_primitive(mid - e, mid + e, 0.3, cylinder, 0.0, out), 1u);
  EXPECT_NEAR(out[0].gap, -0.05, kTol);
  expect_vec(out[0].normal, m);
  expect_vec(out[0].point, Vec3(0, 2, 1));
}

// Drum (hollow cylinder, axis z, R = 2, L = 3): the walls' gaps are concave (mantle) or affine
// (caps) along the segment, so the end spheres carry every least gap.
TEST(CapsuleContacts, DrumEndContacts) {
  const body::Cylinder drum{Vec3(0, 0, 0), Vec3(0, 0, 1), 2.0, 3.0, true};
  ContactGeometry out[kCapsulePrimitiveContacts];
  // Along the mantle, touching it with both ends (0.01 deep): two mantle contacts.
  ASSERT_EQ(capsule_primitive(Vec3(1.7, 0, -1), Vec3(1.7, 0, 1), 0.31, drum, 0.0, out), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_NEAR(out[k].gap, -0.01, kTol);
    expect_vec(out[k].normal, Vec3(-1, 0, 0));
  }
  expect_vec(out[0].point, Vec3(2, 0, -1));
  expect_vec(out[1].point, Vec3(2, 0, 1));
  // Lying on the bottom cap, 0.05 deep: two cap contacts.
  ASSERT_EQ(capsule_primitive(Vec3(-0.5, 0, -2.75), Vec3(0.5, 0, -2.75), 0.3, drum, 0.0, out), 2u);
  expect_vec(out[0].point, Vec3(-0.5, 0, -3));
  expect_vec(out[1].normal, Vec3(0, 0, 1));
  EXPECT_NEAR(out[1].gap, -0.05, kTol);
  // Every wall's gap reported: three per end, six in all (the capacity).
  ASSERT_EQ(capsule_primitive(Vec3(-1, 0, 0), Vec3(1, 0.5, 0), 0.3, drum, kThresholdAll, out),
            kCapsulePrimitiveContacts);
}

// Random placements against every primitive kind: the least reported gap equals the least
// gap over 20001 samples of the segment within the sampling error (least sample − δ/2 <=
// least <= least sample + margin, δ = ℓ/20000), and the golden-refined least within the
// interior margin 1e-9 (r + ℓ) plus kBrute (the least is an end's when the interior is not
// lower by the margin). Witness points lie on the primitive's surface (|sd| <= 1e-13: a few
// roundings of coordinates up to ~5 m; observed 1.3e-15) and body 1's within r of the segment
// (on the capsule's surface for the least-gap contact when it is open).
TEST(CapsuleContacts, PrimitivesAgreeWithBruteForce) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int interior = 0;
  for (int kind = 0; kind < 4; ++kind)
    for (int k = 0; k < 60; ++k) {
      SCOPED_TRACE("kind " + std::to_string(kind) + " case " + std::to_string(k));
      body::Primitive p;
      const Vec3 centre = random_point(rng, 0.5);
      Vec3 a = centre + random_point(rng, 2.5), b = centre + random_point(rng, 2.5);
      if (kind == 0) {
        p = body::HalfSpace{centre, random_unit(rng)};
      } else if (kind == 1) {
        const Vec3 half(0.3 + 1.2 * u(rng), 0.3 + 1.2 * u(rng), 0.3 + 1.2 * u(rng));
        p = body::Box{centre, half, test_support::random_quaternion(rng)};
      } else {
        const Vec3 axis = random_unit(rng);
        const double R = 0.3 + 1.2 * u(rng), L = 0.3 + 1.2 * u(rng);
        p = body::Cylinder{centre, axis, kind == 3 ? R + 1.0 : R, kind == 3 ? L + 1.0 : L,
                           kind == 3};
        if (kind == 3) {  // inside the drum: radius <= 0.95 R, height <= 0.95 L
          const auto inside = [&] {
            const Vec3 radial = random_perpendicular(rng, axis);
            return Vec3(centre + 0.95 * (R + 1.0) * std::sqrt(u(rng)) * radial +
                        0.95 * (L + 1.0) * (2.0 * u(rng) - 1.0) * axis);
          };
          a = inside(), b = inside();
        }
      }
      const double r = 0.05 + 0.45 * u(rng), length = (b - a).norm();
      ContactGeometry out[kCapsulePrimitiveContacts];
      const std::size_t n = capsule_primitive(a, b, r, p, kThresholdAll, out);
      ASSERT_GE(n, 2u);
      interior += kind != 0 && kind != 3 && n == 3;
      const double least = least_gap(out, n), margin = 1e-9 * (r + length);
      const Least brute = primitive_least_gap(a, b, r, p);
      EXPECT_LE(least, brute.sampled + margin + kBrute);
      EXPECT_GE(least, brute.sampled - length / 20000.0 / 2.0 - kBrute);
      EXPECT_NEAR(least, brute.refined, margin + kBrute);
      for (std::size_t j = 0; j < n; ++j) {
        EXPECT_NEAR(body::signed_distance(p, out[j].point), 0.0, 1e-13);
        EXPECT_LE(point_segment(out[j].point1(), a, b), r + kBrute);
        if (out[j].gap == least && least > 0.0) {
          EXPECT_NEAR(point_segment(out[j].point1(), a, b), r, kBrute);
        }
      }
    }
  // The interior search is exercised.
  EXPECT_GT(interior, 20);
}

// A zero-length capsule against a primitive is a sphere: sphere_part's contacts, bit for bit.
TEST(CapsuleContacts, ZeroLengthCapsuleAgainstPrimitiveIsASphere) {
  const std::vector<body::Primitive> shapes = {
      body::HalfSpace{Vec3(0, 0, 0), Vec3(0, 0, 1)},
      body::Box{Vec3(0, 0, 0), Vec3(1, 0.5, 0.7), Quat(Eigen::AngleAxisd(0.4, Vec3::UnitX()))},
      body::Cylinder{Vec3(0, 0, 0), Vec3(0, 0, 1), 1.0, 1.0},
      body::Cylinder{Vec3(0, 0, 0), Vec3(0, 0, 1), 1.0, 1.0, true}};
  std::mt19937 rng(31);
  for (const auto& shape : shapes)
    for (int k = 0; k < 200; ++k) {
      const Vec3 x = random_point(rng, 1.5);
      ContactGeometry c[kCapsulePrimitiveContacts], s[3];
      const std::size_t n = sphere_part(x, 0.3, shape, 0.2, s);
      ASSERT_EQ(capsule_primitive(x, x, 0.3, shape, 0.2, c), n);
      for (std::size_t j = 0; j < n; ++j) {
        EXPECT_EQ(c[j].gap, s[j].gap);
        EXPECT_EQ(c[j].normal, s[j].normal);
        EXPECT_EQ(c[j].point, s[j].point);
      }
    }
}

// Unions of two boxes. Flush (sharing the face x = 0): a capsule lying across the seam, 0.05
// into the top, gets one contact per end, both on the top face. Overlapping (x in [-0.1, 0]
// common): a capsule plunging in at the seam has members' contacts whose points are buried in
// the other member (none may be reported), and one lying on the common top gets its end
// contact once, not once per member.
TEST(CapsuleContacts, GlobalUnionSkipsBuriedContacts) {
  ContactGeometry out[16];
  const double r = 0.3, deep = 1e-9 * r;
  const auto none_buried = [&](const body::GlobalBody& body, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j)
      for (const body::Primitive& part : body.parts)
        EXPECT_GE(body::signed_distance(part, out[j].point), -deep) << "contact " << j;
  };
  body::GlobalBody flush;
  flush.parts = {body::Box{Vec3(-1, 0, 0), Vec3(1, 1, 1), Quat::Identity()},
                 body::Box{Vec3(1, 0, 0), Vec3(1, 1, 1), Quat::Identity()}};
  std::size_t n = capsule_global(Vec3(-0.5, 0, 1.25), Vec3(0.5, 0, 1.25), r, flush, 0.0, out, 16);
  ASSERT_EQ(n, 2u);
  for (std::size_t j = 0; j < n; ++j) {
    EXPECT_NEAR(out[j].gap, -0.05, kTol);
    expect_vec(out[j].normal, Vec3(0, 0, 1));
  }
  expect_vec(out[0].point, Vec3(-0.5, 0, 1));
  expect_vec(out[1].point, Vec3(0.5, 0, 1));
  none_buried(flush, n);

  body::GlobalBody overlapping;
  overlapping.parts = {body::Box{Vec3(-1, 0, 0), Vec3(1, 1, 1), Quat::Identity()},
                       body::Box{Vec3(0.9, 0, 0), Vec3(1, 1, 1), Quat::Identity()}};
  const Vec3 a(-0.3, 0, 1.2), b(0.25, 0, 0.4);
  // The members alone do report buried points (so the filter is what this checks).
  int buried = 0;
  for (std::size_t k = 0; k < 2; ++k) {
    ContactGeometry alone[kCapsulePrimitiveContacts];
    const std::size_t m = capsule_primitive(a, b, r, overlapping.parts[k], 0.0, alone);
    for (std::size_t j = 0; j < m; ++j)
      buried += body::signed_distance(overlapping.parts[1 - k], alone[j].point) < -deep;
  }
  ASSERT_GE(buried, 2);
  n = capsule_global(a, b, r, overlapping, 0.0, out, 16);
  ASSERT_GE(n, 1u);
  none_buried(overlapping, n);
  // End a's contact with the top face (0.1 deep) is among them.
  bool top = false;
  for (std::size_t j = 0; j < n; ++j)
    top = top || ((out[j].point - Vec3(-0.3, 0, 1)).norm() < kTol && out[j].gap < -0.1 + kTol &&
                  (out[j].normal - Vec3(0, 0, 1)).norm() < kTol);
  EXPECT_TRUE(top);
  // Lying on the common top from x = -0.05 (over both members) to x = 1: end a's contact once.
  n = capsule_global(Vec3(-0.05, 0, 1.25), Vec3(1, 0, 1.25), r, overlapping, 0.0, out, 16);
  ASSERT_EQ(n, 2u);
  expect_vec(out[0].point, Vec3(-0.05, 0, 1));
  expect_vec(out[1].point, Vec3(1, 0, 1));
  // The capacity caps the count.
  EXPECT_EQ(capsule_global(Vec3(-0.05, 0, 1.25), Vec3(1, 0, 1.25), r, overlapping, 0.0, out, 1),
            1u);
}
