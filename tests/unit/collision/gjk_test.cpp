// GJK distance (granite/collision/gjk.hpp) against references that never use it: the closest
// point of a box by clamping in the box frame, closed-form closest points of two segments
// (Ericson, Real-Time Collision Detection §5.1.9), distances exact by construction (two point
// sets on either side of a slab, each with one vertex on its face), and for random polytopes
// the duality sandwich: for any unit u and any p_a ∈ A, p_b ∈ B,
//   ℓ(u) = −(h_A(−u) + h_B(u)) <= distance(A, B) <= |p_a − p_b|
// (h the support function: max over the set of u·x), so that u = (p_a − p_b)/|p_a − p_b| from
// the returned witness points brackets the true distance between two numbers the test computes
// itself; GJK's stopping test makes the bracket close.
//
// Error bounds used by the tolerances (ε = 2.2e-16; S the largest |coordinate| of the scene; d
// the distance; R_A, R_B the sets' radii about their centroids):
// - GJK stops with |v| − d <= 1e-12 |v| (the duality gap test at the default relative
//   tolerance) or with the gap at the rounding floor, 16 ε L <= 32 ε S (L <= 2S, the size of
//   A − B); |v| itself, a convex combination of <= 4 support points, is rounded to <= ~8 ε S;
// - the witness points are the same combinations of points of norm <= S: <= ~8 ε S each; the
//   test's dot products, norms and frame changes add a few ε S;
// so a distance or a point is within 1e-12 d + kRound S of its reference, kRound = 128 ε (about
// twice the sum of the terms above). The sandwich also tilts u: p_a − p_b differs from GJK's v
// by <= ~16 ε S, turning u by <= 32 ε S / d, and ℓ is Lipschitz in u with constant <= R_A + R_B
// + |c_A − c_B| <= 2 (R_A + R_B) + d, which moves ℓ by <= 32 ε S + 64 ε S (R_A + R_B) / d:
// the sandwich closes to 1e-12 d + kRound S (1 + (R_A + R_B) / d).
// They assume that v's direction, good to ~ε L / d, picks the right support points: that can
// fail only where A − B is thinner than ~ε L² / d near the closest point (gjk.hpp, Accuracy),
// which no scene here is where d is small.
#include "granite/collision/gjk.hpp"

#include <Eigen/QR>
#include "../../support/random_rotation.hpp"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <utility>
#include <vector>

using namespace granite;
using namespace granite::collision;

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kRelative = 1e-12;  // gjk_distance's default relative tolerance
constexpr double kRound = 128.0 * kEps;

using Points = std::vector<Vec3>;

Vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Vec3(n(rng), n(rng), n(rng)).normalized();
}
Vec3 random_point(std::mt19937& rng, double half_width) {
  std::uniform_real_distribution<double> u(-half_width, half_width);
  return Vec3(u(rng), u(rng), u(rng));
}

double support_value(const Points& p, const Vec3& n) {
  double h = -std::numeric_limits<double>::infinity();
  for (const Vec3& x : p) h = std::max(h, n.dot(x));
  return h;
}
double max_norm(const Points& p) {
  double s = 0.0;
  for (const Vec3& x : p) s = std::max(s, x.norm());
  return s;
}
Vec3 centroid(const Points& p) {
  Vec3 c = Vec3::Zero();
  for (const Vec3& x : p) c += x;
  return c / static_cast<double>(p.size());
}
double radius(const Points& p) {
  const Vec3 c = centroid(p);
  double r = 0.0;
  for (const Vec3& x : p) r = std::max(r, (x - c).norm());
  return r;
}
Points transformed(const Points& p, const Mat3& rot, const Vec3& shift) {
  Points q;
  for (const Vec3& x : p) q.push_back(rot * x + shift);
  return q;
}

GjkResult gjk(const Points& a, const Points& b) {
  return gjk_distance(PointSetSupport{a.data(), a.size()}, PointSetSupport{b.data(), b.size()},
                      centroid(a) - centroid(b));
}

bool finite(const GjkResult& r) {
  return std::isfinite(r.distance) && r.point_a.allFinite() && r.point_b.allFinite();
}

// Mean and largest iteration counts, printed by the tests.
struct IterationStats {
  long count = 0, sum = 0;
  int max = 0;
  void add(int k) { ++count, sum += k, max = std::max(max, k); }
  void print(const char* what) const {
    std::printf("[ %-16s ] %s: %ld queries, iterations mean %.2f, max %d\n", "gjk", what, count,
                static_cast<double>(sum) / static_cast<double>(count), max);
  }
};

// p in hull(set), as far as supports can tell: n·p <= h(n) for the six axis directions and 64
// random ones (necessary; sufficient in the limit of all directions). p is a combination of
// <= 4 points: rounded by <= 8 ε S, the dot products by a few ε S more.
void expect_in_hull(const Vec3& p, const Points& set, std::mt19937& rng, const char* which) {
  const double tol = 32.0 * kEps * std::max(max_norm(set), p.norm());
  for (int k = 0; k < 70; ++k) {
    const Vec3 n =
        k < 6 ? Vec3((k % 3 == 0) ? 1.0 : 0.0, (k % 3 == 1) ? 1.0 : 0.0, (k % 3 == 2) ? 1.0 : 0.0) *
                    (k < 3 ? 1.0 : -1.0)
              : random_unit(rng);
    EXPECT_LE(n.dot(p), support_value(set, n) + tol)
        << which << " outside its set along " << n.transpose();
  }
}

