// Compatible contact forces (solver/compatible_forces.hpp; Olsen & Kamrin Eqs. 36–37) against
// hand-derived statics: the beam on three supports (§8.1), a sphere in a V-groove with a floor
// and in an inverted square pyramid, an isostatic column, and a Hooke pile against an
// independent displacement solve with an active set.
//
// Tolerances: the solver stops at ‖Bᵀf − F̃‖∞ ≤ 1e-11‖F̃‖∞ and a projected Lagrangian gradient
// ≤ 1e-11 (scaled problem, forces O(1)); the problems are well conditioned (stiffness ratios
// ≤ 4, unit lever arms), so the forces are accurate to ~1e-10 and are compared to 1e-8.
#include "granite/solver/compatible_forces.hpp"
#include "granite/solver/contact_kinematics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <numeric>

using namespace granite;
using Eigen::VectorXd;
using solver::BodyState;
using solver::CompatibleSettings;
using solver::ContactLaw;
using solver::SolverContact;

namespace {

constexpr double kForceTolerance = 1e-8;

CompatibleSettings tight() {
  CompatibleSettings s;
  s.tolerance = 1e-11;
  return s;
}

// B given as a dense matrix (contacts × rows): the matrix-level form of the operator.
struct DenseOperator {
  Eigen::MatrixXd B;
  Eigen::Index contacts() const { return B.rows(); }
  Eigen::Index rows() const { return B.cols(); }
  void transpose(const VectorXd& f, VectorXd& r) const { r = B.transpose() * f; }
  void apply(const VectorXd& y, VectorXd& g) const { g = B * y; }
  template <std::size_t K>
  void sum(std::array<double, K>&) const {}
  template <std::size_t K>
  void max(std::array<double, K>&) const {}
};

BodyState sphere_state(double mass, double radius) {
  BodyState b;
  b.v = b.w = b.dv = b.dw = Vec3::Zero();
  b.inverse_mass = 1.0 / mass;
  b.set_inverse_inertia(1.0 / (0.4 * mass * radius * radius));
  return b;
}

BodyState global_state() {
  BodyState b;
  b.v = b.w = b.dv = b.dw = Vec3::Zero();
  b.inverse_mass = 0.0;
  b.set_inverse_inertia(0.0);
  return b;
}

// A contact with normal n (the direction of the force on body 1) and lever arms r1, r2.
SolverContact contact(std::uint32_t body1, std::uint32_t body2, const Vec3& normal, const Vec3& r1,
                      const Vec3& r2) {
  SolverContact c{};
  const Vec3 n = normal.normalized();
  c.set_frame(n);
  c.A = Mat3::Identity();
  c.reduction = contact::block_reduction(c.A.full());
  c.r1 = r1;
  c.r2 = r2;
  c.gap_term = 0.0;
  c.mu = 0.0;
  c.body1 = body1;
  c.body2 = body2;
  return c;
}

// Sphere (body) of radius R on a half-space (global) whose normal n points to the sphere.
SolverContact wall_contact(std::uint32_t sphere, std::uint32_t wall, const Vec3& n, double R) {
  return contact(sphere, wall, n, -R * n.normalized(), Vec3::Zero());
}

// Applies the plain step's normal impulses to the bodies' corrections (what the relaxation
// leaves behind), so that F̃ is read back from dv, dw as Eq. (37) does.
void apply_plain(const std::vector<SolverContact>& contacts, const VectorXd& impulses,
                 std::vector<BodyState>& bodies) {
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const auto& c = contacts[i];
    solver::apply_impulse(c, impulses[Eigen::Index(i)] * c.normal, bodies[c.body1],
                          bodies[c.body2]);
  }
}

VectorXd solve_compatible(const std::vector<SolverContact>& contacts,
                          const std::vector<BodyState>& bodies, ContactLaw law,
                          const VectorXd& stiffness, VectorXd start = VectorXd()) {
  const auto result = solver::compatible_impulses(contacts, bodies, law, stiffness, tight(), start);
  EXPECT_TRUE(result.converged()) << to_string(result.status) << " violation "
                                  << result.relative_violation << " stationarity "
                                  << result.stationarity;
  EXPECT_LE(result.relative_violation, 1e-11);
  return start;
}

