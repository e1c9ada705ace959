// Property tests on seeded random single-contact problems (10⁵ in total over all classes):
// feasibility of every model's answer, exactness of the analytic maximum-dissipation solver
// against an independent brute-force minimiser and the converged golden-section solver,
// maximum dissipation versus every Coulomb solution, and sticking when A⁻¹b is feasible.
#include "contact_test_support.hpp"

#include "granite/contact/single_contact.hpp"

#include <gtest/gtest.h>

#include <numbers>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace granite::contact {
namespace {

using testing::class_name;
using testing::feasibility_violation;
using testing::objective_error;
using testing::Problem;
using testing::ProblemClass;
using testing::ProblemGenerator;

constexpr int kProblemsPerClass = 12500;  // × 8 classes = 10⁵
constexpr int kBruteForceEvery = 1;       // brute-force reference for every problem
constexpr int kCoulombEvery = 4;          // coulomb_all_solutions on every 4th problem
constexpr double kFeasibilityTolerance = 1e-10;
constexpr double kObjectiveTolerance = 1e-9;

std::string describe(const Problem& p) {
  std::ostringstream s;
  s.precision(17);
  s << "A = [" << p.A.row(0) << "; " << p.A.row(1) << "; " << p.A.row(2) << "], b = ["
    << p.b.transpose() << "], mu = " << p.mu;
  return s.str();
}

class RandomProblems : public ::testing::TestWithParam<ProblemClass> {};

TEST_P(RandomProblems, AllModelsFeasibleAndMaximumDissipationExact) {
  const ProblemClass cls = GetParam();
  ProblemGenerator gen(12345u + static_cast<unsigned>(cls) * 7919u);
  int failures = 0;
  const auto report = [&](bool ok, const std::string& what, const Problem& p) {
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << class_name(cls) << ": " << what << "\n  " << describe(p);
    }
  };
  double worst_mdp = 0.0;
  double worst_golden = 0.0;
  int sliding = 0;
  int beaten_reference = 0;
  for (int i = 0; i < kProblemsPerClass; ++i) {
    const Problem p = gen.next(cls);
    const Impulse mdp = max_dissipation_impulse(p.A, p.b, p.mu);
    const Impulse golden = max_dissipation_golden_impulse(p.A, p.b, p.mu, 200);
    const Impulse models[] = {mdp,
                              golden,
                              max_dissipation_golden_impulse(p.A, p.b, p.mu, 20),
                              frictionless_impulse(p.A, p.b, p.mu),
                              coulomb_impulse(p.A, p.b, p.mu),
                              coulomb_approx_impulse(p.A, p.b, p.mu)};
    const char* names[] = {"mdp",          "mdp_golden(200)", "mdp_golden(20)",
                           "frictionless", "coulomb",         "coulomb_approx"};
    for (int m = 0; m < 6; ++m) {
      const double v = feasibility_violation(p, models[m].x);
      report(v <= kFeasibilityTolerance,
             std::string(names[m]) + " infeasible by " + std::to_string(v), p);
    }
    sliding += mdp.kind == ContactCase::sliding;

    // sticking exactly when x0 = A⁻¹b is feasible (and b_n ≥ 0, μ > 0)
    const Vec3 x0 = p.A.ldlt().solve(p.b);
    const bool x0_feasible =
        p.b[0] >= 0.0 && p.mu > 0.0 && x0[0] >= 0.0 && std::hypot(x0[1], x0[2]) <= p.mu * x0[0];
    if (x0_feasible) {
      report(mdp.kind == ContactCase::sticking && (mdp.x - x0).norm() <= 1e-9 * x0.norm(),
             "mdp not sticking although A^-1 b is feasible", p);
    }

    const double f_mdp = objective(p.A, p.b, mdp.x);
    const double f_golden = objective(p.A, p.b, golden.x);
    if (i % kBruteForceEvery == 0) {
      const auto ref = testing::brute_force_minimum(p);
      const double e = objective_error(p, f_mdp, ref.f);
      worst_mdp = std::max(worst_mdp, std::abs(e));
      // The reference is a feasible point, so mdp must never be worse. For ill-conditioned A the
      // optimum can sit in a dip narrower than the reference's θ-sampling; there mdp's (feasible)
      // answer may be lower and only the one-sided check applies (mdp is then cross-checked
      // two-sided against the golden-section solver below, whose search bracket is unimodal).
      const bool one_sided = cls == ProblemClass::ill_conditioned || cls == ProblemClass::mu_huge;
      beaten_reference += e < -kObjectiveTolerance;
      report(e <= kObjectiveTolerance && (one_sided || e >= -kObjectiveTolerance),
             "mdp objective " + std::to_string(f_mdp) + " vs brute force " + std::to_string(ref.f) +
                 " (relative " + std::to_string(e) + ")",
             p);
    }
    const double eg = objective_error(p, f_mdp, f_golden);
    worst_golden = std::max(worst_golden, std::abs(eg));
    report(std::abs(eg) <= kObjectiveTolerance,
           "mdp objective " + std::to_string(f_mdp) + " vs mdp_golden(200) " +
               std::to_string(f_golden) + " (relative " + std::to_string(eg) + ")",
           p);

    if (i % kCoulombEvery == 0) {
      for (const Impulse& s : coulomb_all_solutions(p.A, p.b, p.mu)) {
        const double v = feasibility_violation(p, s.x);
        report(v <= kFeasibilityTolerance, "Coulomb solution infeasible by " + std::to_string(v),
               p);
        const double e = objective_error(p, f_mdp, objective(p.A, p.b, s.x));
        report(e <= kObjectiveTolerance,
               "mdp worse than a Coulomb solution (relative " + std::to_string(e) + ")", p);
      }
    }
  }
  EXPECT_EQ(failures, 0) << class_name(cls);
  std::printf("[ %-16s ] %5d sliding of %d, max |rel. objective error| mdp vs brute force %.2e "
              "(brute force beaten %d times), vs golden(200) %.2e\n",
              class_name(cls).c_str(), sliding, kProblemsPerClass, worst_mdp, beaten_reference,
              worst_golden);
}