// The checks of a result for point sets a and b: finite, converged, witness points in their
// sets; if overlap, the two witnesses a common point; else distance = |p_a − p_b| and the
// sandwich closed. Returns the sandwich's width over the distance (0 for an overlap).
double expect_optimal(const GjkResult& r, const Points& a, const Points& b, std::mt19937& rng) {
  const double s = std::max(max_norm(a), max_norm(b));
  EXPECT_TRUE(finite(r));
  EXPECT_TRUE(r.converged);
  expect_in_hull(r.point_a, a, rng, "point_a");
  expect_in_hull(r.point_b, b, rng, "point_b");
  const Vec3 diff = r.point_a - r.point_b;
  if (r.overlap) {
    EXPECT_EQ(r.distance, 0.0);
    EXPECT_LE(diff.norm(), kRound * s);
    return 0.0;
  }
  const double d = r.distance;
  EXPECT_GT(d, 0.0);
  EXPECT_NEAR(diff.norm(), d, kRound * s);
  const Vec3 u = diff.normalized();
  const double lower = -(support_value(a, -u) + support_value(b, u));
  const double width = d - lower;
  EXPECT_GE(width, -kRound * s);  // lower <= true distance <= |p_a − p_b|
  EXPECT_LE(width, kRelative * d + kRound * s * (1.0 + (radius(a) + radius(b)) / d))
      << "distance " << d << " lower bound " << lower;
  return width / d;
}

// n random points in a ball of the given radius about c, squashed along a random axis by
// `flat` (1: round, small: a flat cloud).
Points random_cloud(std::mt19937& rng, int n, const Vec3& c, double r, double flat = 1.0) {
  const Vec3 axis = random_unit(rng);
  Points p;
  while (static_cast<int>(p.size()) < n) {
    const Vec3 x = random_point(rng, 1.0);
    if (x.squaredNorm() > 1.0) continue;
    p.push_back(c + r * (x - (1.0 - flat) * x.dot(axis) * axis));
  }
  return p;
}

// Closest points of the segments [p1, q1] and [p2, q2] (Ericson, Real-Time Collision Detection
// §5.1.9): the parameters of the lines' closest points, clamped to [0, 1] with the other
// recomputed; parallel segments (a e − b² = 0) start from s = 0.
std::pair<Vec3, Vec3> closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2,
                                              const Vec3& q2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.dot(d1), e = d2.dot(d2), f = d2.dot(r);
  const auto clamp01 = [](double x) { return std::clamp(x, 0.0, 1.0); };
  double s = 0.0, t = 0.0;
  if (a == 0.0 && e == 0.0) {
    s = t = 0.0;
  } else if (a == 0.0) {
    t = clamp01(f / e);
  } else {
    const double c = d1.dot(r);
    if (e == 0.0) {
      s = clamp01(-c / a);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      s = denom != 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0, s = clamp01(-c / a);
      } else if (t > 1.0) {
        t = 1.0, s = clamp01((b - c) / a);
      }
    }
  }
  return {p1 + s * d1, p2 + t * d2};
}

// Distance from x to the segment [p, q].
double point_segment_distance(const Vec3& x, const Vec3& p, const Vec3& q) {
  const Vec3 d = q - p;
  const double dd = d.squaredNorm();
  const double t = dd > 0.0 ? std::clamp((x - p).dot(d) / dd, 0.0, 1.0) : 0.0;
  return (x - (p + t * d)).norm();
}

}  // namespace

// The sub-algorithm alone: the returned point is the least-norm point of the hull of the
// original vertices iff p·(w_i − p) >= 0 for every vertex w_i (p minimises |x|² over the hull,
// a convex set). The weights are positive (the sub-simplex is the smallest), sum to 1, and
// give p. Random simplices (conditioning bounded: every vertex at least 0.05 of the diameter
// from the others' affine hull, so that p is rounded to <= ~100 · 8 ε L, L the largest |w_i|)
// and exactly degenerate ones (dyadic coordinates: repeated, collinear, coplanar vertices).
TEST(GjkSignedVolumes, LeastNormPointOfRandomSimplices) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> dyadic(-8, 8), count_of(1, 4);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int kept[5] = {0, 0, 0, 0, 0};
  for (int trial = 0; trial < 20000; ++trial) {
    const int count = count_of(rng);
    const bool degenerate = trial % 2 == 1;
    Vec3 w[4];
    if (degenerate) {
      // Points on a random dyadic line or plane through a dyadic point: exact.
      const auto dv = [&] {
        const double x = dyadic(rng), y = dyadic(rng), z = dyadic(rng);
        return Vec3(x / 4.0, y / 4.0, z / 4.0);
      };
      const Vec3 o = dv(), e1 = dv(), e2 = dv();
      const int dims = trial % 3;  // 0: one point repeated, 1: collinear, 2: coplanar
      for (int k = 0; k < count; ++k) {
        const double s = dyadic(rng) / 4.0, t = dyadic(rng) / 4.0;
        w[k] = o + Vec3(dims >= 1 ? Vec3(s * e1) : Vec3::Zero()) +
               Vec3(dims == 2 ? Vec3(t * e2) : Vec3::Zero());
      }
    } else {
      // Every other one about the origin, which is then often inside.
      const Vec3 c = trial % 4 == 0 ? Vec3::Zero() : Vec3(random_unit(rng) * 2.0 * u(rng));
      for (int k = 0; k < count; ++k) w[k] = c + random_point(rng, 1.0);
      // Bounded conditioning: each vertex's distance to the others' affine hull >= 0.05 diam.
      double diam = 0.0;
      for (int i = 0; i < count; ++i)
        for (int j = 0; j < count; ++j) diam = std::max(diam, (w[i] - w[j]).norm());
      bool ok = true;
      for (int i = 0; i < count && count > 1; ++i) {
        Eigen::Matrix<double, 3, Eigen::Dynamic> e(3, count - 2);
        int col = 0;
        const int base = i == 0 ? 1 : 0;
        for (int j = 0; j < count; ++j)
          if (j != i && j != base) e.col(col++) = w[j] - w[base];
        Vec3 r = w[i] - w[base];
        if (col > 0) {
          const Eigen::HouseholderQR<Eigen::MatrixXd> qr(e);
          r -= e * qr.solve(r);
        }
        ok = ok && r.norm() >= 0.05 * diam;
      }
      if (!ok) continue;
    }
    Simplex s;
    for (int k = 0; k < count; ++k) s.vertices[k] = {w[k], w[k], Vec3::Zero()};
    s.count = count;
    const Vec3 p = signed_volumes(s);
    ASSERT_GE(s.count, 1);
    ASSERT_LE(s.count, count);
    ++kept[s.count];
    double l = 0.0;
    for (int k = 0; k < count; ++k) l = std::max(l, w[k].norm());
    ASSERT_TRUE(p.allFinite());
    // Σ λ w: for a triangle the point is its plane's projection, the weights are good to
    // ~ε / sin θ (θ its least angle, sin θ >= 0.05 here).
    EXPECT_LE((p - s.point()).norm(), 100.0 * 8.0 * kEps * l);
    EXPECT_EQ(s.point(), s.point_a());  // a = w here
    double sum = 0.0;
    for (int k = 0; k < s.count; ++k) {
      EXPECT_GT(s.weights[k], 0.0);
      sum += s.weights[k];
    }
    EXPECT_NEAR(sum, 1.0, 8.0 * kEps);
    const double tol = 100.0 * 8.0 * kEps * l * 2.0 * l;  // |δp| |w_i − p|
    for (int k = 0; k < count; ++k) EXPECT_GE(p.dot(w[k] - p), -tol) << "trial " << trial;
  }
  // Every size of sub-simplex occurs.
  for (int k = 1; k <= 4; ++k) EXPECT_GT(kept[k], 100) << k << " vertices kept";
}

