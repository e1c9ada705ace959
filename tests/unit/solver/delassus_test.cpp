// The Delassus diagonal block (Eq. 2) against a brute-force W M⁻¹ Wᵀ built from the
// generalized-coordinate Jacobian, and against the velocity change the relaxation applies.
#include "granite/solver/delassus.hpp"
#include "granite/collision/detection.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"
#include "granite/solver/relaxation.hpp"
#include "../../support/solver_contact.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstring>
#include <random>

using namespace granite;

namespace {

Mat3 random_spd(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat3 B;
  for (int i = 0; i < 9; ++i) B(i / 3, i % 3) = u(rng);
  return B * B.transpose() + 0.5 * Mat3::Identity();
}

}  // namespace

TEST(Delassus, MatchesBruteForceJacobian) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const double m1 = 1.0 + u(rng) * 0.5, m2 = 2.0 + u(rng);
    // Asymmetric bodies (world frame); in every second trial body 1 is a sphere (I = kE).
    const Mat3 I1 = trial % 2 == 0 ? random_spd(rng) : (1.0 + 0.5 * u(rng)) * Mat3::Identity();
    const Mat3 I2 = random_spd(rng);
    const Vec3 r1(u(rng), u(rng), u(rng)), r2(u(rng), u(rng), u(rng));
    // Random orthonormal contact frame Q = [n t o] (t, o as the setup forms them from n).
    const Vec3 n = Eigen::Quaterniond::UnitRandom().toRotationMatrix().col(0);
    const Mat3 Q = test_support::solver_contact(n, Mat3::Identity(), r1, r2, 0.5).frame();

    // Generalized velocities (v1, ω1, v2, ω2); the contact-frame relative velocity is Wᵀ q:
    // u = Qᵀ (v1 + ω1 × r1 − v2 − ω2 × r2), so Wᵀ = Qᵀ [E, −[r1]×, −E, [r2]×].
    Eigen::Matrix<double, 3, 12> Wt;
    Wt << Q.transpose(), -Q.transpose() * solver::cross_matrix(r1), -Q.transpose(),
        Q.transpose() * solver::cross_matrix(r2);
    Eigen::Matrix<double, 12, 12> Minv = Eigen::Matrix<double, 12, 12>::Zero();
    Minv.block<3, 3>(0, 0) = Mat3::Identity() / m1;
    Minv.block<3, 3>(3, 3) = I1.inverse();
    Minv.block<3, 3>(6, 6) = Mat3::Identity() / m2;
    Minv.block<3, 3>(9, 9) = I2.inverse();
    const Mat3 brute = Wt * Minv * Wt.transpose();

    const Mat3 A =
        solver::delassus_diagonal(Q, 1.0 / m1, I1.inverse(), r1, 1.0 / m2, I2.inverse(), r2);
    EXPECT_LT((A - brute).norm(), 1e-12 * brute.norm()) << A << "\nvs\n" << brute;
    EXPECT_LT((A - A.transpose()).norm(), 1e-12 * A.norm());

    // The relaxation's impulse application changes u by exactly A λ.
    std::vector<solver::BodyState> bodies(2);
    const Mat3 I1_inverse = I1.inverse(), I2_inverse = I2.inverse();
    bodies[0] = test_support::random_moving_body(rng, u, 1.0 / m1, &I1_inverse);
    bodies[1] = test_support::random_moving_body(rng, u, 1.0 / m2, &I2_inverse);
    const solver::SolverContact c = test_support::solver_contact(n, A, r1, r2, 0.5);
    auto rel = [&] {
      const auto& b1 = bodies[0];
      const auto& b2 = bodies[1];
      return Vec3(Q.transpose() * ((b1.v + b1.dv) + (b1.w + b1.dw).cross(r1) - (b2.v + b2.dv) -
                                   (b2.w + b2.dw).cross(r2)));
    };
    const Vec3 before = rel();
    const Vec3 lambda(u(rng), u(rng), u(rng));
    solver::apply_impulses({c}, {lambda}, bodies);
    EXPECT_LT((rel() - before - A * lambda).norm(), 1e-12);
  }
}