INSTANTIATE_TEST_SUITE_P(Classes, RandomProblems, ::testing::ValuesIn(testing::kAllClasses),
                         [](const ::testing::TestParamInfo<ProblemClass>& info) {
                           return class_name(info.param);
                         });

// The polyhedral model (k = 4 and 8) on the same classes: Lemke verifies every single-contact LCP
// (no ContactCase::failed), the impulse is feasible (Signorini, the circular cone that contains
// the pyramid, and each face of the pyramid, x_to·m_j ≤ μ x_n cos(π/k) with m_j the face normal
// at angle (2j + 1)π/k), and the friction maximises the dissipation over the pyramid:
// −x_toᵀu_to = μ x_n max_j(−d_jᵀu_to) when x_n > 0 (Eq. 27's λ = max_j(−d_jᵀu_to)).
class PolyhedralRandom : public ::testing::TestWithParam<ProblemClass> {};

TEST_P(PolyhedralRandom, FeasibleInThePyramidAndMaximallyDissipative) {
  const ProblemClass cls = GetParam();
  ProblemGenerator gen(4242u + static_cast<unsigned>(cls) * 31u);
  int failures = 0;
  const auto report = [&](bool ok, const std::string& what, const Problem& p) {
    if (!ok && ++failures <= 5)
      ADD_FAILURE() << class_name(cls) << ": " << what << "\n  " << describe(p);
  };
  for (int i = 0; i < 2000; ++i) {
    const Problem p = gen.next(cls);
    for (const int k : {4, 8}) {
      const Impulse poly = polyhedral_impulse(p.A, p.b, p.mu, k);
      report(poly.kind != ContactCase::failed, "Lemke failed", p);
      const Vec3& x = poly.x;
      const double v = feasibility_violation(p, x);
      report(v <= kFeasibilityTolerance, "polyhedral infeasible by " + std::to_string(v), p);
      const double scale = std::max(x.norm(), 1e-300);
      double support = 0.0;  // max_j(−d_jᵀu_to)
      const Vec3 u = p.A * x - p.b;
      for (int j = 0; j < k; ++j) {
        const double a = (2 * j + 1) * std::numbers::pi / k;
        const double face =
            x[1] * std::cos(a) + x[2] * std::sin(a) - p.mu * x[0] * std::cos(std::numbers::pi / k);
        report(face <= 1e-10 * scale * (1.0 + p.mu), "outside face " + std::to_string(j), p);
        const double b = 2 * j * std::numbers::pi / k;
        support = std::max(support, -(u[1] * std::cos(b) + u[2] * std::sin(b)));
      }
      const double dissipation = -(x[1] * u[1] + x[2] * u[2]);
      const double uscale = p.A.norm() * x.norm() + p.b.norm();
      report(std::abs(dissipation - p.mu * x[0] * support) <= 1e-9 * uscale * scale * (1 + p.mu),
             "not maximally dissipative over the pyramid", p);
    }
  }
  EXPECT_EQ(failures, 0) << class_name(cls);
}

INSTANTIATE_TEST_SUITE_P(Classes, PolyhedralRandom, ::testing::ValuesIn(testing::kAllClasses),
                         [](const ::testing::TestParamInfo<ProblemClass>& info) {
                           return class_name(info.param);
                         });

}  // namespace
}  // namespace granite::contact