// Sliver triangles (heights h = 1e-4 to 1e-8 of their length ~1) in a plane at distance δ
// from the origin, over the origin's foot q0 = δ n (between the long edge and the apex): the
// point of least norm is q0. Rounding the vertices (~ε L, L ~ 1) turns the plane by α ~ ε L / h
// about a line of the sliver, h / 3 or so from q0: the foot moves by ~ε L + δ α, its norm by
// ~ε L only (δ α²/2 more). So | |p| − δ | <= 64 ε L and |p − q0| <= 64 ε L (1 + δ / h). (Σ λ w
// from the weights would be off by ~ε L / sin θ: 1e-8 L for the thinnest.)
TEST(GjkSignedVolumes, SliverTriangleNearOrigin) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 n = random_unit(rng);
    const Vec3 e = (random_unit(rng) - random_unit(rng)).cross(n).normalized();
    const Vec3 f = n.cross(e);
    const double h = std::pow(10.0, -4.0 - 4.0 * u(rng));
    const double delta = trial % 3 == 0 ? 0.0 : std::pow(10.0, -12.0 + 9.0 * u(rng));
    const Vec3 q0 = delta * n;
    Simplex s;
    s.vertices[0].w = q0 - (0.3 + 0.5 * u(rng)) * e - (h / 3.0) * f;
    s.vertices[1].w = q0 + (0.3 + 0.5 * u(rng)) * e - (h / 3.0) * f;
    s.vertices[2].w = q0 + (0.4 * u(rng) - 0.2) * e + (2.0 * h / 3.0) * f;
    s.count = 3;
    double l = 0.0;
    for (int k = 0; k < 3; ++k) l = std::max(l, s.vertices[k].w.norm());
    const Vec3 p = signed_volumes(s);
    ASSERT_TRUE(p.allFinite());
    EXPECT_NEAR(p.norm(), delta, 64.0 * kEps * l) << "trial " << trial << " h " << h;
    EXPECT_LE((p - q0).norm(), 64.0 * kEps * l * (1.0 + delta / h)) << "trial " << trial;
  }
}

TEST(GjkSignedVolumes, HandComputedCases) {
  // Triangle in the plane z = 1 around (0, 0, 1): weights (1/2, 1/4, 1/4).
  Simplex s;
  s.vertices[0].w = Vec3(1, 0, 1), s.vertices[1].w = Vec3(-1, 1, 1),
  s.vertices[2].w = Vec3(-1, -1, 1);
  s.count = 3;
  Vec3 p = signed_volumes(s);
  ASSERT_EQ(s.count, 3);
  EXPECT_LE((p - Vec3(0, 0, 1)).norm(), 4 * kEps);
  EXPECT_NEAR(s.weights[0], 0.5, 4 * kEps);
  EXPECT_NEAR(s.weights[1], 0.25, 4 * kEps);
  EXPECT_NEAR(s.weights[2], 0.25, 4 * kEps);
  // The same triangle and a fourth vertex below the origin: the origin is inside.
  s.vertices[3].w = Vec3(0, 0, -1);
  s.count = 4;
  p = signed_volumes(s);
  ASSERT_EQ(s.count, 4);
  EXPECT_LE(p.norm(), 4 * kEps);
  // Segment from (1, -1, 0) to (1, 3, 0): nearest (1, 0, 0), weights (3/4, 1/4).
  Simplex g;
  g.vertices[0].w = Vec3(1, -1, 0), g.vertices[1].w = Vec3(1, 3, 0);
  g.count = 2;
  p = signed_volumes(g);
  ASSERT_EQ(g.count, 2);
  EXPECT_LE((p - Vec3(1, 0, 0)).norm(), 4 * kEps);
  EXPECT_NEAR(g.weights[0], 0.75, 4 * kEps);
  // Segment beyond its end: the vertex, which moves to the front.
  g.vertices[0].w = Vec3(1, 3, 0), g.vertices[1].w = Vec3(1, 1, 0);
  g.count = 2;
  p = signed_volumes(g);
  ASSERT_EQ(g.count, 1);
  EXPECT_EQ(g.vertices[0].w, Vec3(1, 1, 0));
  EXPECT_EQ(p, Vec3(1, 1, 0));
}