void expect_forces(const VectorXd& f, const VectorXd& expected, const char* what) {
  ASSERT_EQ(f.size(), expected.size()) << what;
  for (Eigen::Index i = 0; i < f.size(); ++i)
    EXPECT_NEAR(f[i], expected[i], kForceTolerance * expected.cwiseAbs().maxCoeff())
        << what << ", contact " << i;
}

// ---------------------------------------------------------------------------------------------
// §8.1: a beam of length L on supports at x = 0, L/2, L, weight w = 10. Rows: vertical force
// and the moment about the centre (arm x_i − L/2 = −L/2, 0, L/2). Uniform k̃: stationarity
// f_i = k̃_i (λ₁ + λ₂ x'_i) (Hooke) and the symmetric load give λ₂ = 0, f = 10/3 each. Middle
// k̃ = 3: f = (λ₁, 3λ₁, λ₁), 5λ₁ = 10 → (2, 6, 2) (the paper's §8.1.2).
DenseOperator beam_operator(double L) {
  DenseOperator op;
  op.B.resize(3, 2);
  op.B << 1.0, -L / 2, 1.0, 0.0, 1.0, L / 2;
  return op;
}

TEST(CompatibleBeam, UniformStiffnessSharesTheWeightEqually) {
  auto op = beam_operator(2.0);
  const VectorXd net = (VectorXd(2) << 10.0, 0.0).finished();
  for (auto law : {ContactLaw::hooke, ContactLaw::hertz}) {
    VectorXd f = (VectorXd(3) << 0.0, 10.0, 0.0).finished();  // GS, middle contact first
    const auto result = solver::compatible_forces(op, law, VectorXd::Ones(3), net, tight(), f);
    ASSERT_TRUE(result.converged()) << to_string(result.status);
    expect_forces(f, VectorXd::Constant(3, 10.0 / 3.0), "uniform beam");
    EXPECT_GT(result.outer_iterations, 0);
    EXPECT_GT(result.inner_iterations, 0);
  }
}

TEST(CompatibleBeam, StiffMiddleSupportCarriesThreeTimesMore) {
  auto op = beam_operator(2.0);
  const VectorXd net = (VectorXd(2) << 10.0, 0.0).finished();
  VectorXd f;
  const auto result = solver::compatible_forces(
      op, ContactLaw::hooke, (VectorXd(3) << 1.0, 3.0, 1.0).finished(), net, tight(), f);
  ASSERT_TRUE(result.converged()) << to_string(result.status);
  expect_forces(f, (VectorXd(3) << 2.0, 6.0, 2.0).finished(), "stiff middle");
}

// The same beam on the solver's contacts: a box-like body (inverse mass and inertia) above
// three global supports, the contact points at height −h below its centre. The moment of
// support i about the centre is r1 × n = (x'_i, −h, 0) × e_y = x'_i e_z: the same rows as above
// (plus the force rows x, z and moment rows x, y that no contact touches and F̃ leaves zero).
TEST(CompatibleBeam, OnSolverContactsWithTheStepsNetImpulse) {
  const double L = 2.0, h = 0.1;
  std::vector<BodyState> bodies{sphere_state(1.0, 1.0), global_state(), global_state(),
                                global_state()};
  std::vector<SolverContact> contacts;
  for (int i = 0; i < 3; ++i)
    contacts.push_back(contact(0, std::uint32_t(1 + i), Vec3::UnitY(),
                               Vec3((i - 1) * L / 2, -h, 0.0), Vec3::Zero()));
  apply_plain(contacts, (VectorXd(3) << 0.0, 10.0, 0.0).finished(), bodies);
  expect_forces(solve_compatible(contacts, bodies, ContactLaw::hooke, VectorXd::Ones(3)),
                VectorXd::Constant(3, 10.0 / 3.0), "uniform");
  expect_forces(solve_compatible(contacts, bodies, ContactLaw::hooke,
                                 (VectorXd(3) << 1.0, 3.0, 1.0).finished()),
                (VectorXd(3) << 2.0, 6.0, 2.0).finished(), "stiff middle");
}

