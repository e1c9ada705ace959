// The engine's per-step fc3d error (solver::fc3d_sums over the bodies' velocities, the
// convergence measure of solver.convergence: fc3d) against Siconos' fc3d_compute_error on the
// same step's contact problem exported as an FCLIB file and read back: both evaluate
// ‖r − P_K(r − u − μ‖u_T‖e_N)‖ / max(‖q‖, ‖r‖, ‖u‖), the engine with u from the velocity
// corrections, FCLIB with u = W r + q, so they differ only by round-off in W r (a few ulps of
// the largest velocity, ~1e-15 relative); 1e-12 leaves three orders of margin.
#include "granite/io/fclib/fclib.hpp"
#include "granite/solver/contact_problem_export.hpp"
#include "granite/solver/fc3d_error.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 0.005, kDt = 1e-3;

// A 4 × 4 × 5 packing of spheres in a box, settled for 100 steps.
void build_packing(timestep::Simulation& sim) {
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.error_reduction = 0.2;
  p.contact_threshold = 0.1 * kR;
  p.max_sweeps = 50;
  p.tolerance = 1e-4;
  const auto mat = sim.materials().add({2650.0, 0.5});
  const int nx = 4, nz = 5;
  const double spacing = 2.2 * kR, L = nx * spacing;
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitX()}, mat);
  sim.globals().add(body::HalfSpace{Vec3(L, 0, 0), -Vec3::UnitX()}, mat);
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitY()}, mat);
  sim.globals().add(body::HalfSpace{Vec3(0, L, 0), -Vec3::UnitY()}, mat);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.08 * kR, 0.08 * kR);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < nx; ++j)
      for (int i = 0; i < nx; ++i)
        sim.particles().add_sphere(sim.materials(), mat,
                                   Vec3((i + 0.5) * spacing + jitter(rng),
                                        (j + 0.5) * spacing + jitter(rng),
                                        1.05 * kR + k * 2.1 * kR),
                                   kR);
  for (int s = 0; s < 100; ++s) sim.step();
}

// One more step of `sim`, its problem exported to an FCLIB file and read back; returns
// io's fc3d error of the step's impulses on that problem.
double fclib_error_of_next_step(timestep::Simulation& sim) {
  const auto path = (std::filesystem::temp_directory_path() /
                     ("granite_fc3d_measure_" + std::to_string(::getpid()) + ".h5"))
                        .string();
  sim.set_contact_problem_observer([&](const std::vector<solver::SolverContact>& contacts,
                                       const std::vector<solver::BodyState>& states) {
    io::FclibMatrix W;
    Eigen::VectorXd q, mu;
    solver::export_contact_problem(contacts, states, W, q, mu);
    io::write_fclib_local(path, W, q, mu);
  });
  sim.step();
  sim.set_contact_problem_observer(nullptr);
  const io::FclibProblem problem = io::read_fclib(path);
  std::filesystem::remove(path);
  const auto m = static_cast<Eigen::Index>(sim.impulses().size());
  EXPECT_EQ(static_cast<Eigen::Index>(problem.contacts()), m);
  Eigen::VectorXd r(3 * m);
  for (Eigen::Index j = 0; j < m; ++j) r.segment<3>(3 * j) = sim.impulses()[std::size_t(j)];
  return solver::fc3d_error(problem.W, problem.q, problem.mu, r);
}

}  // namespace

TEST(Fc3dMeasure, AgreesWithFclibErrorOfTheSameStep) {
  timestep::Simulation sim;
  build_packing(sim);
  auto& p = sim.parameters();
  // Unconverged (a few sweeps, error well above round-off) and converged, with either
  // measure deciding when to stop.
  for (const auto convergence : {solver::Convergence::impulse_change, solver::Convergence::fc3d})
    for (const int sweeps : {3, 400}) {
      p.convergence = convergence;
      p.max_sweeps = sweeps;
      p.tolerance = convergence == solver::Convergence::fc3d ? 1e-4 : 1e-9;
      const double reference = fclib_error_of_next_step(sim);
      const auto& s = sim.statistics();
      ASSERT_GT(s.contacts, 80u);
      EXPECT_NEAR(s.fc3d_error, reference, 1e-12) << sweeps << " sweeps";
      if (sweeps == 3) {
        EXPECT_GT(reference, 1e-6);  // really unconverged
      }
      if (convergence == solver::Convergence::fc3d) {
        EXPECT_EQ(s.converged, s.fc3d_error < p.tolerance);
        if (sweeps == 400) {
          EXPECT_TRUE(s.converged) << s.fc3d_error;
        }
      }
    }
}