// Point x against a box (8 vertices, random rotation and centre): the distance is |X − q|, q the
// clamp of x's box-frame coordinates X to [−h, h]. The witness on the box, in the box frame Y,
// is checked through the support certificate c = h_box(n) − n·Y, n = (X − Y)/|X − Y|: c is the
// sandwich width (bound in the header), and in the box frame c = Σ_i |n_i| (h_i − sign(n_i)
// Y_i), each term >= 0, which gives |Y_i − q_i| <= c |X − Y| / m_i with m_i = | |X_i| − h_i |
// (for a coordinate outside the slab and for one inside alike): the witness is first-order
// accurate wherever x is not on a slab boundary.
TEST(GjkPointBox, DistanceAndClosestPointMatchClamp) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  IterationStats stats;
  double worst_distance = 0.0, worst_witness = 0.0;
  int checked = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Vec3 h(0.2 + 1.3 * u(rng), 0.2 + 1.3 * u(rng), 0.2 + 1.3 * u(rng));
    const Mat3 rot = test_support::random_rotation_matrix(rng);
    const Vec3 c = random_point(rng, 2.0);
    Points box;
    for (int k = 0; k < 8; ++k) {
      const Vec3 corner((k & 1) ? h[0] : -h[0], (k & 2) ? h[1] : -h[1], (k & 4) ? h[2] : -h[2]);
      box.push_back(c + rot * corner);
    }
    Vec3 x_local;
    for (int i = 0; i < 3; ++i) x_local[i] = h[i] * (-3.0 + 6.0 * u(rng));
    if ((x_local.cwiseAbs() - h).maxCoeff() < 0.0) continue;  // inside: the next test
    const Vec3 x = c + rot * x_local;
    const Points point{x};
    const GjkResult r = gjk(point, box);
    const Vec3 q = x_local.cwiseMax(-h).cwiseMin(h);
    const double d = (x_local - q).norm();
    const double s = std::max(max_norm(box), x.norm());
    ASSERT_TRUE(finite(r));
    EXPECT_TRUE(r.converged);
    ASSERT_FALSE(r.overlap) << "trial " << trial;
    stats.add(r.iterations);
    ++checked;
    EXPECT_NEAR(r.distance, d, kRelative * d + kRound * s) << "trial " << trial;
    worst_distance = std::max(worst_distance, std::abs(r.distance - d) / d);
    EXPECT_LE((r.point_a - x).norm(), kRound * s);
    const Vec3 y = rot.transpose() * (r.point_b - c);
    const double gap = (x_local - y).norm();
    const Vec3 n = (x_local - y) / gap;
    const double certificate = n.cwiseAbs().dot(h) - n.dot(y);
    const double certificate_tol = kRelative * d + kRound * s * (1.0 + h.norm() / d);
    EXPECT_LE(certificate, certificate_tol) << "trial " << trial;
    for (int i = 0; i < 3; ++i) {
      EXPECT_LE(std::abs(y[i]) - h[i], kRound * s) << "witness outside the box";
      const double m = std::abs(std::abs(x_local[i]) - h[i]);
      EXPECT_LE(std::abs(y[i] - q[i]), certificate_tol * gap / m + kRound * s)
          << "trial " << trial << " coordinate " << i;
    }
    worst_witness = std::max(worst_witness, (y - q).norm());
  }
  EXPECT_GT(checked, 3000);
  stats.print("point-box");
  std::printf("[ %-16s ] point-box: max rel. distance error %.1e, max witness error %.1e m\n",
              "gjk", worst_distance, worst_witness);
}

// Points inside the box (at least 5 % of each half-width from the faces): overlap, and the
// witnesses are a common point: x itself, within rounding, on the box side.
TEST(GjkPointBox, InsidePointsOverlap) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 1000; ++trial) {
    const Vec3 h(0.2 + 1.3 * u(rng), 0.2 + 1.3 * u(rng), 0.2 + 1.3 * u(rng));
    const Mat3 rot = test_support::random_rotation_matrix(rng);
    const Vec3 c = random_point(rng, 2.0);
    Points box;
    for (int k = 0; k < 8; ++k) {
      const Vec3 corner((k & 1) ? h[0] : -h[0], (k & 2) ? h[1] : -h[1], (k & 4) ? h[2] : -h[2]);
      box.push_back(c + rot * corner);
    }
    Vec3 x_local;
    for (int i = 0; i < 3; ++i) x_local[i] = h[i] * (-0.95 + 1.9 * u(rng));
    const Vec3 x = c + rot * x_local;
    const Points point{x};
    const GjkResult r = gjk(point, box);
    const double s = std::max(max_norm(box), x.norm());
    ASSERT_TRUE(finite(r));
    EXPECT_TRUE(r.converged);
    EXPECT_TRUE(r.overlap) << "trial " << trial << " distance " << r.distance;
    EXPECT_EQ(r.distance, 0.0);
    EXPECT_LE((r.point_b - x).norm(), kRound * s);
  }
}

