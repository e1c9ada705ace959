// The fast path of the analytic maximum-dissipation solver: Newton on Eq. (8) from the direction
// of x0,to, kept only when kkt_boundary_minimum certifies the root (conic_section.hpp). On seeded
// random problems of every class:
//  * no root of Eq. (8) other than the minimum is ever certified (the certificate is what makes
//    the fast path exact: a wrongly certified root would be returned);
//  * the minimum itself is certified unless ∇f vanishes there to rounding (x0 on the boundary);
//  * max_dissipation_impulse and the all-roots solver give the same impulse to rounding.
#include "contact_test_support.hpp"

#include "granite/contact/conic_section.hpp"
#include "granite/contact/max_dissipation_detail.hpp"
#include "granite/contact/quartic.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace granite::contact {
namespace {

using testing::class_name;
using testing::kAllClasses;
using testing::objective_error;
using testing::Problem;
using testing::ProblemClass;
using testing::ProblemGenerator;

constexpr int kProblemsPerClass = 5000;
// Same bound as the property tests: the solvers' objectives agree to rounding of the quartic
// terms (property_test.cpp).
constexpr double kObjectiveTolerance = 1e-9;

class NewtonFastPath : public ::testing::TestWithParam<ProblemClass> {};

TEST_P(NewtonFastPath, CertifiesOnlyTheMinimumAndAgreesWithAllRoots) {
  const ProblemClass cls = GetParam();
  ProblemGenerator gen(777u + static_cast<unsigned>(cls) * 131u);
  int sliding = 0, certified_minimum = 0, wrong_certified = 0, disagree = 0;
  for (int i = 0; i < kProblemsPerClass; ++i) {
    const Problem p = gen.next(cls);
    const Impulse all = max_dissipation_all_roots_impulse(p.A, p.b, p.mu);
    const Impulse fast = max_dissipation_impulse(p.A, p.b, p.mu);
    const double e = objective_error(p, objective(p.A, p.b, fast.x), objective(p.A, p.b, all.x));
    if (std::abs(e) > kObjectiveTolerance || fast.kind != all.kind) {
      if (++disagree <= 3)
        ADD_FAILURE() << class_name(cls) << ": fast " << fast.x.transpose() << " all roots "
                      << all.x.transpose() << " (objective relative " << e << ")";
    }
    if (all.kind != ContactCase::sliding) continue;
    ++sliding;
    ReducedProblem r;
    Impulse unused;
    ASSERT_FALSE(structogram_prologue(p.A, p.b, p.mu, r, unused));
    double c[4], s[4];
    const int n = trig_poly_unit_roots(eq8_coefficients(p.A, p.b, p.mu), c, s);
    bool minimum_certified = false;
    for (int k = 0; k < n; ++k) {
      if (!kkt_boundary_minimum(r, c[k], s[k])) continue;
      const Vec3 x = best_along(r, c[k], s[k]).impulse(r);
      const double ek = objective_error(p, objective(p.A, p.b, x), objective(p.A, p.b, all.x));
      if (std::abs(ek) <= kObjectiveTolerance) {
        minimum_certified = true;
      } else if (++wrong_certified <= 3) {
        ADD_FAILURE() << class_name(cls) << ": root " << k << " certified with objective error "
                      << ek;
      }
    }
    certified_minimum += minimum_certified;
  }
  EXPECT_EQ(disagree, 0);
  EXPECT_EQ(wrong_certified, 0);
  // The minimum fails the certificate only where ∇f vanishes to rounding, i.e. x0 lies on the
  // boundary to rounding: a set of measure zero, so (almost) never in random problems.
  if (sliding > 0) {
    EXPECT_GE(certified_minimum, sliding - sliding / 1000)
        << class_name(cls) << ": " << certified_minimum << " of " << sliding;
  }
  RecordProperty("sliding", sliding);
}

// A = diag(A_nn, a, a) (two spheres with isotropic inertia, solver::sphere_contact_delassus):
// max_dissipation_sliding's closed form, x = (b_n/A_nn, μx_n b_to/‖b_to‖), against the all-roots
// solver on seeded sliding problems; mass ratios over 10⁶, μ from 0.01 to 10.
TEST(MaxDissipationSliding, SphereBlockClosedFormAgreesWithAllRoots) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int sliding = 0;
  for (int i = 0; i < 2000; ++i) {
    Problem p;
    const double Ann = std::pow(10.0, 3.0 * u(rng));
    const double a = Ann * (1.0 + std::pow(10.0, 3.0 * u(rng)));  // rotation adds kR² > 0
    p.A = Mat3::Zero();
    p.A.diagonal() << Ann, a, a;
    p.mu = std::pow(10.0, 1.5 * u(rng) - 0.5);
    p.b = Vec3(std::abs(u(rng)), u(rng), u(rng));
    const Impulse closed = max_dissipation_impulse(p.A, p.b, p.mu);
    const Impulse all = max_dissipation_all_roots_impulse(p.A, p.b, p.mu);
    ASSERT_EQ(closed.kind, all.kind) << i;
    // Up to the sliding branch, bit for bit the general prologue.
    ReducedProblem r;
    Impulse general;
    const bool decided = structogram_prologue(p.A, p.b, p.mu, r, general);
    EXPECT_EQ(decided, closed.kind != ContactCase::sliding) << i;
    const Vec3 prologue_x = decided ? general.x : r.x0;
    EXPECT_EQ(closed.x[0], prologue_x[0]) << i;
    if (decided) {
      EXPECT_TRUE(closed.x == prologue_x) << i;
    }
    const double e = objective_error(p, objective(p.A, p.b, closed.x), objective(p.A, p.b, all.x));
    EXPECT_LE(std::abs(e), kObjectiveTolerance) << i;
    if (closed.kind != ContactCase::sliding) continue;
    ++sliding;
    // On the plane u_n = 0 (b_n times the rounded 1/A_nn: 2 roundings) and on the cone (one
    // product, one root and the norm here: 4 roundings).
    const double xn = p.b[0] / Ann;
    EXPECT_NEAR(closed.x[0], xn, 4.5e-16 * xn);
    EXPECT_NEAR(closed.x.tail<2>().norm(), p.mu * closed.x[0], 9e-16 * p.mu * xn);
    EXPECT_LT((closed.x - all.x).norm(), 1e-9 * all.x.norm()) << i;
  }
  EXPECT_GT(sliding, 500);
}

INSTANTIATE_TEST_SUITE_P(AllClasses, NewtonFastPath, ::testing::ValuesIn(kAllClasses),
                         [](const auto& info) { return std::string(class_name(info.param)); });

}  // namespace
}  // namespace granite::contact
