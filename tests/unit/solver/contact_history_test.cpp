// Warm-start history keys: several contacts of one pair of particles (a manifold, the pairs of
// parts of two clumps) keep their own impulses, told apart by their order in the list.
#include "granite/body/material.hpp"
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/solver/contact_history.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

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
  for (int k = 0; k < 3; ++k) contacts.push_back(1, 0, Vec3(0.1 * k, 0, 1), Vec3::UnitZ(), 0.0);
  contacts.push_back(1, 2, Vec3(0, 0, 3), -Vec3::UnitZ(), 0.0);
  std::vector<solver::SolverContact> solver_contacts(contacts.size());
  for (auto& c : solver_contacts) {
    c.set_frame(Vec3::UnitZ());  // Q = [z x y]: its products are exact
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

TEST(ContactHistory, TorquesComeBackInTheNewFrameClampedToTheNewBounds) {
  // One contact, recorded in a frame, warm-started after the pair is detected the other way
  // round (the torque on the other body: −τ) in a frame turned about n, with bounds from the
  // warm λ_n that cut the rolling torque to half.
  body::MaterialTable materials;
  const auto glass = materials.add({2500.0, 0.5});
  body::Particles particles;
  particles.add_sphere(materials, glass, Vec3::Zero(), 1.0);
  particles.add_sphere(materials, glass, Vec3(0, 0, 2), 1.0);
  collision::ContactList before, after;
  before.num_particles = after.num_particles = particles.size();
  before.push_back(1, 0, Vec3(0, 0, 1), Vec3::UnitZ(), 0.0);
  after.push_back(0, 1, Vec3(0, 0, 1), -Vec3::UnitZ(), 0.0);
  std::vector<solver::SolverContact> c1(1), c2(1);
  c1[0].set_frame(Vec3::UnitZ());  // Q = [z x y]
  c1[0].mu = 0.5;
  // The new frame: n' = −n, and t', o' = x, −y (tangent_frame's for −z) turned by π about it.
  c2[0].set_frame(-Vec3::UnitZ());
  c2[0].mu = 0.5;
  solver::RollingBlocks rolling;
  rolling.contacts = {{0, Mat3::Identity(), 1.0, 0.1, 0.1}};  // R* 1, both arms 0.1
  rolling.torques = {Vec3(0.02, 0.3, -0.4)};
  const std::vector<Vec3> impulses = {Vec3(10, 0, 0)};
  solver::ContactHistory history;
  history.record(before, particles, c1, impulses, &rolling);
  ASSERT_EQ(history.entries().size(), 1u);
  const Vec3 world = c1[0].frame() * rolling.torques[0];  // on body 1 of `before` (particle 1)
  EXPECT_EQ(history.entries()[0].torque, -world);         // on particle id 0 (first)
  std::vector<Vec3> warm;
  rolling.torques = {Vec3::Zero()};
  rolling.contacts[0].rolling_arm = 0.025;  // bound 0.25 for λ_n = 10: |(0.3, −0.4)| = 0.5 halved
  ASSERT_EQ(history.warm_start(after, particles, c2, 1.0, warm, &rolling), 1u);
  // World torque on body 1 of `after` (particle 0): −τ_world; in the new frame −c2ᵀ τ_world.
  const Vec3 expected = c2[0].frame().transpose() * Vec3(-world);
  EXPECT_NEAR(rolling.torques[0][0], expected[0], 1e-15);
  EXPECT_NEAR((rolling.torques[0].tail<2>() - 0.5 * expected.tail<2>()).norm(), 0.0, 1e-15);
}

TEST(ContactHistory, EveryRecordedKeyIsFoundInAnyOrderAndNoOtherIs) {
  // The flat table: 5000 recorded identities (grown past several index sizes), looked up in a
  // shuffled order mixed with 1000 identities never recorded, then again after an insert that
  // overwrites 100 and adds 100.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<BodyId> id(0, 1 << 20);
  std::vector<solver::ContactKey> recorded;
  std::set<std::tuple<BodyId, BodyId, std::uint32_t>> seen;
  while (recorded.size() < 6000) {
    solver::ContactKey k{id(rng), id(rng), std::uint32_t(id(rng) % 3)};
    if (seen.insert({k.first, k.second, k.ordinal}).second) recorded.push_back(k);
  }
  const std::vector<solver::ContactKey> absent(recorded.begin() + 5000, recorded.end());
  recorded.resize(5000);
  const auto keys_of = [](const std::vector<solver::ContactKey>& list) {
    return solver::ContactKeys(list, std::vector<bool>(list.size(), false));
  };
  std::vector<solver::SolverContact> contacts(recorded.size());
  std::vector<Vec3> impulses(recorded.size());
  for (std::size_t j = 0; j < recorded.size(); ++j) {
    contacts[j].set_frame(Vec3::UnitX());  // n = x: world (λ, 0, 0) is (λ, 0, 0) here
    contacts[j].mu = 1e9;                  // every impulse inside the cone: returned as recorded
    impulses[j] = Vec3(double(j) + 1.0, 0.5, -0.25);
  }
  solver::ContactHistory history;
  history.record(keys_of(recorded), contacts, impulses);
  ASSERT_EQ(history.size(), recorded.size());

  std::vector<std::size_t> order(recorded.size() + absent.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<solver::ContactKey> query;
  for (std::size_t i : order) query.push_back(i < recorded.size() ? recorded[i] : absent[i - 5000]);
  std::vector<solver::SolverContact> qc(query.size(), contacts[0]);
  std::vector<Vec3> warm;
  EXPECT_EQ(history.warm_start(keys_of(query), qc, 1.0, warm), recorded.size());
  for (std::size_t q = 0; q < query.size(); ++q) {
    const std::size_t i = order[q];
    EXPECT_EQ(warm[q], i < recorded.size() ? impulses[i] : Vec3::Zero()) << q;
  }

  std::vector<solver::HistoryEntry> added;
  for (std::size_t i = 0; i < 100; ++i) {
    added.push_back({recorded[i], Vec3(1e6, 0, 0), Vec3::Zero()});
    added.push_back({absent[i], Vec3(2e6, 0, 0), Vec3::Zero()});
  }
  history.insert(added);
  EXPECT_EQ(history.size(), recorded.size() + 100);
  EXPECT_EQ(history.warm_start(keys_of(query), qc, 1.0, warm), recorded.size() + 100);
  for (std::size_t q = 0; q < query.size(); ++q) {
    const std::size_t i = order[q];
    const Vec3 expected = i < 100                     ? Vec3(1e6, 0, 0)
                          : i < recorded.size()       ? impulses[i]
                          : i < recorded.size() + 100 ? Vec3(2e6, 0, 0)
                                                      : Vec3::Zero();
    EXPECT_EQ(warm[q], expected) << q;
  }
  const std::vector<solver::HistoryEntry> all = history.entries();  // sorted by key
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end(),
                             [](const auto& a, const auto& b) { return a.key < b.key; }));
}