// Segment against segment (SegmentSupport) against Ericson's closed form. General segments have
// unique closest points: with the distance within δ of the least, the parameters (s, t) of the
// witnesses are within sqrt((2 d δ + δ²) / μ) of the closest ones (f(s, t) = |p(s) − q(t)|² is
// a quadratic with Hessian 2 M, M = [d1·d1, −d1·d2; −d1·d2, d2·d2], μ its least eigenvalue, and
// f − f* >= Δᵀ M Δ at a constrained minimum). Exactly parallel segments (dyadic coordinates,
// d2 = k d1 exactly) have many closest pairs: only the distance and that the witnesses are on
// the segments are checked.
TEST(GjkSegments, MatchClosedForm) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> dyadic(-16, 16);
  const auto dyadic_vec = [&] {
    const double x = dyadic(rng), y = dyadic(rng), z = dyadic(rng);
    return Vec3(x / 8.0, y / 8.0, z / 8.0);
  };
  IterationStats stats;
  double worst_witness = 0.0;
  int separated = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const bool parallel = trial % 4 == 3;
    Vec3 p1, q1, p2, q2;
    if (parallel) {
      Vec3 d = dyadic_vec();
      while (d.isZero()) d = dyadic_vec();
      const double k[] = {0.5, -0.5, 1.0, -1.0, 2.0, -0.25};
      p1 = dyadic_vec(), q1 = p1 + d;
      p2 = dyadic_vec(), q2 = p2 + k[rng() % 6] * d;
    } else {
      p1 = random_point(rng, 1.0), q1 = random_point(rng, 1.0);
      p2 = random_point(rng, 1.0), q2 = random_point(rng, 1.0);
    }
    const GjkResult r =
        gjk_distance(SegmentSupport{p1, q1}, SegmentSupport{p2, q2}, (p1 + q1 - p2 - q2) / 2.0);
    const auto [c1, c2] = closest_points_segments(p1, q1, p2, q2);
    const double d = (c1 - c2).norm();
    const double s = std::max({p1.norm(), q1.norm(), p2.norm(), q2.norm()});
    ASSERT_TRUE(finite(r));
    EXPECT_TRUE(r.converged);
    stats.add(r.iterations);
    const double tol = kRelative * d + kRound * s;
    if (r.overlap) {  // the segments cross (only if they meet to within rounding)
      EXPECT_LE(d, tol) << "trial " << trial;
      continue;
    }
    ++separated;
    EXPECT_NEAR(r.distance, d, tol) << "trial " << trial;
    EXPECT_NEAR((r.point_a - r.point_b).norm(), r.distance, kRound * s);
    EXPECT_LE(point_segment_distance(r.point_a, p1, q1), kRound * s);
    EXPECT_LE(point_segment_distance(r.point_b, p2, q2), kRound * s);
    if (parallel) continue;
    const Vec3 d1 = q1 - p1, d2 = q2 - p2;
    // Least eigenvalue of M = [a, −b; −b, e]: (a + e)/2 − sqrt(((a − e)/2)² + b²).
    const double ma = d1.dot(d1), mb = d1.dot(d2), me = d2.dot(d2);
    const double mu = (ma + me) / 2.0 - std::hypot((ma - me) / 2.0, mb);
    const double parameter_error = std::sqrt((2.0 * d * tol + tol * tol) / mu);
    EXPECT_LE((r.point_a - c1).norm(), parameter_error * d1.norm() + kRound * s) << trial;
    EXPECT_LE((r.point_b - c2).norm(), parameter_error * d2.norm() + kRound * s) << trial;
    worst_witness = std::max({worst_witness, (r.point_a - c1).norm(), (r.point_b - c2).norm()});
  }
  EXPECT_GT(separated, 3900);
  stats.print("segment-segment");
  std::printf("[ %-16s ] segment-segment: max witness error %.1e m\n", "gjk", worst_witness);
}

// Random convex point sets (6–20 points, round or flat clouds) far apart: the sandwich.
TEST(GjkRandomSets, FarApart) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> size(6, 20);
  IterationStats stats;
  double worst = 0.0;
  for (int trial = 0; trial < 500; ++trial) {
    const Vec3 ca = random_point(rng, 3.0);
    const Vec3 cb = ca + (3.0 + 30.0 * u(rng)) * random_unit(rng);
    const Points a = random_cloud(rng, size(rng), ca, 0.3 + u(rng), trial % 3 ? 1.0 : 0.1);
    const Points b = random_cloud(rng, size(rng), cb, 0.3 + u(rng), trial % 5 ? 1.0 : 0.1);
    const GjkResult r = gjk(a, b);
    EXPECT_FALSE(r.overlap);
    worst = std::max(worst, expect_optimal(r, a, b, rng));
    stats.add(r.iterations);
  }
  stats.print("sets far apart");
  std::printf("[ %-16s ] sets far apart: max sandwich width / distance %.1e\n", "gjk", worst);
}

// Random sets near each other: B moved along a random u until the slab between the planes
// u·x = max_A u·x and u·x = min_B u·x is g wide (g from 0.1 down to 1e-4 of the sets' size).
// The slab separates them: distance >= g (up to the rounding of the shift); the sandwich.
TEST(GjkRandomSets, NearEachOther) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> size(6, 20);
  IterationStats stats;
  double worst = 0.0;
  for (int trial = 0; trial < 800; ++trial) {
    const Vec3 dir = random_unit(rng);
    const Points a =
        random_cloud(rng, size(rng), Vec3::Zero(), 0.5 + u(rng), trial % 3 ? 1.0 : 0.2);
    Points b = random_cloud(rng, size(rng), 2.0 * dir, 0.5 + u(rng), trial % 4 ? 1.0 : 0.2);
    const double g = std::pow(10.0, -1.0 - trial % 4);
    double low = std::numeric_limits<double>::infinity();
    for (const Vec3& x : b) low = std::min(low, dir.dot(x));
    const double shift = g - (low - support_value(a, dir));
    for (Vec3& x : b) x += shift * dir;
    const GjkResult r = gjk(a, b);
    const double s = std::max(max_norm(a), max_norm(b));
    ASSERT_FALSE(r.overlap) << "trial " << trial;
    EXPECT_GE(r.distance, g - kRound * s);
    worst = std::max(worst, expect_optimal(r, a, b, rng));
    stats.add(r.iterations);
  }
  stats.print("sets near");
  std::printf("[ %-16s ] sets near: max sandwich width / distance %.1e\n", "gjk", worst);
}

// Sets sharing an interior point (both hold a small cube about p), and B inside A (A scaled
// by 1/2 about its centroid): overlap, the witnesses a common point of the two sets.
TEST(GjkOverlap, SharedInteriorPointOrContainment) {
  std::mt19937 rng(19);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> size(6, 20);
  IterationStats stats;
  for (int trial = 0; trial < 500; ++trial) {
    const Vec3 p = random_point(rng, 2.0);
    Points a = random_cloud(rng, size(rng), p + 0.5 * random_unit(rng), 0.6 + u(rng));
    Points b;
    if (trial % 2 == 0) {
      b = random_cloud(rng, size(rng), p + 0.5 * random_unit(rng), 0.6 + u(rng));
      for (int k = 0; k < 8; ++k) {
        const Vec3 corner((k & 1) ? 0.05 : -0.05, (k & 2) ? 0.05 : -0.05, (k & 4) ? 0.05 : -0.05);
        a.push_back(p + corner);
        b.push_back(p - corner);
      }
    } else {
      const Vec3 c = centroid(a);
      for (const Vec3& x : a) b.push_back(c + 0.5 * (x - c));
    }
    const GjkResult r = gjk(a, b);
    EXPECT_TRUE(r.overlap) << "trial " << trial << " distance " << r.distance;
    expect_optimal(r, a, b, rng);
    stats.add(r.iterations);
  }
  stats.print("overlapping sets");
}