TEST(Delassus, InfiniteMassContributesNothingAndSphereIsIsotropic) {
  // Sphere (m, I = 2/5 m r² E) on a wall, r = −R n: A = diag(1/m, 7/(2m), 7/(2m)).
  const double m = 3.0, R = 0.5;
  const Mat3 Iinv = Mat3::Identity() / (0.4 * m * R * R);
  const Mat3 Q = Mat3::Identity();  // n = x
  const Mat3 A =
      solver::delassus_diagonal(Q, 1.0 / m, Iinv, Vec3(-R, 0, 0), 0.0, Mat3::Zero(), Vec3::Zero());
  Mat3 expected = Mat3::Zero();
  expected.diagonal() << 1.0 / m, 3.5 / m, 3.5 / m;
  EXPECT_LT((A - expected).norm(), 1e-14);
}

// sphere_contact_delassus against delassus_diagonal with the spheres' lever arms r1 = −R1 n,
// r2 = R2 n: equal to rounding (each entry sums ≤ 12 products of terms ≤ ‖A‖: ≤ 30 ulp of ‖A‖),
// with A_nt = A_no = 0 exactly, and A_tt = A_oo, A_to = 0 exactly for isotropic inertia.
TEST(Delassus, SphereContactFormMatchesTheGeneralForm) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const bool iso1 = trial % 2 == 0, iso2 = trial % 3 == 0, global2 = trial % 5 == 0;
    solver::BodyState s1{}, s2{};
    s1.inverse_mass = 1.0 + 0.5 * u(rng);
    const Mat3 I1 = random_spd(rng), I2 = random_spd(rng);
    if (iso1)
      s1.set_inverse_inertia(2.0 + u(rng));
    else
      s1.set_inverse_inertia(&I1);
    s2.inverse_mass = global2 ? 0.0 : 2.0 + u(rng);
    if (global2)
      s2.set_inverse_inertia(0.0);
    else if (iso2)
      s2.set_inverse_inertia(1.0 + 0.5 * u(rng));
    else
      s2.set_inverse_inertia(&I2);
    const double R1 = 1.0 + 0.5 * u(rng), R2 = global2 ? 0.0 : 0.7 + 0.3 * u(rng);
    const Mat3 Q = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    const Vec3 n = Q.col(0);
    const Mat3 A = solver::sphere_contact_delassus(Q, s1, R1, s2, R2);
    const Mat3 general =
        solver::delassus_diagonal(Q, s1.inverse_mass, s1.inverse_inertia(), -R1 * n,
                                  s2.inverse_mass, s2.inverse_inertia(), R2 * n);
    EXPECT_LT((A - general).norm(), 30 * 2.3e-16 * general.norm()) << A << "\nvs\n" << general;
    EXPECT_EQ(A(0, 1), 0.0);
    EXPECT_EQ(A(0, 2), 0.0);
    EXPECT_EQ(A(1, 0), 0.0);
    EXPECT_EQ(A(2, 0), 0.0);
    EXPECT_EQ(A(1, 2), A(2, 1));
    if (iso1 && (iso2 || global2)) {
      EXPECT_EQ(A(1, 1), A(2, 2));
      EXPECT_EQ(A(1, 2), 0.0);
    }
  }
}

// block_reduction takes Â = A_to,to for a_to = 0 without the products by 1/A_nn: bit for bit the
// Schur complement's value, for sphere blocks (isotropic or not, ±0 couplings) over 24 decades,
// and the general form where 1/A_nn is not finite (a block of two infinite masses).
TEST(Delassus, UncoupledBlockReductionIsTheSchurComplementBitwise) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto reference = [](const Mat3& A) {
    const double inv_Ann = 1.0 / A(0, 0);
    const contact::SchurComplement h = contact::schur_complement(A, inv_Ann);
    return contact::BlockReduction{inv_Ann, 1.0 / (h.h11 * h.h22 - h.h12 * h.h12)};
  };
  const auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (int trial = 0; trial < 2000; ++trial) {
    const double scale = std::pow(10.0, 12.0 * u(rng));
    solver::BodyState s1{}, s2{};
    s1.inverse_mass = scale * (1.0 + 0.5 * u(rng));
    const Mat3 I1 = scale * random_spd(rng);
    if (trial % 2 == 0)
      s1.set_inverse_inertia(scale * (2.0 + u(rng)));
    else
      s1.set_inverse_inertia(&I1);
    s2.inverse_mass = scale * (2.0 + u(rng));
    const Mat3 I2 = scale * random_spd(rng);
    s2.set_inverse_inertia(&I2);
    const Mat3 Q = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    Mat3 A = solver::sphere_contact_delassus(Q, s1, 1.0 + 0.5 * u(rng), s2,
                                             trial % 3 == 0 ? 0.0 : 0.7 + 0.3 * u(rng));
    if (trial % 4 == 1) A(0, 1) = A(1, 0) = -0.0;
    const contact::BlockReduction r = contact::block_reduction(A), e = reference(A);
    EXPECT_TRUE(same(r.inv_Ann, e.inv_Ann) && same(r.inv_det, e.inv_det)) << A;
  }
  for (const double Ann : {0.0, 1e-310}) {  // 1/A_nn infinite: NaN, as the general form gives
    Mat3 A = Mat3::Zero();
    A(0, 0) = Ann;
    A(1, 1) = A(2, 2) = 1.0;
    EXPECT_TRUE(std::isnan(contact::block_reduction(A).inv_det));
    EXPECT_TRUE(std::isnan(reference(A).inv_det));
  }
}

