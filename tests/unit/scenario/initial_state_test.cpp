// Initial-state checks (scenario/initial_state.hpp), serial parts: particles outside the domain,
// too large for it, overlapping each other or a global body; the shipped configurations pass.
#include "granite/collision/detection.hpp"
#include "granite/config/config.hpp"
#include "granite/scenario/initial_state.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace {

using granite::Vec3;
using granite::scenario::Domain;
using granite::scenario::Offenders;

const Domain kBox{Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1)};

struct Scene {
  granite::timestep::Simulation sim;
  explicit Scene(bool glass = true) {
    if (glass) sim.materials().add({2650.0, 0.5});
  }
  void sphere(const Vec3& x, double radius) {
    sim.particles().add_sphere(sim.materials(), 0, x, radius, Vec3::Zero(),
                               granite::BodyId(sim.particles().size()));
  }
  Offenders overlaps(double max_overlap, granite::BodyId first_new = 0) {
    granite::collision::ContactDetection detection;
    granite::collision::ContactList contacts;
    detection.detect(sim.particles(), sim.globals(), sim.shapes(), 0.0, contacts);
    return granite::scenario::overlaps(sim.particles(), contacts, max_overlap, first_new);
  }
};

TEST(InitialState, ParticleOutsideTheDomainIsNamed) {
  Scene s;
  s.sphere(Vec3(0.05, 0.05, 0.05), 0.01);
  s.sphere(Vec3(0.05, 0.05, 0.2), 0.01);
  s.sphere(Vec3(-0.01, 0.05, 0.05), 0.01);
  const Offenders found = granite::scenario::outside_domain(s.sim.particles(), 3, kBox);
  EXPECT_EQ(found.count, 2u);
  ASSERT_EQ(found.first.size(), 2u);
  EXPECT_EQ(found.first[0], "particle 1 at (0.05, 0.05, 0.2)");
  EXPECT_EQ(found.first[1], "particle 2 at (-0.01, 0.05, 0.05)");
  // Only the owned particles [0, owned) are checked.
  EXPECT_EQ(granite::scenario::outside_domain(s.sim.particles(), 1, kBox).count, 0u);
}

TEST(InitialState, RadiusAboveHalfTheSmallestExtentIsTooLarge) {
  Scene s;
  s.sphere(Vec3(0.05, 0.05, 0.05), 0.5);
  s.sphere(Vec3(0.05, 0.05, 0.05), 0.05);  // exactly half: fits
  const Offenders found = granite::scenario::too_large(s.sim.particles(), 2, kBox);
  EXPECT_EQ(found.count, 1u);
  ASSERT_EQ(found.first.size(), 1u);
  EXPECT_EQ(found.first[0], "particle 0 at (0.05, 0.05, 0.05) of radius 0.5 m");
}

TEST(InitialState, OverlapBeyondTheFractionOfTheSmallerRadius) {
  Scene s;
  s.sphere(Vec3(0.05, 0.05, 0.05), 0.01);
  s.sphere(Vec3(0.0501, 0.05, 0.05), 0.01);  // centres 0.1 mm apart
  Offenders found = s.overlaps(0.01);
  EXPECT_EQ(found.count, 1u);
  ASSERT_EQ(found.first.size(), 1u);
  EXPECT_NE(found.first[0].find("overlap by 0.0199 m (199 % of the smaller radius)"),
            std::string::npos)
      << found.first[0];
  EXPECT_EQ(s.overlaps(2.0).count, 0u);  // allowed explicitly
}

TEST(InitialState, SmallOverlapWithinTheDefaultIsAccepted) {
  Scene s;
  s.sphere(Vec3(0.05, 0.05, 0.05), 0.01);
  s.sphere(Vec3(0.05, 0.05, 0.05 + 0.02 - 0.5e-4), 0.01);  // 0.5 % of the radius
  s.sphere(Vec3(0.05, 0.05, 0.05 + 0.04 - 2e-4), 0.01);    // 2 % with the second
  EXPECT_EQ(s.overlaps(0.01).count, 1u);
  EXPECT_EQ(s.overlaps(0.03).count, 0u);
}

TEST(InitialState, OverlapWithAGlobalBodyUsesItsSignedDistance) {
  Scene s;
  s.sim.globals().add(granite::body::GlobalBody{
      {granite::body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}}, Vec3::Zero(), 0});
  s.sphere(Vec3(0.05, 0.05, 0.005), 0.01);  // 5 mm into the floor
  s.sphere(Vec3(0.02, 0.05, 0.01), 0.01);   // touching
  const Offenders found = s.overlaps(0.01);
  EXPECT_EQ(found.count, 1u);
  ASSERT_EQ(found.first.size(), 1u);
  EXPECT_EQ(found.first[0], "particle 0 at (0.05, 0.05, 0.005) and global body 0 overlap by "
                            "0.005 m (50 % of the smaller radius)");
}

TEST(InitialState, OnlyPairsWithANewParticleCountForANewLayer) {
  Scene s;
  s.sphere(Vec3(0.05, 0.05, 0.05), 0.01);
  s.sphere(Vec3(0.051, 0.05, 0.05), 0.01);  // older particles overlapping each other
  s.sphere(Vec3(0.02, 0.02, 0.02), 0.01);   // new, alone
  EXPECT_EQ(s.overlaps(0.01, 2).count, 0u);
  s.sphere(Vec3(0.02, 0.02, 0.021), 0.01);  // new, overlapping the other new one
  EXPECT_EQ(s.overlaps(0.01, 2).count, 1u);
}

TEST(InitialState, FirstOffendersAreNamedAndAllCounted) {
  Offenders found;
  for (int k = 0; k < 5; ++k) found.add("offender " + std::to_string(k));
  EXPECT_EQ(found.count, 5u);
  ASSERT_EQ(found.first.size(), Offenders::kNamed);
  EXPECT_EQ(found.first.back(), "offender 2");
}

// Every shipped configuration builds an initial state that passes the checks with the default
// contact.max_initial_overlap.
TEST(InitialState, ShippedConfigurationsPass) {
  const std::filesystem::path configs = std::filesystem::path(GRANITE_SOURCE_DIR) / "configs";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(configs)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    const auto cfg = granite::config::load_scenario(entry.path().string(), {});
    const Domain domain = granite::scenario::domain_of(cfg.settings.domain);
    std::mt19937_64 rng(cfg.settings.run.seed);
    Scene s(false);
    granite::scenario::build_simulation(cfg.settings, s.sim, rng);
    const auto& p = s.sim.particles();
    EXPECT_EQ(granite::scenario::outside_domain(p, p.size(), domain).count, 0u);
    EXPECT_EQ(granite::scenario::too_large(p, p.size(), domain).count, 0u);
    EXPECT_EQ(s.overlaps(cfg.settings.contact.max_initial_overlap).count, 0u);
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

}  // namespace