// ---------------------------------------------------------------------------------------------
// A sphere (weight W) in a 45° V-groove with a floor: normals n_F = e_z, n_± = (±1, 0, 1)/√2.
// Small-displacement compatibility: by symmetry the sphere sinks by δ, u = −δ e_z, so the
// overlaps are c_F = δ, c_± = δ/√2 (Eq. 28, c = −n·u). Vertical balance f_F + √2 f_S = W.
//   Hooke (f = k c):       δ = W/(k_F + k_S),  f_F = W k_F/(k_F + k_S),
//                          f_S = W k_S/(√2 (k_F + k_S)).
//   Hertz (f = k c^{3/2}): f_F = k_F δ^{3/2}, f_S = k_S 2^{−3/4} δ^{3/2}; with
//                          D = k_F + 2^{−1/4} k_S:  f_F = W k_F/D,  f_S = W 2^{−3/4} k_S/D.
struct Groove {
  std::vector<BodyState> bodies;
  std::vector<SolverContact> contacts;
};

Groove groove() {
  Groove g;
  g.bodies = {sphere_state(1.0, 1.0), global_state(), global_state(), global_state()};
  const double s = std::sqrt(0.5);
  g.contacts = {wall_contact(0, 1, Vec3::UnitZ(), 1.0), wall_contact(0, 2, Vec3(s, 0, s), 1.0),
                wall_contact(0, 3, Vec3(-s, 0, s), 1.0)};
  return g;
}

VectorXd groove_expected(ContactLaw law, double W, double kF, double kS) {
  if (law == ContactLaw::hooke) {
    const double fF = W * kF / (kF + kS), fS = W * kS / (std::sqrt(2.0) * (kF + kS));
    return (VectorXd(3) << fF, fS, fS).finished();
  }
  const double D = kF + std::pow(2.0, -0.25) * kS;
  const double fS = W * std::pow(2.0, -0.75) * kS / D;
  return (VectorXd(3) << W * kF / D, fS, fS).finished();
}

TEST(CompatibleGroove, FloorAndSideForcesDoNotDependOnThePlainSolution) {
  const double W = 2.0;
  // Two plain (order-dependent) solutions of the same step: Gauss–Seidel visiting the floor
  // first (it takes all the weight) and visiting the sides first (they take it all).
  const VectorXd floor_first = (VectorXd(3) << W, 0.0, 0.0).finished();
  const VectorXd sides_first =
      (VectorXd(3) << 0.0, W / std::sqrt(2.0), W / std::sqrt(2.0)).finished();
  for (auto law : {ContactLaw::hooke, ContactLaw::hertz})
    for (double kF : {1.0, 3.0, 0.25}) {
      const VectorXd k = (VectorXd(3) << kF, 1.0, 1.0).finished();
      const VectorXd expected = groove_expected(law, W, kF, 1.0);
      for (const VectorXd& plain : {floor_first, sides_first}) {
        auto g = groove();
        apply_plain(g.contacts, plain, g.bodies);
        const VectorXd velocity_before = g.bodies[0].dv;
        expect_forces(solve_compatible(g.contacts, g.bodies, law, k, plain), expected,
                      law == ContactLaw::hooke ? "groove, Hooke" : "groove, Hertz");
        EXPECT_EQ(g.bodies[0].dv, velocity_before);  // the pass never touches velocities
      }
    }
}

// ---------------------------------------------------------------------------------------------
// A sphere (weight W) in an inverted square pyramid, faces inclined by α = 30°: inward normals
// (∓sin α, 0, cos α), (0, ∓sin α, cos α); no floor. 4 contacts, 3 balance equations. By the
// mirror symmetries the sphere sinks straight down by δ, so all four overlaps are δ cos α and
// f_i = k̃_i g(δ cos α) for both laws (g linear for Hooke, ^{3/2} for Hertz): the forces are
// proportional to k̃. Vertical balance cos α (2 f_a + 2 f_b) = W gives
//   f_a = W k_a / (2 cos α (k_a + k_b)),  f_b = W k_b / (2 cos α (k_a + k_b)),
// uniform: W/(4 cos α).
TEST(CompatiblePyramid, UniformAndTwoStifferOppositeFaces) {
  const double W = 3.0, alpha = M_PI / 6, s = std::sin(alpha), c = std::cos(alpha);
  for (auto law : {ContactLaw::hooke, ContactLaw::hertz})
    for (double ka : {1.0, 4.0}) {
      std::vector<BodyState> bodies{sphere_state(1.0, 0.5), global_state(), global_state(),
                                    global_state(), global_state()};
      std::vector<SolverContact> contacts{
          wall_contact(0, 1, Vec3(-s, 0, c), 0.5), wall_contact(0, 2, Vec3(s, 0, c), 0.5),
          wall_contact(0, 3, Vec3(0, -s, c), 0.5), wall_contact(0, 4, Vec3(0, s, c), 0.5)};
      // A lopsided plain solution: the x faces carry everything.
      apply_plain(contacts, (VectorXd(4) << W / (2 * c), W / (2 * c), 0.0, 0.0).finished(), bodies);
      const double kb = 1.0;
      const double fa = W * ka / (2 * c * (ka + kb)), fb = W * kb / (2 * c * (ka + kb));
      expect_forces(
          solve_compatible(contacts, bodies, law, (VectorXd(4) << ka, ka, kb, kb).finished()),
          (VectorXd(4) << fa, fa, fb, fb).finished(), "pyramid");
    }
}