// Sets at distance exactly 0: unit cubes face to face (whole and partly shifted faces), edge to
// edge and corner to corner, as given and rotated and moved together (where rounding leaves a
// gap or an overlap of a few ε). The query terminates: converged, and an overlap or a distance
// at rounding level.
TEST(GjkTouching, CubesFaceEdgeCorner) {
  std::mt19937 rng(23);
  Points cube;
  for (int k = 0; k < 8; ++k)
    cube.push_back(Vec3((k & 1) ? 1 : 0, (k & 2) ? 1 : 0, (k & 4) ? 1 : 0));
  const Vec3 offsets[] = {{1, 0, 0},   {1, 0.5, 0}, {1, 0.25, 0.75}, {0, 0, -1},   {1, 1, 0},
                          {1, 1, 0.5}, {1, 1, 1},   {-1, -1, -1},    {1, -0.5, 1}, {0.5, 1, 1}};
  IterationStats stats;
  int overlaps = 0;
  for (const Vec3& offset : offsets) {
    for (int turn = 0; turn < 50; ++turn) {
      const Mat3 rot = turn == 0 ? Mat3::Identity() : test_support::random_rotation_matrix(rng);
      const Vec3 shift = turn == 0 ? Vec3::Zero() : random_point(rng, 5.0);
      const Points a = transformed(cube, rot, shift);
      Points b = cube;
      for (Vec3& x : b) x += offset;
      b = transformed(b, rot, shift);
      for (const Vec3& start :
           {Vec3(centroid(a) - centroid(b)), Vec3(Vec3::Zero()), random_unit(rng)}) {
        const GjkResult r = gjk_distance(PointSetSupport{a.data(), a.size()},
                                         PointSetSupport{b.data(), b.size()}, start);
        const double s = std::max(max_norm(a), max_norm(b));
        ASSERT_TRUE(finite(r));
        EXPECT_TRUE(r.converged) << offset.transpose() << " turn " << turn;
        EXPECT_TRUE(r.overlap || r.distance <= kRound * s)
            << offset.transpose() << " turn " << turn << " distance " << r.distance;
        // Either way the witnesses are a common point (within rounding).
        EXPECT_LE((r.point_a - r.point_b).norm(), kRound * s);
        overlaps += r.overlap;
        stats.add(r.iterations);
      }
    }
  }
  stats.print("touching cubes");
  std::printf("[ %-16s ] touching cubes: %d of %ld reported as overlap\n", "gjk", overlaps,
              stats.count);
}

// Cubes face to face at gaps of 2^-40 to 2^-30 of their size (9e-13 to 9e-10 m; exact in
// binary): above the overlap tolerance (64 ε L, L <= 2.3 m here: <= 3.3e-14 m), so separated,
// at the distance of the gap, as given and moved by dyadic shifts (exact); and at 2^-50
// (8.9e-16 m), below it: an overlap or a distance at rounding level.
TEST(GjkTouching, NearlyTouchingCubesAreSeparated) {
  Points cube;
  for (int k = 0; k < 8; ++k)
    cube.push_back(Vec3((k & 1) ? 1 : 0, (k & 2) ? 1 : 0, (k & 4) ? 1 : 0));
  for (const int e : {40, 36, 30, 50}) {
    const double gap = std::ldexp(1.0, -e);
    for (const Vec3& shift : {Vec3(0, 0, 0), Vec3(0.25, -0.5, 0.125), Vec3(-0.5, 0.375, 0.75)}) {
      Points a = cube, b = cube;
      for (Vec3& x : a) x += shift;
      for (Vec3& x : b) x += shift + Vec3(1.0 + gap, 0.25, -0.5);
      const GjkResult r = gjk(a, b);
      const double s = std::max(max_norm(a), max_norm(b));
      ASSERT_TRUE(finite(r));
      EXPECT_TRUE(r.converged);
      if (e == 50) {
        EXPECT_TRUE(r.overlap || r.distance <= kRound * s) << r.distance;
        continue;
      }
      ASSERT_FALSE(r.overlap) << "gap 2^-" << e;
      EXPECT_NEAR(r.distance, gap, kRelative * gap + kRound * s) << "gap 2^-" << e;
      EXPECT_NEAR(r.point_b[0] - r.point_a[0], gap, kRound * s);
    }
  }
}

// Rotating both sets and moving them together leaves the distance: both results are within
// 1e-12 d + kRound S of the true distance (S of the moved scene, up to 10 m from the origin).
TEST(GjkInvariance, RigidMotionOfBothSets) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> size(6, 20);
  for (int trial = 0; trial < 300; ++trial) {
    const Points a = random_cloud(rng, size(rng), random_point(rng, 1.0), 0.3 + u(rng));
    const Points b = random_cloud(rng, size(rng),
                                  random_point(rng, 1.0) + (2.0 + 3.0 * u(rng)) * random_unit(rng),
                                  0.3 + u(rng));
    const GjkResult r = gjk(a, b);
    const Mat3 rot = test_support::random_rotation_matrix(rng);
    const Vec3 shift = random_point(rng, 6.0);
    const Points a2 = transformed(a, rot, shift), b2 = transformed(b, rot, shift);
    const GjkResult r2 = gjk(a2, b2);
    ASSERT_EQ(r.overlap, r2.overlap) << "trial " << trial;
    const double s = std::max({max_norm(a), max_norm(b), max_norm(a2), max_norm(b2)});
    EXPECT_NEAR(r.distance, r2.distance, kRelative * r.distance + 2.0 * kRound * s) << trial;
    // Unique closest points here (random sets): they move with the sets, to first order.
    if (!r.overlap) {
      expect_optimal(r2, a2, b2, rng);
    }
  }
}