TEST(ContactHistory, ARecordOfTheSameContactsReplacesImpulsesAndClearsOldTorques) {
  // The fast path of record (the same keys in the same order): impulses replaced, and a torque
  // recorded before but not now is zero, as a fresh record would leave it.
  const solver::ContactKeys keys({{0, 1, 0}, {0, 2, 0}}, {false, true});
  std::vector<solver::SolverContact> c(2);
  for (auto& s : c) {
    s.set_frame(Vec3::UnitX());  // n = x: a normal impulse is (λ_n, 0, 0) in the world
    s.mu = 1.0;
  }
  solver::RollingBlocks rolling;
  rolling.contacts = {{1, Mat3::Identity(), 1.0, 0.1, 0.1}};
  rolling.torques = {Vec3(0.01, 0.02, 0.03)};
  solver::ContactHistory history;
  history.record(keys, c, {Vec3(1, 0, 0), Vec3(2, 0, 0)}, &rolling);
  history.record(keys, c, {Vec3(3, 0, 0), Vec3(4, 0, 0)});
  const std::vector<solver::HistoryEntry> e = history.entries();
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].impulse, Vec3(3, 0, 0));
  EXPECT_EQ(e[1].impulse, Vec3(-4, 0, 0));  // swapped: the impulse on the key's first body
  EXPECT_EQ(e[1].torque, Vec3::Zero());
}
