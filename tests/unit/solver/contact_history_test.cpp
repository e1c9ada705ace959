// Warm-start history keys: several contacts of one pair of particles (a manifold, the pairs of
// parts of two clumps) keep their own impulses, told apart by their order in the list.
#include "granite/body/material.hpp"
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/solver/contact_history.hpp"

#include <gtest/gtest.h>

using namespace granite;

TEST(ContactHistory, ContactsOfOnePairOfParticlesKeepTheirOwnImpulses) {
  body::MaterialTable materials;
  const auto glass = materials.add({2500.0, 0.5});
  body::Particles particles;
  particles.add_sphere(materials, glass, Vec3::Zero(), 1.0);
  particles.add_sphere(materials, glass, Vec3(0, 0, 2), 1.0);
  particles.add_sphere(materials, glass, Vec3(0, 0, 4), 1.0);
  collision::ContactList contacts;
  // Pair (1, 0) three times, detected the other way round, then pair (1, 2) once.
  for (int k = 0; k < 3; ++k)
    contacts.push_back(1, 0, Vec3(0.1 * k, 0, 1), Vec3::UnitZ(), 0.0, 0.5);
  contacts.push_back(1, 2, Vec3(0, 0, 3), -Vec3::UnitZ(), 0.0, 0.5);
  std::vector<solver::SolverContact> solver_contacts(contacts.size());
  for (auto& c : solver_contacts) {
    c.frame = Mat3::Identity();
    c.mu = 0.5;
  }
  const std::vector<Vec3> impulses = {Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0.5, 0), Vec3(4, 0, 0)};
  solver::ContactHistory history;
  history.record(contacts, particles, solver_contacts, impulses);
  EXPECT_EQ(history.size(), 4u);
  std::vector<Vec3> warm;
  EXPECT_EQ(history.warm_start(contacts, particles, solver_contacts, 1.0, warm), 4u);
  for (std::size_t j = 0; j < impulses.size(); ++j)
    EXPECT_EQ(warm[j], impulses[j]) << j;  // inside the cone: kept as they were
}