// Degenerate inputs: identical sets, one-point sets, collinear and coplanar sets (the same
// line or plane, parallel ones, random ones), repeated points. No NaN, converged, the sandwich
// or a common point.
TEST(GjkDegenerate, NoNanAndOptimal) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> size(1, 12);
  const auto on_line = [&](const Vec3& o, const Vec3& e, int n) {
    Points p;
    for (int k = 0; k < n; ++k) p.push_back(o + (-1.0 + 2.0 * u(rng)) * e);
    return p;
  };
  const auto on_plane = [&](const Vec3& o, const Vec3& e1, const Vec3& e2, int n) {
    Points p;
    for (int k = 0; k < n; ++k) {
      const double s = -1.0 + 2.0 * u(rng), t = -1.0 + 2.0 * u(rng);
      p.push_back(o + s * e1 + t * e2);
    }
    return p;
  };

  IterationStats stats;
  int overlaps = 0, total = 0;
  for (int trial = 0; trial < 1200; ++trial) {
    const Vec3 o = random_point(rng, 2.0), e1 = random_unit(rng), e2 = random_unit(rng);
    Points a, b;
    switch (trial % 12) {
    case 0:  // identical sets
      a = random_cloud(rng, 3 + size(rng), o, 1.0);
      b = a;
      break;
    case 1:  // identical collinear sets
      a = on_line(o, e1, 2 + size(rng));
      b = a;
      break;
    case 2:  // one point against one point
      a = {o};
      b = {random_point(rng, 2.0)};
      break;
    case 3:  // one point against a set
      a = {o};
      b = random_cloud(rng, size(rng), random_point(rng, 2.0), 0.5);
      break;
    case 4:  // collinear against collinear (skew or crossing lines)
      a = on_line(o, e1, size(rng));
      b = on_line(random_point(rng, 1.0), e2, size(rng));
      break;
    case 5:  // collinear sets on the same line
      a = on_line(o, e1, size(rng));
      b = on_line(o + (u(rng) < 0.5 ? 0.0 : 3.0) * e1, e1, size(rng));
      break;
    case 6:  // collinear against coplanar
      a = on_line(o, e1, size(rng));
      b = on_plane(random_point(rng, 1.0), e2, random_unit(rng), size(rng));
      break;
    case 7: {  // coplanar sets in parallel planes
      a = on_plane(o, e1, e2, size(rng));
      const Vec3 normal = e1.cross(e2).normalized();
      const double lift = 0.1 + u(rng);
      b = on_plane(o + lift * normal + 0.5 * random_point(rng, 1.0).cross(normal), e1, e2,
                   size(rng));
      break;
    }
    case 8:  // coplanar sets in the same plane
      a = on_plane(o, e1, e2, size(rng));
      b = on_plane(o + 2.0 * u(rng) * e1, e1, e2, size(rng));
      break;
    case 9:  // coplanar in the plane z = 0 exactly, overlapping about the origin
      a = on_plane(Vec3::Zero(), Vec3(1, 0, 0), Vec3(0, 1, 0), size(rng));
      b = on_plane(Vec3(0.5, 0.5, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), size(rng));
      for (const Vec3& corner : {Vec3(0.1, 0.1, 0), Vec3(0.1, -0.1, 0), Vec3(-0.1, 0.1, 0)}) {
        a.push_back(Vec3(0.3, 0.3, 0) + corner);
        b.push_back(Vec3(0.3, 0.3, 0) - corner);
      }
      break;
    case 10:  // repeated points
      a = random_cloud(rng, size(rng), o, 0.7);
      a.insert(a.end(), a.begin(), a.end());
      b = {Vec3(o + 2.0 * e1), Vec3(o + 2.0 * e1), Vec3(o + 2.0 * e1 + 0.3 * e2)};
      break;
    default:  // coplanar against a random set
      a = on_plane(o, e1, e2, size(rng));
      b = random_cloud(rng, size(rng), random_point(rng, 2.0), 0.5 + u(rng));
      break;
    }
    const GjkResult r = gjk(a, b);
    expect_optimal(r, a, b, rng);
    if (trial % 12 <= 1 || trial % 12 == 9) {
      EXPECT_TRUE(r.overlap) << "trial " << trial;
    }
    if (trial % 12 == 2 && !r.overlap) {
      EXPECT_EQ(r.point_a, a[0]);
      EXPECT_EQ(r.point_b, b[0]);
      EXPECT_EQ(r.distance, (a[0] - b[0]).norm());
    }
    overlaps += r.overlap;
    ++total;
    stats.add(r.iterations);
  }
  stats.print("degenerate");
  std::printf("[ %-16s ] degenerate: %d of %d overlap\n", "gjk", overlaps, total);
}