TEST(SignoriniGapTerm, ErrorReduction) {
  EXPECT_DOUBLE_EQ(solver::signorini_gap_term(-1e-3, 1e-2, 0.25), 0.25 * -1e-3 / 1e-2);
  EXPECT_DOUBLE_EQ(solver::signorini_gap_term(2e-3, 1e-2, 0.25), 2e-3 / 1e-2);
  EXPECT_DOUBLE_EQ(solver::signorini_gap_term(0.0, 1e-2, 0.25), 0.0);
}

// A clump's contact acts at its part's witness point, off the clump's centre: the setup forms
// the general block from those lever arms (not the sphere form ∓R n). A dimer tilted about y
// touches a plane with one part: r1 has a component along the plane, so A couples the normal
// and tangential rows.
TEST(Delassus, SetupFormsAClumpsBlockFromItsLeverArms) {
  body::MaterialTable materials;
  const auto glass = materials.add({2500.0, 0.5});
  body::ShapeTable shapes;
  const double r = 1e-3, a = 0.6e-3;
  const auto dimer = shapes.add_clump("dimer", {{r, Vec3(-a, 0, 0)}, {r, Vec3(a, 0, 0)}});
  body::Particles particles;
  const Quat tilt(Eigen::AngleAxisd(0.4, Vec3(0.3, 1.0, 0.2).normalized()));
  particles.add_shaped(materials, shapes, dimer, glass, Vec3(0, 0, 0.002), tilt);
  const double lowest = 0.002 - a * std::sin(0.4) - r;  // roughly: the floor under the low part
  body::GlobalBodies globals;
  globals.add(body::HalfSpace{Vec3(0, 0, lowest - 1e-3), Vec3::UnitZ()}, glass);
  const auto [contacts, states, setup] =
      test_support::set_up_scene(particles, globals, materials, shapes, 2e-3);
  ASSERT_EQ(contacts.size(), 2u);  // both parts within the threshold, at different heights
  for (std::size_t j = 0; j < setup.size(); ++j) {
    const Vec3 r1 = contacts.witness1(j) - particles.position[0];
    const Mat3 expected = solver::delassus_diagonal(contacts.frame(j), particles.inverse_mass[0],
                                                    particles.world_inverse_inertia(0), r1, 0.0,
                                                    Mat3::Zero(), Vec3::Zero());
    const Mat3 A = setup[j].A;
    EXPECT_LT((A - expected).norm(), 1e-12 * expected.norm()) << "contact " << j;
    EXPECT_GT(std::abs(A(0, 1)) + std::abs(A(0, 2)), 1e-3 * expected.norm())
        << "contact " << j << ": no normal-tangential coupling, the lever arm is not off-centre";
  }
}

// The setup takes each contact's μ from its bodies' materials (MaterialTable::pair_friction,
// the minimum of the two): a grain (0.5) on a grain and on a wall (0.2).
TEST(SetupContacts, FrictionIsThePairsOfMaterials) {
  body::MaterialTable materials;
  const auto grain = materials.add({2650.0, 0.5});
  const auto wall = materials.add({7800.0, 0.2});
  body::Particles particles;
  particles.add_sphere(materials, grain, Vec3(0, 0, 0.09), 0.1);  // on the floor
  particles.add_sphere(materials, grain, Vec3(0, 0, 0.29), 0.1);  // on the first
  body::GlobalBodies globals;
  globals.add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, wall);
  const auto [contacts, states, setup] =
      test_support::set_up_scene(particles, globals, materials, body::ShapeTable{}, 0.0);
  ASSERT_EQ(contacts.size(), 2u);
  for (std::size_t j = 0; j < setup.size(); ++j)
    EXPECT_EQ(setup[j].mu, contacts.involves_global(j) ? 0.2 : 0.5) << "contact " << j;
}
