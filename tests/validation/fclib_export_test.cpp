// Export of an engine step's contact problem as an FCLIB local problem u = W r + q: for a
// settled packing of spheres in a box, the assembled W has the engine's Delassus diagonal
// blocks and is symmetric, survives a write/read round trip, and the matrix relaxation of the
// exported problem reproduces the engine's own relaxation (same contacts, order and model).
#include "granite/collision/detection.hpp"
#include "granite/io/fclib/fclib.hpp"
#include "granite/solver/fc3d_error.hpp"
#include "granite/solver/contact_problem_export.hpp"
#include "granite/solver/matrix_relaxation.hpp"
#include "granite/solver/relaxation.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

using namespace granite;

namespace {
constexpr double kG = 9.81, kR = 0.005, kDt = 1e-3;
constexpr int kNx = 5, kNy = 5, kNz = 6;
}  // namespace

TEST(FclibExport, SettledPackingMatchesEngineRelaxation) {
  timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.error_reduction = 0.2;
  p.contact_threshold = 0.1 * kR;
  p.model.model = contact::Model::coulomb;
  p.max_sweeps = 100;  // cheap while settling
  p.tolerance = 1e-4;
  p.convergence = solver::Convergence::impulse_change;  // settled as the test was designed:
  p.warm_start = 0.0;                                   // cold, in lattice order
  p.locality_sort = false;
  const auto mat = sim.materials().add({2650.0, 0.5});
  const double spacing = 2.2 * kR, L = kNx * spacing;
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitX()}, mat);
  sim.globals().add(body::HalfSpace{Vec3(L, 0, 0), -Vec3::UnitX()}, mat);
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitY()}, mat);
  sim.globals().add(body::HalfSpace{Vec3(0, L, 0), -Vec3::UnitY()}, mat);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> jitter(-0.08 * kR, 0.08 * kR);
  for (int k = 0; k < kNz; ++k)
    for (int j = 0; j < kNy; ++j)
      for (int i = 0; i < kNx; ++i)
        sim.particles().add_sphere(sim.materials(), mat,
                                   Vec3((i + 0.5) * spacing + jitter(rng),
                                        (j + 0.5) * spacing + jitter(rng),
                                        1.05 * kR + k * 2.1 * kR),
                                   kR);
  for (int s = 0; s < 150; ++s) sim.step();
  const double settled_energy = sim.statistics().kinetic_energy;

  // The step under test: the engine's phases redone by hand on the current state.
  p.max_sweeps = 200000;
  p.tolerance = 1e-12;
  collision::ContactDetection detection;
  collision::ContactList contacts;
  detection.detect(sim.particles(), sim.globals(), sim.shapes(), p.contact_threshold, contacts);
  solver::BodyStates states;
  solver::predict_velocities(sim.particles(), sim.globals(), p.gravity, p.dt, states);
  std::vector<solver::SolverContact> solver_contacts;
  solver::setup_contacts(contacts, sim.particles(), sim.globals(), sim.materials(), states, p.dt,
                         p.error_reduction, solver_contacts);
  const std::size_t m = solver_contacts.size();
  ASSERT_GT(m, 300u);

  io::FclibMatrix W;
  Eigen::VectorXd q, mu;
  solver::export_contact_problem(solver_contacts, states, W, q, mu);
  ASSERT_EQ(W.rows(), static_cast<Eigen::Index>(3 * m));
  ASSERT_EQ(q.size(), W.rows());
  ASSERT_EQ(mu.size(), static_cast<Eigen::Index>(m));

  // Diagonal blocks are the engine's A; W is symmetric.
  const Eigen::MatrixXd dense(W);
  const double wmax = dense.cwiseAbs().maxCoeff();
  for (std::size_t j = 0; j < m; ++j) {
    const auto J = static_cast<Eigen::Index>(3 * j);
    const Mat3 block = dense.block<3, 3>(J, J);
    const Mat3 A = solver_contacts[j].A;
    ASSERT_LE((block - A).cwiseAbs().maxCoeff(), 1e-12 * A.cwiseAbs().maxCoeff()) << j;
    EXPECT_EQ(mu[static_cast<Eigen::Index>(j)], solver_contacts[j].mu);
  }
  EXPECT_LE((dense - dense.transpose()).cwiseAbs().maxCoeff(), 1e-12 * wmax);
  const std::size_t off_diagonal_blocks = static_cast<std::size_t>(W.nonZeros()) / 9 - m;

  // Round trip through an FCLIB file.
  const auto path = (std::filesystem::temp_directory_path() /
                     ("granite_fclib_export_" + std::to_string(::getpid()) + ".h5"))
                        .string();
  io::write_fclib_local(path, W, q, mu);
  const io::FclibProblem problem = io::read_fclib(path);
  std::filesystem::remove(path);
  ASSERT_EQ(problem.W.rows(), W.rows());
  ASSERT_EQ(problem.contacts(), m);
  EXPECT_EQ((Eigen::MatrixXd(problem.W) - dense).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ((problem.q - q).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ((problem.mu - mu).cwiseAbs().maxCoeff(), 0.0);

  // The engine's relaxation of these contacts ...
  std::vector<Vec3> impulses(m, Vec3::Zero());
  std::vector<solver::BodyState> bodies = states;
  const solver::RelaxationSettings settings{p.model, p.max_sweeps, p.tolerance};
  const auto engine = solver::relax(settings, solver_contacts, impulses, bodies);
  ASSERT_TRUE(engine.converged) << engine.residual;
  Eigen::VectorXd r_engine(3 * static_cast<Eigen::Index>(m));
  for (std::size_t j = 0; j < m; ++j)
    r_engine.segment<3>(3 * static_cast<Eigen::Index>(j)) = impulses[j];

  // ... is what the Simulation computes in its next step (same contacts and order) ...
  sim.step();
  ASSERT_EQ(sim.impulses().size(), m);
  double lmax = 0.0;
  for (const auto& x : impulses) lmax = std::max(lmax, x.norm());
  ASSERT_GT(lmax, 0.0);
  double sim_difference = 0.0;
  for (std::size_t j = 0; j < m; ++j)
    sim_difference = std::max(sim_difference, (sim.impulses()[j] - impulses[j]).norm());
  EXPECT_LE(sim_difference, 1e-14 * lmax);
  EXPECT_EQ(sim.statistics().sweeps, engine.sweeps);

  // ... solves the exported problem ...
  const double engine_error = solver::fc3d_error(problem.W, problem.q, problem.mu, r_engine);
  EXPECT_LE(engine_error, 1e-8);

  // ... and equals the matrix relaxation's solution.
  Eigen::VectorXd r;
  const auto matrix =
      solver::relax_matrix(problem.W, problem.q, problem.mu, p.model, 1e-12, 200000, r);
  EXPECT_TRUE(matrix.converged) << matrix.error;
  double difference = 0.0;
  for (std::size_t j = 0; j < m; ++j)
    difference =
        std::max(difference, (r.segment<3>(3 * static_cast<Eigen::Index>(j)) - impulses[j]).norm());
  EXPECT_LE(difference, 1e-8 * lmax);

  std::printf("[fclib export] %zu contacts, %zu off-diagonal blocks; engine %d sweeps "
              "(residual %.2e), fc3d error of engine impulses %.2e; relax_matrix %d sweeps "
              "(error %.2e); max |dλ| / max |λ| = %.2e; Simulation vs hand-run %.2e; "
              "kinetic energy before %.2e J\n",
              m, off_diagonal_blocks, engine.sweeps, engine.residual, engine_error, matrix.sweeps,
              matrix.error, difference / lmax, sim_difference / lmax, settled_energy);
}
