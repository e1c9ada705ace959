// The relaxation's sweep has shortcuts that must give the general path's answer to the last bit
// (solver/relaxation.cpp, solver/body_state.hpp): under mdp a contact with μ = 0 forms only the
// normal row of Eq. (5), and a body flagged isotropic applies I⁻¹ as a scalar. Each is compared
// with the path it replaces on a column of spheres resting on a wall, relaxed for 10 sweeps.
#include "granite/collision/contact.hpp"
#include "granite/solver/delassus.hpp"
#include "granite/solver/relaxation.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace granite;

namespace {

// Six spheres (R = 1 mm, m = 4.2e-6 kg) stacked along z with lateral offsets (oblique normals),
// the lowest on an immovable wall (the last body); one contact per touching pair, random
// approach velocities and gap terms, one contact under-relaxed (w = 0.5, as a ghost's).
struct Column {
  std::vector<solver::SolverContact> contacts;
  std::vector<solver::BodyState> bodies;
  Mat3 sphere_tensor, wall_tensor;  // kE and 0 as general tensors (isotropic_flag false)

  Column(double mu, bool isotropic_flag) {
    constexpr int kSpheres = 6;
    constexpr double R = 1e-3, m = 4.2e-6;
    const double k = 1.0 / (0.4 * m * R * R);  // I⁻¹ of a solid sphere
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<Vec3> x;
    for (int i = 0; i < kSpheres; ++i) {
      x.push_back(Vec3(0.3 * R * u(rng), 0.3 * R * u(rng), R + 2.0 * R * i));
      solver::BodyState b{Vec3(0.1 * u(rng), 0.1 * u(rng), -0.5 + 0.1 * u(rng)),
                          Vec3(10 * u(rng), 10 * u(rng), 10 * u(rng)), Vec3::Zero(), Vec3::Zero(),
                          1.0 / m};
      if (isotropic_flag)
        b.set_inverse_inertia(k);
      else
        b.set_inverse_inertia(&sphere_tensor);
      bodies.push_back(b);
    }
    sphere_tensor = k * Mat3::Identity();
    wall_tensor = Mat3::Zero();
    solver::BodyState wall{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 0.0};
    if (isotropic_flag)
      wall.set_inverse_inertia(0.0);
    else
      wall.set_inverse_inertia(&wall_tensor);
    bodies.push_back(wall);
    auto add = [&](std::uint32_t b1, std::uint32_t b2, const Vec3& n, const Vec3& r1,
                   const Vec3& r2) {
      solver::SolverContact c;
      c.set_frame(n);
      c.r1 = r1;
      c.r2 = r2;
      const solver::BodyState& s1 = bodies[b1];
      const solver::BodyState& s2 = bodies[b2];
      c.A = solver::delassus_diagonal(c.frame(), s1.inverse_mass, s1.inverse_inertia(), r1,
                                      s2.inverse_mass, s2.inverse_inertia(), r2);
      c.reduction = contact::block_reduction(c.A.full());
      c.gap_term = 0.01 * u(rng);
      c.mu = mu;
      c.body1 = b1;
      c.body2 = b2;
      contacts.push_back(c);
    };
    add(0, kSpheres, Vec3::UnitZ(), Vec3(0, 0, -R), Vec3(x[0].x(), x[0].y(), 0.0));
    for (std::uint32_t i = 1; i < kSpheres; ++i) {
      const Vec3 n = (x[i] - x[i - 1]).normalized();
      add(i, i - 1, n, -R * n, R * n);
    }
    contacts[2].weight = 0.5;
  }

  // Impulses and end velocities after 10 sweeps of `model`.
  std::vector<Vec3> relax(contact::Model model) {
    solver::RelaxationSettings settings;
    settings.model.model = model;
    settings.max_sweeps = 10;
    settings.tolerance = 0.0;  // all 10 sweeps
    std::vector<Vec3> impulses(contacts.size(), Vec3::Zero());
    solver::relax(settings, contacts, impulses, bodies);
    for (const auto& b : bodies) {
      impulses.push_back(b.dv);
      impulses.push_back(b.dw);
    }
    return impulses;
  }
};

void expect_identical(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  ASSERT_EQ(a.size(), b.size());
  bool any_nonzero = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(a[i][k], b[i][k]) << "entry " << i << "," << k;
    any_nonzero = any_nonzero || !a[i].isZero(0.0);
  }
  EXPECT_TRUE(any_nonzero);  // the column is pressed together: impulses act
}

}  // namespace

TEST(SweepPaths, MdpAtZeroFrictionEqualsTheFrictionlessModel) {
  // The frictionless model goes through the dispatcher and the full Eq. (5); mdp with μ = 0
  // takes the normal-row shortcut. x_n = max(0, b_n)/A_nn in both.
  expect_identical(Column(0.0, true).relax(contact::Model::mdp),
                   Column(0.0, true).relax(contact::Model::frictionless));
}

TEST(SweepPaths, IsotropicFlagEqualsTheMatrixProduct) {
  // I⁻¹ = kE applied as k m (flag set) and as the 3 × 3 product (flag clear), with friction.
  expect_identical(Column(0.5, true).relax(contact::Model::mdp),
                   Column(0.5, false).relax(contact::Model::mdp));
}
