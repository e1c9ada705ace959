// Mass properties of a union of spheres: exact sums for disjoint parts (checked against values
// worked out by hand), the numerical integral for overlapping parts (checked against a closed
// form, a buried part, symmetry and invariance under rigid motions), and bad input.
//
// Numerical results are compared within kSafety × relative_error: the reported error is the
// change between the last two levels of Gauss points, and the finer level converges far
// faster than that change (faster than any power of the points), so the true error is well
// below the change; 10 leaves room for the change being an estimate, not a bound.
#include "granite/body/sphere_union.hpp"
#include "granite/body/shape.hpp"
#include "granite/core/error.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>
#include <numbers>
#include <string>
#include <vector>

using namespace granite;
using granite::body::MassProperties;
using granite::body::sphere_union_mass_properties;
using granite::body::SpherePart;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kSafety = 10.0;

double sphere_volume(double r) { return 4.0 / 3.0 * kPi * r * r * r; }

double largest_entry(const Mat3& m) { return m.cwiseAbs().maxCoeff(); }

// The radius of gyration √(max |I_ij| / V): the scale the centroid's error is measured in.
double gyration(const MassProperties& p) { return std::sqrt(largest_entry(p.inertia) / p.volume); }

// Rounding of the quadrature's sums, for results that vanish by symmetry. The dimers' sums
// have at most 3 panels × grid terms (3 panels of lines in a slice, 3 of slices), 16 × grid
// with room to spare; recursive summation of n terms errs by at most n ε of the magnitudes
// summed: (r + a) V for the first moments, ∫ |xy| dV <= Izz/2 < 2 Ixx for the products.
// 4 covers that ratio and the few roundings inside each term.
double symmetric_rounding(const MassProperties& p) { return 4.0 * 16.0 * p.grid * kEps; }

void expect_matrix_near(const Mat3& actual, const Mat3& expected, double bound) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(actual(i, j), expected(i, j), bound) << "entry (" << i << ", " << j << ")";
}

// Two spheres of radius r at (±a, 0, 0), 0 <= a <= r. For x >= 0 the union's cross-section
// is the disk of the sphere at +a, so the union is twice that sphere's part with x >= 0.
// Integrating disks of radius ρ, ρ² = r² − u², u = x − a from −a to r (dV = π ρ² dx):
//   V   = 2 π ∫ ρ² du,                     ∫ (r² − u²) du = r² u − u³/3
//   Ixx = 2 ∫ ½ ρ² dV = π ∫ ρ⁴ du,          ∫ (r² − u²)² du = r⁴ u − 2 r² u³/3 + u⁵/5
//   Iyy = 2 ∫ (¼ ρ² + x²) dV = 2 π [¼ ∫ ρ⁴ du + ∫ (u + a)² ρ² du],
//     ∫ (u + a)² (r² − u²) du = r² u³/3 − u⁵/5 + a r² u² − a u⁴/2 + a² r² u − a² u³/3,
// and Izz = Iyy by symmetry; the centroid is 0 and the tensor diagonal.
struct DimerClosedForm {
  double volume, ixx, iyy;
};

DimerClosedForm overlapping_dimer(double r, double a) {
  const double r2 = r * r, a2 = a * a;
  auto area = [&](double u) { return r2 * u - u * u * u / 3.0; };
  auto area_squared = [&](double u) {
    return r2 * r2 * u - 2.0 * r2 * u * u * u / 3.0 + std::pow(u, 5) / 5.0;
  };
  auto second_moment = [&](double u) {
    return r2 * std::pow(u, 3) / 3.0 - std::pow(u, 5) / 5.0 + a * r2 * u * u -
           a * std::pow(u, 4) / 2.0 + a2 * r2 * u - a2 * std::pow(u, 3) / 3.0;
  };
  auto over = [&](auto f) { return f(r) - f(-a); };
  const double rho4 = over(area_squared);
  return {2.0 * kPi * over(area), kPi * rho4, 2.0 * kPi * (0.25 * rho4 + over(second_moment))};
}

std::vector<SpherePart> dimer(double r, double a) {
  return {{r, Vec3(-a, 0.0, 0.0)}, {r, Vec3(a, 0.0, 0.0)}};
}

