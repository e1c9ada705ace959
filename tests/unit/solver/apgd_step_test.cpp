// Matrix-free APGD on a time step (solver/apgd_step) against APGD on the same step's assembled
// problem (solver/contact_problem_export + apgd_matrix): the same algorithm on the same N and
// p, so the iterates agree to rounding; and the step's corrections are those of the returned
// impulses.
#include "granite/solver/apgd_step.hpp"
#include "granite/solver/contact_problem_export.hpp"
#include "granite/solver/fc3d_error.hpp"
#include "granite/solver/matrix_relaxation.hpp"
#include "granite/core/error.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

using namespace granite;

namespace {

// A 3 × 3 × 3 lattice of touching spheres on a floor, dropped by one step of gravity: a dense
// contact problem with particle–particle and particle–wall contacts.
struct CapturedStep {
  std::vector<solver::SolverContact> contacts;
  std::vector<solver::BodyState> states;
};

CapturedStep capture() {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = 1e-3;
  p.gravity = Vec3(0.3, 0.1, -9.81);
  p.contact_threshold = 1e-4;
  const auto mat = sim.materials().add({2650.0, 0.4});
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  const double r = 0.01;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        sim.particles().add_sphere(sim.materials(), mat,
                                   Vec3(2 * r * i + 1e-5 * j, 2 * r * j, r + 2 * r * k), r);
  CapturedStep step;
  sim.set_contact_problem_observer([&](const auto& contacts, const auto& states) {
    step.contacts = contacts;
    step.states = states;
  });
  sim.step();
  return step;
}

}  // namespace

TEST(ApgdStep, MatchesApgdOnTheAssembledProblem) {
  const CapturedStep step = capture();
  ASSERT_GT(step.contacts.size(), 50u);
  Eigen::SparseMatrix<double, Eigen::RowMajor> W;
  Eigen::VectorXd q, mu;
  solver::export_contact_problem(step.contacts, step.states, W, q, mu);

  for (int iterations : {1, 5, 40}) {
    SCOPED_TRACE(iterations);
    Eigen::VectorXd r;
    solver::apgd_matrix(W, q, mu, 0.0, iterations, r);
    std::vector<Vec3> impulses(step.contacts.size(), Vec3::Zero());
    std::vector<solver::BodyState> bodies = step.states;
    solver::ApgdSettings settings;
    settings.tolerance = 0.0;
    settings.max_iterations = iterations;
    const solver::ApgdResult result = solver::apgd_step(settings, step.contacts, impulses, bodies);
    EXPECT_EQ(result.iterations, iterations);
    double difference = 0.0;
    for (std::size_t j = 0; j < impulses.size(); ++j)
      difference = std::max(difference, (impulses[j] - r.segment<3>(3 * j)).norm());
    EXPECT_LE(difference, 1e-12 * r.norm());
    // The corrections left in the bodies are those of the returned impulses: the post-step
    // contact velocities are W r + q.
    Eigen::VectorXd x(r.size());
    for (std::size_t j = 0; j < impulses.size(); ++j) x.segment<3>(3 * j) = impulses[j];
    const Eigen::VectorXd u = W * x + q;
    for (std::size_t j = 0; j < step.contacts.size(); ++j) {
      const auto& c = step.contacts[j];
      const auto& b1 = bodies[c.body1];
      const auto& b2 = bodies[c.body2];
      Vec3 uj = c.frame().transpose() * ((b1.v + b1.dv) + (b1.w + b1.dw).cross(c.r1) -
                                         (b2.v + b2.dv) - (b2.w + b2.dw).cross(c.r2));
      uj[0] += c.gap_term;
      EXPECT_LE((uj - u.segment<3>(3 * j)).norm(), 1e-12 * u.norm());
    }
  }
}

// Run to convergence, the step's impulses solve the CCP (its error is the one APGD reports).
TEST(ApgdStep, ConvergesToTheCcpSolution) {
  const CapturedStep step = capture();
  std::vector<Vec3> impulses(step.contacts.size(), Vec3::Zero());
  std::vector<solver::BodyState> bodies = step.states;
  solver::ApgdSettings settings;
  settings.tolerance = 1e-10;
  settings.max_iterations = 20000;
  const solver::ApgdResult result = solver::apgd_step(settings, step.contacts, impulses, bodies);
  ASSERT_TRUE(result.converged) << result.error;
  Eigen::SparseMatrix<double, Eigen::RowMajor> W;
  Eigen::VectorXd q, mu, r(3 * impulses.size());
  solver::export_contact_problem(step.contacts, step.states, W, q, mu);
  for (std::size_t j = 0; j < impulses.size(); ++j) r.segment<3>(3 * j) = impulses[j];
  EXPECT_NEAR(solver::ccp_error(W, q, mu, r), result.error, 1e-12);
  EXPECT_LE(solver::ccp_error(W, q, mu, r), 1e-10);
}

// solver.method apgd in a Simulation: the same lattice run with APGD and with Gauss–Seidel on
// the CCP model, both to CCP error 1e-10, ends each step with the same velocities (the CCP's u
// is unique; the velocities follow from u within the conditioning of this small, full-rank
// problem: 1e-6 relative leaves a factor 1e4 over the tolerance). A model other than ccp is
// refused by validate().
TEST(ApgdStep, SimulationMethodApgdMatchesGaussSeidelOnTheCcp) {
  const auto run = [](solver::Method method) {
    timestep::Simulation sim;
    auto& p = sim.parameters();
    p.dt = 1e-3;
    p.gravity = Vec3(0.3, 0.1, -9.81);
    p.contact_threshold = 1e-4;
    p.model.model = contact::Model::ccp;
    p.method = method;
    p.convergence = solver::Convergence::fc3d;  // Gauss–Seidel: stops on fc3d; see below
    p.tolerance = 1e-10;
    p.max_sweeps = 20000;
    const auto mat = sim.materials().add({2650.0, 0.4});
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
    const double r = 0.01;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k)
        sim.particles().add_sphere(sim.materials(), mat, Vec3(2 * r * i, 0, r + 2 * r * k), r);
    for (int s = 0; s < 5; ++s) {
      const auto& st = sim.step();
      EXPECT_TRUE(st.converged) << "step " << s;
    }
    return sim.particles().velocity;
  };
  const auto apgd = run(solver::Method::apgd);
  const auto gs = run(solver::Method::gauss_seidel);
  double scale = 0.0, difference = 0.0;
  for (std::size_t i = 0; i < gs.size(); ++i) {
    scale = std::max(scale, gs[i].norm());
    difference = std::max(difference, (gs[i] - apgd[i]).norm());
  }
  EXPECT_LE(difference, 1e-6 * scale);

  timestep::Simulation wrong;
  wrong.parameters().method = solver::Method::apgd;  // with the default model, mdp
  EXPECT_THROW(wrong.validate(), InputError);
}