// ---------------------------------------------------------------------------------------------
// Invariants. An isostatic column of three unit-weight spheres on a floor: the forces are
// fixed by statics alone, (3, 2, 1) from the bottom, whatever the stiffnesses.
TEST(CompatibleInvariants, IsostaticColumnIsLeftUnchanged) {
  std::vector<BodyState> bodies{sphere_state(1.0, 1.0), sphere_state(1.0, 1.0),
                                sphere_state(1.0, 1.0), global_state()};
  std::vector<SolverContact> contacts{wall_contact(0, 3, Vec3::UnitZ(), 1.0),
                                      contact(1, 0, Vec3::UnitZ(), -Vec3::UnitZ(), Vec3::UnitZ()),
                                      contact(2, 1, Vec3::UnitZ(), -Vec3::UnitZ(), Vec3::UnitZ())};
  const VectorXd plain = (VectorXd(3) << 3.0, 2.0, 1.0).finished();
  apply_plain(contacts, plain, bodies);
  for (auto law : {ContactLaw::hooke, ContactLaw::hertz})
    expect_forces(
        solve_compatible(contacts, bodies, law, (VectorXd(3) << 0.3, 2.0, 1.0).finished()), plain,
        "column");
}

// A small pile: four spheres (R = 1) at (±1, ±1, 1) in a box |x|, |y| ≤ 2 on a floor, a fifth
// on top at (0, 0, 1 + √2) resting on all four. 20 contacts: 4 floor, 8 walls, 4 between the
// bottom spheres (which open under load: the top sphere pushes them apart), 4 top–bottom.
struct Pile {
  std::vector<BodyState> bodies;
  std::vector<SolverContact> contacts;
  VectorXd stiffness;
  VectorXd plain;  // a feasible plain solution (any statically admissible one)
};

Pile pile() {
  Pile p;
  const double R = 1.0;
  std::vector<Vec3> centres;
  for (int i : {-1, 1})
    for (int j : {-1, 1}) centres.emplace_back(i, j, 1.0);
  centres.emplace_back(0.0, 0.0, 1.0 + std::sqrt(2.0));
  for (int b = 0; b < 5; ++b) p.bodies.push_back(sphere_state(1.0 + 0.1 * b, R));
  const std::uint32_t floor = 5, wall_x = 6, wall_y = 7;
  p.bodies.insert(p.bodies.end(), 3, global_state());
  for (std::uint32_t b = 0; b < 4; ++b) {
    p.contacts.push_back(wall_contact(b, floor, Vec3::UnitZ(), R));
    p.contacts.push_back(wall_contact(b, wall_x, Vec3(-centres[b].x(), 0, 0), R));
    p.contacts.push_back(wall_contact(b, wall_y, Vec3(0, -centres[b].y(), 0), R));
  }
  const auto sphere_pair = [&](std::uint32_t a, std::uint32_t b) {
    const Vec3 n = (centres[a] - centres[b]).normalized();
    p.contacts.push_back(contact(a, b, n, -R * n, R * n));
  };
  sphere_pair(1, 0);
  sphere_pair(2, 0);
  sphere_pair(3, 1);
  sphere_pair(3, 2);
  for (std::uint32_t b = 0; b < 4; ++b) sphere_pair(4, b);
  p.stiffness.resize(Eigen::Index(p.contacts.size()));
  for (Eigen::Index i = 0; i < p.stiffness.size(); ++i)
    p.stiffness[i] = 0.5 + 0.37 * double((7 * i) % 11) / 10.0;  // in [0.5, 0.87]
  // The plain step: a statically admissible set. The top sphere (weight W4) hangs on its four
  // contacts equally: each f = W4/(4 cos 45°) along (∓1, ∓1, √2)/2; each bottom sphere then
  // carries its weight plus the top contact's push with its floor and two walls only.
  const double W4 = 1.4, ftop = W4 / (4.0 * std::sqrt(0.5));
  p.plain = VectorXd::Zero(Eigen::Index(p.contacts.size()));
  for (std::uint32_t b = 0; b < 4; ++b) {
    const Vec3 push = -ftop * p.contacts[16 + b].normal;  // on the bottom sphere
    const double weight = 1.0 + 0.1 * b;
    p.plain[3 * b] = weight - push.z();        // floor
    p.plain[3 * b + 1] = std::fabs(push.x());  // x wall
    p.plain[3 * b + 2] = std::fabs(push.y());  // y wall
  }
  p.plain.tail<4>().setConstant(ftop);
  apply_plain(p.contacts, p.plain, p.bodies);
  return p;
}

