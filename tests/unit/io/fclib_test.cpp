// FCLIB reader, error measure and matrix relaxation on tests/data/fclib (a copy of the
// team's shared set; tests/data/fclib/README.md documents it).
#include "granite/contact/single_contact.hpp"
#include "granite/core/error.hpp"
#include "granite/io/fclib/fclib.hpp"
#include "granite/solver/fc3d_error.hpp"
#include "granite/solver/matrix_relaxation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>

namespace granite {
namespace {

const std::string kDir = std::string(GRANITE_SOURCE_DIR) + "/tests/data/fclib";

std::string problem_path(const std::string& name) { return kDir + "/problems/" + name + ".hdf5"; }
std::string reference_path(const std::string& name) { return kDir + "/references/" + name + ".h5"; }

struct Expected {
  const char* name;
  const char* form;
  std::size_t nc;
  std::size_t ndof;
};

// The README table.
const Expected kProblems[] = {
    {"local_problem_test", "local", 48, 0},
    {"LMGC_100_PR_PerioBox-i00361-60-03000", "local", 60, 0},
    {"Capsules-i125-1213", "local", 286, 0},
    {"CubeH8", "global", 1, 162},
    {"LMGC_GFC3D-i00001-1-00000", "global", 1, 48},
    {"LMGC_GFC3D-i00501-4-00000", "global", 4, 162},
    {"LMGC_GlobalFrictionContactProblem00046", "global", 9, 162},
    {"Box_Stacks-i0122-82-5", "global", 82, 450},
    {"spheres-in-a-box-98-i10000-256-10", "global", 256, 588},
    {"Spheres-i099-356-679", "global", 356, 12000},
};

bool data_available() { return std::filesystem::is_directory(kDir + "/problems"); }

TEST(Fclib, ReadsEveryProblemWithTheReadmeSizes) {
  ASSERT_TRUE(data_available()) << kDir << " not present";
  for (const auto& e : kProblems) {
    SCOPED_TRACE(e.name);
    const auto p = io::read_fclib(problem_path(e.name));
    EXPECT_EQ(p.name, e.name);
    EXPECT_EQ(p.form, e.form);
    EXPECT_EQ(p.contacts(), e.nc);
    EXPECT_EQ(p.ndof, e.ndof);
    EXPECT_EQ(p.W.rows(), static_cast<Eigen::Index>(3 * e.nc));
    EXPECT_EQ(p.W.cols(), static_cast<Eigen::Index>(3 * e.nc));
    EXPECT_EQ(p.q.size(), static_cast<Eigen::Index>(3 * e.nc));
  }
}

TEST(Fclib, PerioBoxHasTwoFrictionCoefficients) {
  ASSERT_TRUE(data_available()) << kDir << " not present";
  const auto p = io::read_fclib(problem_path("LMGC_100_PR_PerioBox-i00361-60-03000"));
  EXPECT_DOUBLE_EQ(p.mu.minCoeff(), 0.3);
  EXPECT_DOUBLE_EQ(p.mu.maxCoeff(), 0.5);
}

TEST(Fclib, ReferenceSolutionsHaveTinyErrorAndTheirU) {
  ASSERT_TRUE(data_available()) << kDir << " not present";
  for (const auto& e : kProblems) {
    SCOPED_TRACE(e.name);
    const auto p = io::read_fclib(problem_path(e.name));
    const auto ref = io::read_fclib_reference(reference_path(e.name));
    ASSERT_EQ(ref.r.size(), p.q.size());
    const double error = solver::fc3d_error(p.W, p.q, p.mu, ref.r);
    EXPECT_LE(error, 1e-9);
    EXPECT_LE(ref.error, 1e-10);
    // Our condensation reproduces the reference u = W r + q.
    const Eigen::VectorXd u = p.W * ref.r + p.q;
    const double scale = std::max(ref.u.norm(), p.q.norm());
    EXPECT_LE((u - ref.u).norm(), 1e-8 * scale);
  }
}

TEST(Fclib, ErrorOfZeroImpulseOnSeparatingContactIsZero) {
  io::FclibMatrix W(3, 3);
  W.setIdentity();
  const Eigen::VectorXd q = Eigen::Vector3d(1.0, 0.2, 0.0);
  const Eigen::VectorXd mu = Eigen::VectorXd::Constant(1, 0.5);
  EXPECT_EQ(solver::fc3d_error(W, q, mu, Eigen::VectorXd::Zero(3)), 0.0);
  // Approaching contact: r = 0 is wrong, the sticking impulse r = −q (u = 0) is right.
  const Eigen::VectorXd q2 = Eigen::Vector3d(-1.0, 0.1, 0.0);
  EXPECT_GT(solver::fc3d_error(W, q2, mu, Eigen::VectorXd::Zero(3)), 0.1);
  EXPECT_LT(solver::fc3d_error(W, q2, mu, -q2), 1e-15);
}

// One sliding contact (W = A of a sphere on a plane, q = −b): the CCP solution has zero CCP
// error but a Coulomb error (it lifts, u_n = μ‖u_T‖ > 0); the maximum-dissipation solution is a
// Coulomb solution (fc3d error 0) with a positive CCP error. Both errors are 0 for frictionless
// contacts, where the two problems coincide. Tolerances: rounding of one 3×3 problem (1e-14).
TEST(Fclib, CcpAndCoulombErrorsTellTheModelsApart) {
  Mat3 A = Mat3::Zero();
  A.diagonal() << 1.0, 3.5, 3.5;
  const Vec3 b(0.01, -1.0, 0.0);
  const double mu = 0.3;
  io::FclibMatrix W(3, 3);
  for (int i = 0; i < 3; ++i) W.insert(i, i) = A(i, i);
  const Eigen::VectorXd q = -b;
  const Eigen::VectorXd mus = Eigen::VectorXd::Constant(1, mu);
  const Eigen::VectorXd ccp = contact::ccp_impulse(A, b, mu).x;
  const Eigen::VectorXd mdp = contact::max_dissipation_impulse(A, b, mu).x;
  EXPECT_LT(solver::ccp_error(W, q, mus, ccp), 1e-14);
  EXPECT_GT(solver::fc3d_error(W, q, mus, ccp), 1e-3);
  EXPECT_LT(solver::fc3d_error(W, q, mus, mdp), 1e-14);
  EXPECT_GT(solver::ccp_error(W, q, mus, mdp), 1e-3);
  const Eigen::VectorXd mu0 = Eigen::VectorXd::Zero(1);
  const Eigen::VectorXd frictionless = contact::frictionless_impulse(A, b, 0.0).x;
  EXPECT_LT(solver::ccp_error(W, q, mu0, frictionless), 1e-14);
  EXPECT_LT(solver::fc3d_error(W, q, mu0, frictionless), 1e-14);
}

// The cone complementarity problem has one u (W is positive semidefinite: the objective is
// convex, strictly in u) even where r is not unique. Gauss–Seidel with the exact CCP contact
// solution and APGD, both run to CCP error 1e-9, must agree on u and on the objective
// ½rᵀWr + qᵀr: at error ε both are within O(ε) of the solution, so 1e-6 relative to the
// problem's scale leaves a factor 1000 for the conditioning of these problems.
TEST(Fclib, GaussSeidelCcpAndApgdReachTheSameSolution) {
  ASSERT_TRUE(data_available()) << kDir << " not present";
  const contact::ModelSettings ccp{contact::Model::ccp, 20};
  int compared = 0;
  for (const auto& e : kProblems) {
    SCOPED_TRACE(e.name);
    const auto p = io::read_fclib(problem_path(e.name));
    Eigen::VectorXd r_gs, r_apgd;
    const auto gs = solver::relax_matrix(p.W, p.q, p.mu, ccp, 1e-9, 3000, r_gs);
    const auto apgd = solver::apgd_matrix(p.W, p.q, p.mu, 1e-9, 5000, r_apgd);
    EXPECT_LE(solver::ccp_error(p.W, p.q, p.mu, r_apgd), apgd.error * (1 + 1e-12));
    if (!gs.converged || !apgd.converged) continue;  // compare where both converge
    ++compared;
    const Eigen::VectorXd u_gs = p.W * r_gs + p.q, u_apgd = p.W * r_apgd + p.q;
    const double scale = std::max({p.q.norm(), u_gs.norm(), r_gs.norm()});
    EXPECT_LE((u_gs - u_apgd).norm(), 1e-6 * scale);
    const auto objective = [&](const Eigen::VectorXd& r) {
      return 0.5 * r.dot(p.W * r) + p.q.dot(r);
    };
    EXPECT_NEAR(objective(r_gs), objective(r_apgd), 1e-6 * scale * r_gs.norm());
  }
  EXPECT_GE(compared, 6);  // Box_Stacks, CubeH8, PerioBox, both GFC3D, 00046, Spheres-356
}

// Where Siconos' reference solution is also a CCP solution (its CCP error is below 1e-10: no
// contact slides), APGD reaches the reference u. The u error of an iterate is about the error
// times the condition of W on its range (PerioBox: 5e-5 at error 1e-10, 5e-8 at 1e-13), so
// APGD runs to 1e-13 here and u must agree to 1e-6.
TEST(Fclib, ApgdReachesTheReferenceWhereItIsACcpSolution) {
  ASSERT_TRUE(data_available()) << kDir << " not present";
  int compared = 0;
  for (const auto& e : kProblems) {
    SCOPED_TRACE(e.name);
    const auto p = io::read_fclib(problem_path(e.name));
    const auto ref = io::read_fclib_reference(reference_path(e.name));
    if (!(solver::ccp_error(p.W, p.q, p.mu, ref.r) < 1e-10)) continue;
    ++compared;
    Eigen::VectorXd r;
    const auto apgd = solver::apgd_matrix(p.W, p.q, p.mu, 1e-13, 20000, r);
    EXPECT_TRUE(apgd.converged) << "error " << apgd.error;
    const Eigen::VectorXd u = p.W * r + p.q;
    EXPECT_LE((u - ref.u).norm(), 1e-6 * std::max(ref.u.norm(), p.q.norm()));
  }
  EXPECT_GE(compared, 1);
}

// Full-rank problems (rank W = 3nc): coulomb relaxation reaches 1e-8 from r = 0 with the
// README's NSGS sweep counts, and u agrees with the reference.
TEST(Fclib, CoulombRelaxationSolvesTheFullRankProblems) {
  ASSERT_TRUE(data_available()) << kDir << " not present";
  const std::map<std::string, int> nsgs_sweeps_to_1e8 = {
      {"CubeH8", 1},
      {"LMGC_GFC3D-i00001-1-00000", 1},
      {"LMGC_GFC3D-i00501-4-00000", 12},
      {"LMGC_GlobalFrictionContactProblem00046", 11},
      {"Spheres-i099-356-679", 229},
  };
  const contact::ModelSettings settings{contact::Model::coulomb, 20};
  for (const auto& [name, nsgs] : nsgs_sweeps_to_1e8) {
    SCOPED_TRACE(name);
    const auto p = io::read_fclib(problem_path(name));
    const auto ref = io::read_fclib_reference(reference_path(name));
    Eigen::VectorXd r;
    const auto result = solver::relax_matrix(p.W, p.q, p.mu, settings, 1e-8, 2000, r);
    EXPECT_TRUE(result.converged) << "best error " << result.best_error;
    EXPECT_LE(result.error, 1e-8);
    EXPECT_LE(result.sweeps, 2 * nsgs + 2);
    EXPECT_LE(solver::fc3d_error(p.W, p.q, p.mu, r), 1e-8);
    const Eigen::VectorXd u = p.W * r + p.q;
    const double scale = std::max(ref.u.norm(), p.q.norm());
    // At error 1e-8 u agrees with the reference to about that relative level.
    EXPECT_LE((u - ref.u).norm(), 1e-6 * scale);
    // Full rank: r itself is unique.
    EXPECT_LE((r - ref.r).norm(), 1e-5 * ref.r.norm());
  }
}

// Rank-deficient problems, capped sweeps: 1e-4 is reached as fast as plain NSGS.
TEST(Fclib, CoulombRelaxationReaches1e4OnRankDeficientProblems) {
  ASSERT_TRUE(data_available()) << kDir << " not present";
  const std::map<std::string, int> nsgs_sweeps_to_1e4 = {
      {"LMGC_100_PR_PerioBox-i00361-60-03000", 1},
      {"Capsules-i125-1213", 12},
      {"Box_Stacks-i0122-82-5", 13},
      {"spheres-in-a-box-98-i10000-256-10", 754},
  };
  const contact::ModelSettings settings{contact::Model::coulomb, 20};
  for (const auto& [name, nsgs] : nsgs_sweeps_to_1e4) {
    SCOPED_TRACE(name);
    const auto p = io::read_fclib(problem_path(name));
    Eigen::VectorXd r;
    const auto result = solver::relax_matrix(p.W, p.q, p.mu, settings, 1e-4, 2 * nsgs + 2, r);
    EXPECT_TRUE(result.converged) << "best error " << result.best_error;
    EXPECT_GE(result.sweeps_to_1e4, 1);
  }
}

// --- malformed files ---------------------------------------------------------------------------

class FclibMalformed : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() /
        ("granite_fclib_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    W_.resize(6, 6);
    W_.setIdentity();
    W_.coeffRef(0, 3) = 0.1;
    W_.coeffRef(3, 0) = 0.1;
    q_ = Eigen::VectorXd::LinSpaced(6, -1.0, 1.0);
    mu_ = Eigen::VectorXd::Constant(2, 0.4);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const char* name) const { return (dir_ / name).string(); }

