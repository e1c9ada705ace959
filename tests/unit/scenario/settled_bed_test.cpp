// The settled bed's extent (scenario/settled_bed.hpp), which the subdomain counts are chosen
// for: the sources' particle volume (a lattice's cells, a random fill's count, a pour's rate
// over its whole window, whatever the run's end), the bed V / (0.6 A) along gravity's main axis, and
// the domain's extent without gravity, without a known volume (an inflow) or for --from.
#include "granite/scenario/settled_bed.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace granite;

config::SizeSettings radius(double r) {
  config::SizeSettings size;
  size.radius = r;
  return size;
}

// 5^3 lattice cells, 10 random spheres and a pour of 100/s over [0, 1] s (the run ending at
// 0.5 s, which a restart may change, does not count): 235 spheres of radius 1 mm.
config::Settings settings() {
  config::Settings s;
  s.run.end_time = 0.5;
  s.gravity = Vec3(0, 0, -9.81);
  s.materials.push_back({"glass", 2500, 0.5, {}, 0.0, 0.0});
  config::LatticeSettings lattice;
  lattice.max = Vec3(0.01, 0.01, 0.01);
  lattice.spacing = 0.002;
  lattice.size = radius(1e-3);
  config::RandomFillSettings fill;
  fill.count = 10;
  fill.size = radius(1e-3);
  config::PourSettings pour;
  pour.rate = 100.0;
  pour.end = 1.0;
  pour.size = radius(1e-3);
  s.particles = {lattice, fill, pour};
  return s;
}

const double kSphere = 4.0 / 3.0 * M_PI * 1e-9;

TEST(SettledBed, TheSourcesVolume) {
  const std::optional<double> v = scenario::predicted_particle_volume(settings());
  ASSERT_TRUE(v);
  EXPECT_NEAR(*v, 235 * kSphere, 1e-12 * *v);
  config::Settings with_inflow = settings();
  with_inflow.inflow = config::InflowSettings{};
  EXPECT_FALSE(scenario::predicted_particle_volume(with_inflow));
}

TEST(SettledBed, DeepAlongGravitysMainAxisAsThePackedVolumeOverTheCrossSection) {
  const Vec3 box(0.02, 0.02, 0.1);
  const double v = 235 * kSphere;
  const Vec3 load = scenario::load_extent(settings(), box, true);
  EXPECT_NEAR(load.z(), v / (scenario::kBedPacking * 0.02 * 0.02), 1e-12);
  EXPECT_EQ(load.x(), box.x());
  EXPECT_EQ(load.y(), box.y());
  // A tilted gravity mostly along -x: the bed lies on the x face.
  config::Settings tilted = settings();
  tilted.gravity = Vec3(-9.81, 0, -1);
  const Vec3 side = scenario::load_extent(tilted, box, true);
  EXPECT_NEAR(side.x(), v / (scenario::kBedPacking * 0.02 * 0.1), 1e-12);
  EXPECT_EQ(side.z(), box.z());
  // A bed deeper than the domain fills it.
  EXPECT_EQ(scenario::load_extent(settings(), Vec3(0.002, 0.002, 0.01), true),
            Vec3(0.002, 0.002, 0.01));
}

TEST(SettledBed, TheDomainsExtentWithoutGravityAVolumeOrTheSources) {
  const Vec3 box(0.02, 0.02, 0.1);
  config::Settings weightless = settings();
  weightless.gravity = Vec3::Zero();
  EXPECT_EQ(scenario::load_extent(weightless, box, true), box);
  EXPECT_EQ(scenario::load_extent(settings(), box, false), box);
  config::Settings with_inflow = settings();
  with_inflow.inflow = config::InflowSettings{};
  EXPECT_EQ(scenario::load_extent(with_inflow, box, true), box);
}

}  // namespace