// B as a dense matrix (contacts × rows) from the operator, one transpose per contact.
Eigen::MatrixXd dense_B(solver::StepCompatibleOperator& op) {
  Eigen::MatrixXd B(op.contacts(), op.rows());
  VectorXd e, row;
  for (Eigen::Index i = 0; i < op.contacts(); ++i) {
    e = VectorXd::Unit(op.contacts(), i);
    op.transpose(e, row);
    B.row(i) = row.transpose();
  }
  return B;
}

// The independent Hooke check: stiff springs f_i = k_i c_i with c = Bλ (λ the negative
// displacements), equilibrium Σ f_i b_i = F̃, i.e. K λ = F̃ with K = Σ_active k_i b_i b_iᵀ;
// an active set drops contacts in tension (c_i < 0) and takes back inactive ones that
// overlap (c_i > 0) until consistent. Rows that no contact touches (the spheres' moments:
// r ∥ n) are left out of K.
VectorXd displacement_solve(const Eigen::MatrixXd& B, const VectorXd& k, const VectorXd& net) {
  std::vector<Eigen::Index> used;
  for (Eigen::Index j = 0; j < B.cols(); ++j)
    if (B.col(j).norm() > 0.0) used.push_back(j);
  Eigen::MatrixXd Bu(B.rows(), Eigen::Index(used.size()));
  VectorXd Fu(Eigen::Index(used.size()));
  for (std::size_t j = 0; j < used.size(); ++j) {
    Bu.col(Eigen::Index(j)) = B.col(used[j]);
    Fu[Eigen::Index(j)] = net[used[j]];
  }
  std::vector<bool> active(std::size_t(B.rows()), true);
  VectorXd c;
  for (int pass = 0; pass < 50; ++pass) {
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(Bu.cols(), Bu.cols());
    for (Eigen::Index i = 0; i < Bu.rows(); ++i)
      if (active[std::size_t(i)]) K += k[i] * Bu.row(i).transpose() * Bu.row(i);
    const VectorXd lambda = K.ldlt().solve(Fu);
    c = Bu * lambda;
    bool changed = false;
    for (Eigen::Index i = 0; i < Bu.rows(); ++i) {
      const bool want = c[i] > 0.0;
      if (want != active[std::size_t(i)]) {
        active[std::size_t(i)] = want;
        changed = true;
      }
    }
    if (!changed) break;
  }
  VectorXd f(B.rows());
  for (Eigen::Index i = 0; i < B.rows(); ++i) f[i] = active[std::size_t(i)] ? k[i] * c[i] : 0.0;
  return f;
}