// Four spheres of radius 1 at the vertices of a regular tetrahedron of edge 1.2 centred at 0:
// the vertices (±1, ±1, ±1) with an even number of minus signs have edge 2√2.
std::vector<SpherePart> tetrahedral_clump() {
  const double scale = 1.2 / (2.0 * std::sqrt(2.0));
  std::vector<SpherePart> parts;
  for (const Vec3& v : {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)})
    parts.push_back({1.0, scale * v});
  return parts;
}

double seconds_for(const std::vector<SpherePart>& parts, double tolerance, MassProperties& out) {
  const auto start = std::chrono::steady_clock::now();
  out = sphere_union_mass_properties(parts, tolerance);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// Only a handful of roundings separate the result from the formulas: 1e-14 (45 ε) is
// rounding, and far below the smallest plausible slip (2/5 → 1/2 is 25 %).
TEST(SphereUnion, SingleSphereIsExact) {
  const double r = 0.7;
  const Vec3 centre(1.0, -2.0, 3.0);
  const MassProperties p = sphere_union_mass_properties({{r, centre}});
  EXPECT_TRUE(p.exact);
  EXPECT_EQ(p.relative_error, 0.0);
  EXPECT_EQ(p.grid, 0);
  const double volume = 4.0 / 3.0 * kPi * r * r * r;
  EXPECT_NEAR(p.volume, volume, 1e-14 * volume);
  EXPECT_EQ(p.centroid, centre);  // its centre plus a zero offset
  const double i = 0.4 * volume * r * r;
  expect_matrix_near(p.inertia, i * Mat3::Identity(), 1e-14 * i);
}

// Worked by hand: V1 = 4π/3 (r = 1 at 0), V2 = π/6 (r = 1/2 at (3, 0, 0)), V = 3π/2;
// c_x = (π/6 · 3)/(3π/2) = 1/3, so d1 = −1/3, d2 = 8/3 along x;
// Ixx = 2/5 (V1 · 1 + V2 · 1/4) = 8π/15 + π/60 = 11π/20;
// Iyy = Izz = Ixx + V1/9 + V2 · 64/9 = 11π/20 + 4π/3 = 113π/60.
TEST(SphereUnion, DisjointDimerUsesTheParallelAxisTheorem) {
  const MassProperties p =
      sphere_union_mass_properties({{1.0, Vec3::Zero()}, {0.5, Vec3(3.0, 0.0, 0.0)}});
  EXPECT_TRUE(p.exact);
  EXPECT_EQ(p.relative_error, 0.0);
  EXPECT_EQ(p.grid, 0);
  EXPECT_NEAR(p.volume, 1.5 * kPi, 1e-14 * p.volume);
  EXPECT_NEAR((p.centroid - Vec3(1.0 / 3.0, 0.0, 0.0)).norm(), 0.0, 1e-15);
  const Mat3 expected =
      Vec3(11.0 * kPi / 20.0, 113.0 * kPi / 60.0, 113.0 * kPi / 60.0).asDiagonal();
  expect_matrix_near(p.inertia, expected, 1e-14 * largest_entry(expected));
  EXPECT_EQ(p.inertia, p.inertia.transpose());

  // Touching parts (|c1 − c2| = r1 + r2) share no volume: still the exact sum.
  const MassProperties touching =
      sphere_union_mass_properties({{1.0, Vec3::Zero()}, {0.5, Vec3(1.5, 0.0, 0.0)}});
  EXPECT_TRUE(touching.exact);
  EXPECT_NEAR(touching.volume, 1.5 * kPi, 1e-14 * touching.volume);
}

// Three unit spheres at a = (0, 0, 0), b = (3, 0, 0), c = (0, 3, 3) (all gaps > 2), moved by
// t: V = 3 · 4π/3, c = (1, 1, 1) + t, d = (−1, −1, −1), (2, −1, −1), (−1, 2, 2), so
// Σ|d|² = 18 and Σ d dᵀ = [6 −3 −3; −3 6 6; −3 6 6]. With Vs = 4π/3:
// I = 3 · 2/5 Vs E + Vs (18 E − Σ d dᵀ): diagonal 13.2 Vs, Ixy = Ixz = 3 Vs, Iyz = −6 Vs.
TEST(SphereUnion, DisjointOffAxisClumpHasProductsOfInertia) {
  const Vec3 t(10.0, -20.0, 5.0);
  const MassProperties p = sphere_union_mass_properties(
      {{1.0, t}, {1.0, t + Vec3(3.0, 0.0, 0.0)}, {1.0, t + Vec3(0.0, 3.0, 3.0)}});
  EXPECT_TRUE(p.exact);
  const double vs = 4.0 / 3.0 * kPi;
  EXPECT_NEAR(p.volume, 3.0 * vs, 1e-14 * p.volume);
  // Coordinates up to 20: a few roundings of 20 ε each.
  EXPECT_NEAR((p.centroid - (t + Vec3(1.0, 1.0, 1.0))).norm(), 0.0, 1e-13);
  Mat3 expected;
  expected << 13.2, 3.0, 3.0, 3.0, 13.2, -6.0, 3.0, -6.0, 13.2;
  expected *= vs;
  expect_matrix_near(p.inertia, expected, 1e-14 * largest_entry(expected));
  EXPECT_EQ(p.inertia, p.inertia.transpose());
}

// The closed form itself, at its ends: a = 0 is one sphere, a = r two touching spheres (the
// exact path). Both are polynomial identities, so only rounding separates them.
TEST(SphereUnion, DimerClosedFormMatchesOneAndTwoSpheres) {
  const double r = 1.3;
  const double v = sphere_volume(r);
  const DimerClosedForm one = overlapping_dimer(r, 0.0);
  EXPECT_NEAR(one.volume, v, 1e-14 * v);
  EXPECT_NEAR(one.ixx, 0.4 * v * r * r, 1e-14 * v * r * r);
  EXPECT_NEAR(one.iyy, 0.4 * v * r * r, 1e-14 * v * r * r);
  const DimerClosedForm two = overlapping_dimer(r, r);
  const MassProperties touching = sphere_union_mass_properties(dimer(r, r));
  ASSERT_TRUE(touching.exact);
  EXPECT_NEAR(two.volume, touching.volume, 1e-14 * two.volume);
  EXPECT_NEAR(two.ixx, touching.inertia(0, 0), 1e-14 * two.iyy);
  EXPECT_NEAR(two.iyy, touching.inertia(1, 1), 1e-14 * two.iyy);
}

TEST(SphereUnion, OverlappingDimerMatchesTheClosedForm) {
  const double tolerance = 1e-6;
  struct Case {
    double r, a;
  };
  // From nearly coincident to barely overlapping; the last is the issue's example.
  for (const Case c : {Case{1.0, 0.05}, Case{1.0, 0.3}, Case{1.0, 0.5}, Case{1.0, 0.9},
                       Case{1.0, 0.99}, Case{1.0e-3, 0.6e-3}}) {
    SCOPED_TRACE("r = " + std::to_string(c.r) + ", a = " + std::to_string(c.a));
    const MassProperties p = sphere_union_mass_properties(dimer(c.r, c.a), tolerance);
    const DimerClosedForm exact = overlapping_dimer(c.r, c.a);
    EXPECT_FALSE(p.exact);
    EXPECT_GT(p.grid, 0);
    EXPECT_GT(p.relative_error, 0.0);
    EXPECT_LE(p.relative_error, tolerance);
    const double bound = kSafety * p.relative_error;
    const double largest = std::max(exact.ixx, exact.iyy);
    EXPECT_NEAR(p.volume, exact.volume, bound * exact.volume);
    EXPECT_NEAR(p.inertia(0, 0), exact.ixx, bound * largest);
    EXPECT_NEAR(p.inertia(1, 1), exact.iyy, bound * largest);
    EXPECT_NEAR(p.inertia(2, 2), exact.iyy, bound * largest);
    // Zero by symmetry: the quadrature nodes are symmetric too, so only rounding remains.
    const double rounding = symmetric_rounding(p);
    EXPECT_LE(p.centroid.norm(), rounding * (c.r + c.a));
    EXPECT_LE(std::abs(p.inertia(0, 1)), rounding * exact.ixx);
    EXPECT_LE(std::abs(p.inertia(0, 2)), rounding * exact.ixx);
    EXPECT_LE(std::abs(p.inertia(1, 2)), rounding * exact.ixx);
    EXPECT_EQ(p.inertia, p.inertia.transpose());
  }
}

// The issue's dimer (radius 1 mm at ±0.6 mm) and the tetrahedral clump at tolerance 1e-6,
// timed. The tetrahedral clump's inertia is isotropic (a tensor invariant under the
// tetrahedron's rotations is a multiple of E) and its centroid the tetrahedron's centre.
TEST(SphereUnion, TetrahedralClumpIsIsotropicAndBothExamplesAreQuick) {
  const double tolerance = 1e-6;
  MassProperties issue, tetrahedron;
  const double issue_seconds = seconds_for(dimer(1.0e-3, 0.6e-3), tolerance, issue);
  const double tetrahedron_seconds = seconds_for(tetrahedral_clump(), tolerance, tetrahedron);
  std::printf("[ %-16s ] issue dimer: %d points per panel, error %.1e, %.2f ms\n", "sphere union",
              issue.grid, issue.relative_error, 1e3 * issue_seconds);
  std::printf("[ %-16s ] tetrahedral clump: %d points per panel, error %.1e, %.2f ms\n",
              "sphere union", tetrahedron.grid, tetrahedron.relative_error,
              1e3 * tetrahedron_seconds);
  RecordProperty("issue_dimer_ms", std::to_string(1e3 * issue_seconds));
  RecordProperty("tetrahedral_clump_ms", std::to_string(1e3 * tetrahedron_seconds));

  EXPECT_FALSE(tetrahedron.exact);
  EXPECT_LE(tetrahedron.relative_error, tolerance);
  const double bound = kSafety * tetrahedron.relative_error;
  const double mean = tetrahedron.inertia.trace() / 3.0;
  expect_matrix_near(tetrahedron.inertia, mean * Mat3::Identity(), bound * mean);
  EXPECT_LE(tetrahedron.centroid.norm(), bound * gyration(tetrahedron));
  // Less than the four spheres (they overlap), more than the largest one.
  EXPECT_LT(tetrahedron.volume, 4.0 * sphere_volume(1.0));
  EXPECT_GT(tetrahedron.volume, sphere_volume(1.0));
}

// A rigid motion x → R x + t moves the centroid to R c + t and turns the inertia into
// R I Rᵀ; V is unchanged. Each result is within kSafety × its error of the truth: for the
// volume relative to V; for an inertia entry relative to max |I_ij| <= ‖I‖_F, and an error
// δI of the first result reaches R δI Rᵀ at most as ‖δI‖_F <= 3 max |δI_ij| (hence 3 e);
// for the centroid relative to the radius of gyration.
TEST(SphereUnion, RigidMotionRotatesInertiaAndMovesCentroid) {
  const std::vector<SpherePart> parts = {{1.0, Vec3(0.0, 0.0, 0.0)},
                                         {0.7, Vec3(0.9, 0.3, -0.2)},
                                         {0.5, Vec3(-0.4, 0.8, 0.5)},
                                         {0.4, Vec3(0.2, -0.9, 0.6)}};
  const Mat3 rotation = Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
  const Vec3 t(0.3, -1.7, 2.2);
  std::vector<SpherePart> moved = parts;
  for (auto& p : moved) p.position = rotation * p.position + t;

  const MassProperties a = sphere_union_mass_properties(parts, 1e-8);
  const MassProperties b = sphere_union_mass_properties(moved, 1e-8);
  ASSERT_FALSE(a.exact);
  ASSERT_FALSE(b.exact);
  const double e = a.relative_error, f = b.relative_error;
  EXPECT_NEAR(b.volume, a.volume, kSafety * (e + f) * a.volume);
  expect_matrix_near(b.inertia, rotation * a.inertia * rotation.transpose(),
                     kSafety * (f + 3.0 * e) * a.inertia.norm());
  const double radius = std::max(gyration(a), gyration(b));
  EXPECT_LE((b.centroid - (rotation * a.centroid + t)).norm(), kSafety * (e + f) * radius);
  // The inertia is not isotropic, or the rotation would test nothing.
  EXPECT_GT((rotation * a.inertia * rotation.transpose() - a.inertia).cwiseAbs().maxCoeff(),
            100.0 * kSafety * (f + 3.0 * e) * a.inertia.norm());
}

// A part inside another (strictly, and touching its surface from inside) leaves the union the
// big sphere; the parts overlap, so this goes through the numerical integral.
TEST(SphereUnion, BuriedPartLeavesTheBigSphere) {
  const double r = 1.0;
  const Vec3 centre(0.1, 0.2, -0.3);
  const Vec3 touching = 0.7 * Vec3(1.0, 1.0, 0.0).normalized();  // |offset| + 0.3 = r
  for (const Vec3& offset : {Vec3(0.4, -0.2, 0.3), touching}) {
    SCOPED_TRACE("offset " + std::to_string(offset.x()) + " " + std::to_string(offset.y()));
    const MassProperties p =
        sphere_union_mass_properties({{r, centre}, {0.3, centre + offset}}, 1e-8);
    EXPECT_FALSE(p.exact);
    EXPECT_LE(p.relative_error, 1e-8);
    const double volume = sphere_volume(r), i = 0.4 * volume * r * r;
    const double bound = kSafety * p.relative_error;
    EXPECT_NEAR(p.volume, volume, bound * volume);
    EXPECT_LE((p.centroid - centre).norm(), bound * std::sqrt(i / volume));
    expect_matrix_near(p.inertia, i * Mat3::Identity(), bound * i);
    EXPECT_EQ(p.inertia, p.inertia.transpose());
  }
}

TEST(SphereUnion, BadInputThrows) {
  EXPECT_THROW(sphere_union_mass_properties({}), InputError);
  const Vec3 o = Vec3::Zero();
  try {
    sphere_union_mass_properties({{1.0, o}, {1.0, Vec3(1, 0, 0)}, {-1.0, o}});
    ADD_FAILURE() << "a negative radius was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "clump part 2: radius must be > 0 m, got -1");
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(sphere_union_mass_properties({{0.0, o}}), InputError);
  EXPECT_THROW(sphere_union_mass_properties({{nan, o}}), InputError);
  EXPECT_THROW(sphere_union_mass_properties({{inf, o}}), InputError);
  EXPECT_THROW(sphere_union_mass_properties({{1.0, Vec3(0, nan, 0)}}), InputError);
  EXPECT_THROW(sphere_union_mass_properties({{1.0, Vec3(inf, 0, 0)}}), InputError);
  EXPECT_THROW(sphere_union_mass_properties({{1.0, o}}, 0.0), InputError);
  EXPECT_THROW(sphere_union_mass_properties({{1.0, o}}, nan), InputError);
}

// A capsule's closed-form mass properties (body/shape.hpp) against slicing it into disks along
// its axis: ρ(x) = r on the cylinder, √(r² − (|x| − h)²) on the caps; dV = π ρ² dx,
// dI_xx = ½ π ρ⁴ dx, dI_yy = (¼ ρ² + x²) π ρ² dx, by composite Simpson's rule on each piece
// (smooth polynomials there: exact to rounding, 1e-12 relative); h = 0 is a sphere.
TEST(CapsuleMass, ClosedFormMatchesDiskSlicing) {
  for (const auto& [r, h] : {std::pair{1.0e-3, 3.0e-3}, std::pair{2.0, 0.5}, std::pair{1.0, 0.0}}) {
    const granite::body::MassProperties m = granite::body::capsule_mass_properties(r, h);
    double v = 0.0, ixx = 0.0, iyy = 0.0;
    const auto simpson = [&](double lo, double hi, auto rho2) {
      const int n = 2000;  // even
      const double step = (hi - lo) / n;
      for (int k = 0; k <= n; ++k) {
        const double x = lo + k * step, w = (k == 0 || k == n) ? 1.0 : (k % 2 ? 4.0 : 2.0);
        const double p2 = rho2(x), f = w * step / 3.0 * M_PI * p2;
        v += f;
        ixx += 0.5 * p2 * f;
        iyy += (0.25 * p2 + x * x) * f;
      }
    };
    const auto cap = [&](double x) { return r * r - (std::abs(x) - h) * (std::abs(x) - h); };
    simpson(-h - r, -h, cap);
    if (h > 0.0) simpson(-h, h, [&](double) { return r * r; });
    simpson(h, h + r, cap);
    EXPECT_NEAR(m.volume, v, 1e-12 * v) << "r " << r << " h " << h;
    EXPECT_NEAR(m.inertia(0, 0), ixx, 1e-12 * ixx);
    EXPECT_NEAR(m.inertia(1, 1), iyy, 1e-12 * iyy);
    EXPECT_EQ(m.inertia(2, 2), m.inertia(1, 1));
    EXPECT_EQ(m.inertia(0, 1), 0.0);
  }
  const granite::body::MassProperties sphere = granite::body::capsule_mass_properties(1.0, 0.0);
  EXPECT_NEAR(sphere.inertia(1, 1), 0.4 * sphere.volume, 1e-15);
}