// Millimetre sets a nanometre apart: in a local frame A's points have x in [−1e-3, −1e-4] but
// one at the origin, B's x in [g + 1e-4, g + 1e-3] but one at (g, 0, 0): the slab 0 <= x <= g
// separates them and the two special points are at distance g, so the distance is g, the
// closest points those two. Rotated and placed near the origin (S ~ 3e-3 m). The distance is
// within 1e-12 g + kRound S (~1e-16 m: 1e-7 of g; rounding of v itself is ~1e-19 m). Witnesses:
// every other point is 1e-4 farther along x than the special one, so a witness point with
// weight 1 − λ off the special vertex raises the x-distance by 1e-4 (1 − λ): λ >= 1 −
// δ / 1e-4, δ the distance tolerance, and the witness is within δ / 1e-4 · (set's diameter).
TEST(GjkScale, MillimetreSetsNanometreGap) {
  std::mt19937 rng(37);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  IterationStats stats;
  double worst = 0.0;
  for (int trial = 0; trial < 300; ++trial) {
    const double g = 1e-9;
    Points a_local{Vec3::Zero()}, b_local{Vec3(g, 0, 0)};
    const int n = 6 + trial % 15;
    for (int k = 0; k < n; ++k) {
      a_local.push_back(Vec3(-1e-4 - 9e-4 * u(rng), 1e-3 * (u(rng) - 0.5), 1e-3 * (u(rng) - 0.5)));
      b_local.push_back(
          Vec3(g + 1e-4 + 9e-4 * u(rng), 1e-3 * (u(rng) - 0.5), 1e-3 * (u(rng) - 0.5)));
    }
    const Mat3 rot = test_support::random_rotation_matrix(rng);
    const Vec3 shift = random_point(rng, 2e-3);
    const Points a = transformed(a_local, rot, shift), b = transformed(b_local, rot, shift);
    const GjkResult r = gjk(a, b);
    const double s = std::max(max_norm(a), max_norm(b));
    ASSERT_TRUE(finite(r));
    EXPECT_TRUE(r.converged);
    ASSERT_FALSE(r.overlap);
    const double tol = kRelative * g + kRound * s;
    EXPECT_NEAR(r.distance, g, tol) << "trial " << trial;
    worst = std::max(worst, std::abs(r.distance - g) / g);
    const double witness_tol = tol / 1e-4 * 2e-3 + kRound * s;
    EXPECT_LE((r.point_a - a[0]).norm(), witness_tol);
    EXPECT_LE((r.point_b - b[0]).norm(), witness_tol);
    stats.add(r.iterations);
  }
  stats.print("mm sets, nm gap");
  std::printf("[ %-16s ] mm sets, nm gap: max relative error of the gap %.1e\n", "gjk", worst);
}

// Balls given by their support functions, s(d) = c + r d/|d|: smooth sets, where GJK converges
// only linearly and stops on the duality gap (or, touching, on the overlap tolerance). The
// distance is |c_A − c_B| − r_A − r_B, to within δ = 1e-12 d + kRound S as above. Witnesses:
// a point of ball A within d + δ of ball B lies in the lens of A beyond the plane where the
// spheres |x − c_A| = r_A and |x − c_B| = r_B + d + δ meet, at r_A − x <= δ below A's nearest
// point p*; the lens's circle has radius² (r_A − x)(r_A + x) <= 2 r_A δ, so |p_a − p*| <=
// sqrt(2 r_A δ + δ²): only a square-root bound, as a smooth set's tangential error is of second
// order in the distance. Initial directions: the centres' difference turned by up to 30°.
TEST(GjkSmooth, BallsAgainstAnalytic) {
  struct Ball {
    Vec3 c;
    double r;
    Vec3 operator()(const Vec3& d) const { return c + r * d.normalized(); }
  };
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  IterationStats stats;
  double worst = 0.0, worst_witness = 0.0;
  for (int trial = 0; trial < 700; ++trial) {
    const Ball a{random_point(rng, 2.0), 0.3 + 1.2 * u(rng)};
    const double gap = trial % 7 == 6 ? 0.0 : std::pow(10.0, -1.0 - trial % 7);
    const double rb = 0.3 + 1.2 * u(rng);
    const Ball bb{a.c + (a.r + rb + gap) * random_unit(rng), rb};
    const Vec3 start = (a.c - bb.c) + 0.5 * (a.c - bb.c).norm() * random_unit(rng);
    // Linear convergence, about a halving of |v| − d per iteration: at 1e-12 (and down to
    // 64 ε L when touching) more than the default 64 iterations may be needed.
    const GjkResult r = gjk_distance(a, bb, start, kRelative, 200);
    const double d = (bb.c - a.c).norm() - a.r - bb.r;
    const double s = std::max(a.c.norm(), bb.c.norm()) + std::max(a.r, bb.r);
    const double tol = kRelative * d + kRound * s;
    ASSERT_TRUE(finite(r));
    EXPECT_TRUE(r.converged) << "trial " << trial;
    stats.add(r.iterations);
    if (gap == 0.0) {
      EXPECT_TRUE(r.overlap || r.distance <= kRound * s) << "distance " << r.distance;
      continue;
    }
    ASSERT_FALSE(r.overlap);
    EXPECT_NEAR(r.distance, d, tol) << "trial " << trial;
    worst = std::max(worst, std::abs(r.distance - d) / d);
    const Vec3 u_ab = (bb.c - a.c).normalized();
    const Vec3 pa = a.c + a.r * u_ab, pb = bb.c - bb.r * u_ab;
    EXPECT_LE((r.point_a - pa).norm(), std::sqrt(2.0 * a.r * tol + tol * tol) + kRound * s);
    EXPECT_LE((r.point_b - pb).norm(), std::sqrt(2.0 * bb.r * tol + tol * tol) + kRound * s);
    worst_witness = std::max({worst_witness, (r.point_a - pa).norm(), (r.point_b - pb).norm()});
  }
  stats.print("balls");
  std::printf("[ %-16s ] balls: max rel. distance error %.1e, max witness error %.1e m\n", "gjk",
              worst, worst_witness);
}

// The iteration cap: a cap of 1 stops after the first support point, converged = false, the
// result that point's pair.
TEST(GjkLimits, IterationCapReportsNotConverged) {
  const Points a{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  const Points b{Vec3(3, 0, 0), Vec3(4, 1, 0), Vec3(3, 2, 1), Vec3(5, 0, 1)};
  const GjkResult capped =
      gjk_distance(PointSetSupport{a.data(), a.size()}, PointSetSupport{b.data(), b.size()},
                   Vec3(0, 1, 0), 1e-12, 1);
  EXPECT_FALSE(capped.converged);
  EXPECT_EQ(capped.iterations, 1);
  EXPECT_NEAR((capped.point_a - capped.point_b).norm(), capped.distance, 1e-15);
  const GjkResult full = gjk(a, b);
  EXPECT_TRUE(full.converged);
  EXPECT_LE(full.distance, capped.distance);
  EXPECT_NEAR(full.distance, 2.0, 1e-15);  // the faces x = 1 − y − z <= 1 and x >= 3
}