TEST(CompatibleInvariants, PileMatchesTheDisplacementSolveForHooke) {
  auto p = pile();
  solver::StepCompatibleOperator op(p.contacts, p.bodies);
  const VectorXd net = op.net_contact_impulse(p.bodies);
  const VectorXd reference = displacement_solve(dense_B(op), p.stiffness, net);
  // The reference opens exactly the four bottom–bottom contacts and is in equilibrium.
  for (Eigen::Index i = 12; i < 16; ++i) EXPECT_EQ(reference[i], 0.0);
  EXPECT_LT((dense_B(op).transpose() * reference - net).cwiseAbs().maxCoeff(), 1e-12);
  // It differs from the plain solution (the pile is hyperstatic), so the match means something.
  EXPECT_GT((reference - p.plain).cwiseAbs().maxCoeff(), 1e-3);

  const VectorXd f = solve_compatible(p.contacts, p.bodies, ContactLaw::hooke, p.stiffness);
  expect_forces(f, reference, "pile vs displacement solve");
  EXPECT_GE(f.minCoeff(), 0.0);
  VectorXd r;
  op.transpose(f, r);
  EXPECT_LE((r - net).cwiseAbs().maxCoeff(), 1e-11 * net.cwiseAbs().maxCoeff());
}

// A three-layer square pyramid of unit spheres in a box |x|, |y| ≤ 3 on a floor: 3 × 3 at
// z = 1, 2 × 2 in the pockets at z = 1 + √2, one on top at z = 1 + 2√2 (every neighbour at
// distance 2). Contacts: with the floor, the walls and every touching pair (57 in all). F̃ is
// the weights (a static plain step: M dv = W e_z). Highly hyperstatic; the middle layer pushes
// the base apart, so the active set opens some base contacts.
struct Packing {
  std::vector<BodyState> bodies;
  std::vector<SolverContact> contacts;
  VectorXd k;
};

Packing three_layer_pyramid() {
  std::vector<Vec3> centres;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j) centres.emplace_back(2.0 * i, 2.0 * j, 1.0);
  for (int i : {-1, 1})
    for (int j : {-1, 1}) centres.emplace_back(i, j, 1.0 + std::sqrt(2.0));
  centres.emplace_back(0.0, 0.0, 1.0 + 2.0 * std::sqrt(2.0));
  const auto spheres = std::uint32_t(centres.size());
  std::vector<BodyState> bodies;
  for (std::uint32_t b = 0; b < spheres; ++b) bodies.push_back(sphere_state(1.0 + 0.05 * b, 1.0));
  // Globals: the floor, then the walls x = ±3, y = ±3 (inward normals).
  const std::vector<Vec3> wall_normals{Vec3::UnitZ(), -Vec3::UnitX(), Vec3::UnitX(), -Vec3::UnitY(),
                                       Vec3::UnitY()};
  const std::vector<double> wall_offsets{0.0, -3.0, -3.0, -3.0, -3.0};  // n·x = offset on plane
  bodies.insert(bodies.end(), wall_normals.size(), global_state());
  std::vector<SolverContact> contacts;
  for (std::uint32_t b = 0; b < spheres; ++b)
    for (std::size_t w = 0; w < wall_normals.size(); ++w)
      if (std::fabs(wall_normals[w].dot(centres[b]) - wall_offsets[w] - 1.0) < 1e-12)
        contacts.push_back(wall_contact(b, spheres + std::uint32_t(w), wall_normals[w], 1.0));
  for (std::uint32_t a = 0; a < spheres; ++a)
    for (std::uint32_t b = 0; b < a; ++b)
      if ((centres[a] - centres[b]).norm() < 2.0 + 1e-12) {
        const Vec3 n = (centres[a] - centres[b]).normalized();
        contacts.push_back(contact(a, b, n, -n, n));
      }
  EXPECT_EQ(contacts.size(), 57u);  // 9 floor + 12 walls + 12 base + 16 + 4 + 4
  for (std::uint32_t b = 0; b < spheres; ++b)
    bodies[b].dv = bodies[b].inverse_mass * Vec3(0.0, 0.0, 1.0 + 0.05 * b);  // M dv = W e_z
  VectorXd k(Eigen::Index(contacts.size()));
  for (Eigen::Index i = 0; i < k.size(); ++i) k[i] = 0.5 + double((5 * i) % 13) / 12.0;

  return {bodies, contacts, k};
}