  // Expects InputError whose message names the file and contains `what`.
  static void expect_error(const std::string& file, const std::string& what) {
    try {
      io::read_fclib(file);
      FAIL() << "no InputError for " << file;
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(file), std::string::npos) << message;
      EXPECT_NE(message.find(what), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }

  std::filesystem::path dir_;
  io::FclibMatrix W_;
  Eigen::VectorXd q_, mu_;
};

TEST_F(FclibMalformed, WrittenProblemRoundTrips) {
  io::write_fclib_local(path("ok.hdf5"), W_, q_, mu_);
  const auto p = io::read_fclib(path("ok.hdf5"));
  EXPECT_EQ(p.form, "local");
  EXPECT_EQ(p.name, "ok");
  EXPECT_EQ(p.contacts(), 2u);
  EXPECT_EQ(Eigen::MatrixXd(p.W), Eigen::MatrixXd(W_));
  EXPECT_EQ(p.q, q_);
  EXPECT_EQ(p.mu, mu_);
}

TEST_F(FclibMalformed, WrongQSize) {
  io::write_fclib_local(path("q.hdf5"), W_, q_.head(5), mu_);
  expect_error(path("q.hdf5"), "/fclib_local/vectors/q");
}

TEST_F(FclibMalformed, WrongMuSize) {
  io::write_fclib_local(path("mu.hdf5"), W_, q_, mu_.head(1));
  expect_error(path("mu.hdf5"), "/fclib_local/vectors/mu");
}

TEST_F(FclibMalformed, NanInW) {
  io::FclibMatrix W = W_;
  W.coeffRef(2, 2) = std::numeric_limits<double>::quiet_NaN();
  io::write_fclib_local(path("nan.hdf5"), W, q_, mu_);
  expect_error(path("nan.hdf5"), "/fclib_local/W/x");
}

TEST_F(FclibMalformed, MissingLocalGroup) {
  io::write_fclib_local(path("group.hdf5"), W_, q_, mu_, "something_else");
  expect_error(path("group.hdf5"), "/fclib_local");
}

TEST_F(FclibMalformed, NotHdf5AndMissingFile) {
  std::ofstream(path("text.hdf5")) << "not hdf5\n";
  expect_error(path("text.hdf5"), "not an HDF5 file");
  expect_error(path("absent.hdf5"), "no such file");
}

TEST_F(FclibMalformed, NonSquareW) {
  // Eigen's setIdentity() is for square matrices only (in a Release build it silently wrote
  // column indices 3-5 into this 6x3 matrix; found by ./scripts/sanitize's Eigen assertions).
  io::FclibMatrix W(6, 3);
  for (int k = 0; k < 3; ++k) W.insert(k, k) = 1.0;
  io::write_fclib_local(path("square.hdf5"), W, q_, mu_);
  expect_error(path("square.hdf5"), "square");
}

}  // namespace
}  // namespace granite