TEST(CompatibleInvariants, ThreeLayerPyramidMatchesTheDisplacementSolveForHooke) {
  auto [bodies, contacts, k] = three_layer_pyramid();
  solver::StepCompatibleOperator op(contacts, bodies);
  const VectorXd net = op.net_contact_impulse(bodies);
  const Eigen::MatrixXd B = dense_B(op);
  const VectorXd reference = displacement_solve(B, k, net);
  EXPECT_LT((B.transpose() * reference - net).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_GE(reference.minCoeff(), 0.0);
  EXPECT_GT((reference.array() == 0.0).count(), 0);  // the active set did open contacts
  const VectorXd f = solve_compatible(contacts, bodies, ContactLaw::hooke, k);
  expect_forces(f, reference, "three-layer pyramid vs displacement solve");
  EXPECT_GE(f.minCoeff(), 0.0);
}

// The independent check for Hertz: minimise the potential energy of the stiff-spring network
// in the (negative) displacements λ, E(λ) = Σ (2/5) k_i max(0, c_i)^{5/2} − F̃·λ with c = Bλ
// (Eq. 32 with Eq. 34's w = k c^p/p, p = 5/2; contacts in tension carry nothing, so no active
// set is needed), by damped Newton from the Hooke solution; forces f_i = k_i max(0, c_i)^{3/2}.
VectorXd hertz_displacement_solve(const Eigen::MatrixXd& B, const VectorXd& k,
                                  const VectorXd& net) {
  std::vector<Eigen::Index> used;
  for (Eigen::Index j = 0; j < B.cols(); ++j)
    if (B.col(j).norm() > 0.0) used.push_back(j);
  Eigen::MatrixXd Bu(B.rows(), Eigen::Index(used.size()));
  VectorXd Fu(Eigen::Index(used.size()));
  for (std::size_t j = 0; j < used.size(); ++j) {
    Bu.col(Eigen::Index(j)) = B.col(used[j]);
    Fu[Eigen::Index(j)] = net[used[j]];
  }
  const auto energy = [&](const VectorXd& lambda) {
    const VectorXd c = (Bu * lambda).cwiseMax(0.0);
    double e = -Fu.dot(lambda);
    for (Eigen::Index i = 0; i < c.size(); ++i) e += 0.4 * k[i] * std::pow(c[i], 2.5);
    return e;
  };
  // Start: the Hooke displacements (a point where the loaded contacts overlap).
  const VectorXd hooke = displacement_solve(B, k, net);
  VectorXd lambda = (Bu.transpose() * Bu).ldlt().solve(Bu.transpose() * hooke.cwiseQuotient(k));
  for (int it = 0; it < 200; ++it) {
    const VectorXd c = (Bu * lambda).cwiseMax(0.0);
    VectorXd g = -Fu;
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(Bu.cols(), Bu.cols());
    for (Eigen::Index i = 0; i < c.size(); ++i) {
      g += k[i] * std::pow(c[i], 1.5) * Bu.row(i).transpose();
      H += 1.5 * k[i] * std::sqrt(c[i]) * Bu.row(i).transpose() * Bu.row(i);
    }
    if (g.cwiseAbs().maxCoeff() < 1e-14 * Fu.cwiseAbs().maxCoeff()) break;
    const VectorXd step = -H.ldlt().solve(g);
    double t = 1.0;
    const double e0 = energy(lambda);
    while (energy(lambda + t * step) > e0 + 1e-4 * t * g.dot(step) && t > 1e-12) t *= 0.5;
    lambda += t * step;
  }
  const VectorXd c = (Bu * lambda).cwiseMax(0.0);
  VectorXd f(B.rows());
  for (Eigen::Index i = 0; i < B.rows(); ++i) f[i] = k[i] * std::pow(c[i], 1.5);
  return f;
}

TEST(CompatibleInvariants, ThreeLayerPyramidMatchesTheDisplacementSolveForHertz) {
  auto [bodies, contacts, k] = three_layer_pyramid();
  solver::StepCompatibleOperator op(contacts, bodies);
  const VectorXd net = op.net_contact_impulse(bodies);
  const Eigen::MatrixXd B = dense_B(op);
  const VectorXd reference = hertz_displacement_solve(B, k, net);
  EXPECT_LT((B.transpose() * reference - net).cwiseAbs().maxCoeff(), 1e-12);
  // Hertz and Hooke share the same network but split its load differently.
  EXPECT_GT((reference - displacement_solve(B, k, net)).cwiseAbs().maxCoeff(), 1e-3);
  expect_forces(solve_compatible(contacts, bodies, ContactLaw::hertz, k), reference,
                "three-layer pyramid vs Hertz displacement solve");
}

TEST(CompatibleInvariants, PileDoesNotDependOnTheContactOrder) {
  for (auto law : {ContactLaw::hooke, ContactLaw::hertz}) {
    auto p = pile();
    const VectorXd f = solve_compatible(p.contacts, p.bodies, law, p.stiffness);
    // Reverse the list and rotate it by 7: a different visiting order of the same contacts.
    const Eigen::Index n = Eigen::Index(p.contacts.size());
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) order[std::size_t(i)] = (n - 1 - i + 7) % n;
    std::vector<SolverContact> permuted;
    VectorXd k(n), start(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      permuted.push_back(p.contacts[std::size_t(order[std::size_t(i)])]);
      k[i] = p.stiffness[order[std::size_t(i)]];
      start[i] = p.plain[order[std::size_t(i)]];
    }
    const VectorXd g = solve_compatible(permuted, p.bodies, law, k, start);
    VectorXd back(n);
    for (Eigen::Index i = 0; i < n; ++i) back[order[std::size_t(i)]] = g[i];
    expect_forces(back, f, "permuted pile");
    EXPECT_GE(f.minCoeff(), 0.0);
  }
}

// The answer is the problem's, not the solver's: other penalty schedules and Lipschitz
// updates (and a zero start instead of the plain solution) reach the same forces (Hertz, the
// law whose energy has unbounded curvature at f = 0).
TEST(CompatibleInvariants, PileDoesNotDependOnTheSolverSettings) {
  auto p = pile();
  const VectorXd f = solve_compatible(p.contacts, p.bodies, ContactLaw::hertz, p.stiffness);
  for (int variant = 0; variant < 3; ++variant) {
    CompatibleSettings s = tight();
    if (variant == 0) s.initial_penalty = 1000.0;
    if (variant == 1) s.penalty_growth = 3.0, s.lipschitz_decay = 0.5;
    if (variant == 2) s.lipschitz_growth = 5.0, s.lipschitz_decay = 1.0;
    VectorXd g = p.plain;
    const auto result =
        solver::compatible_impulses(p.contacts, p.bodies, ContactLaw::hertz, p.stiffness, s, g);
    ASSERT_TRUE(result.converged()) << "variant " << variant << ": " << to_string(result.status);
    expect_forces(g, f, "other solver settings");
  }
}

// Never claim success it did not reach: one outer iteration at a tight tolerance must report
// a non-converged status with the violation it actually left.
TEST(CompatibleStatus, ReportsNonConvergenceWithTheTrueViolation) {
  auto p = pile();
  CompatibleSettings s = tight();
  s.max_outer_iterations = 1;
  VectorXd f;
  const auto result =
      solver::compatible_impulses(p.contacts, p.bodies, ContactLaw::hertz, p.stiffness, s, f);
  EXPECT_FALSE(result.converged());
  EXPECT_EQ(result.status, solver::CompatibleStatus::max_outer_iterations);
  solver::StepCompatibleOperator op(p.contacts, p.bodies);
  const VectorXd net = op.net_contact_impulse(p.bodies);
  VectorXd r;
  op.transpose(f, r);
  EXPECT_NEAR(result.violation, (r - net).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_GT(result.relative_violation, s.tolerance);
}

TEST(CompatibleStiffness, HookeAndHertzFromMaterials) {
  // Two species E₁/E₀ = 5 (the paper's §8.2.2): (1/E_a + 1/E_b)⁻¹ = E₀/2, 5E₀/6, 5E₀/2, i.e.
  // 1/5, 1/3, 1 relative to the stiffest pair.
  const double E0 = 1.0, E1 = 5.0, top = solver::hooke_stiffness(E1, E1);
  EXPECT_DOUBLE_EQ(solver::hooke_stiffness(E0, E0) / top, 1.0 / 5.0);
  EXPECT_DOUBLE_EQ(solver::hooke_stiffness(E0, E1) / top, 1.0 / 3.0);
  // Hertz: (4/3) E* √R*; two unit spheres R* = 1/2, a unit sphere on a wall R* = 1.
  EXPECT_DOUBLE_EQ(solver::hertz_stiffness(2.0, 2.0, 1.0, 1.0), 4.0 / 3.0 * std::sqrt(0.5));
  EXPECT_DOUBLE_EQ(solver::hertz_stiffness(2.0, 2.0, 1.0, INFINITY), 4.0 / 3.0);
}

}  // namespace
