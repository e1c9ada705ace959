// Size distributions (scenario/size_distribution.hpp): the sample mean and variance of the
// radii drawn for N ids match the moments of the requested (truncated) number density, computed
// here independently by quadrature, within 5 standard deviations of the estimators (sigma of
// the mean: sqrt(var / N); of the sample variance: sqrt((mu4 - var^2) / N)); a mixture's number
// and mass fractions likewise (binomial, and the delta method for the ratio of mass sums).
#include "granite/scenario/sources/size_distribution.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace {

using granite::config::SizeSettings;
using granite::scenario::SizeSampler;

constexpr std::size_t N = 200000;
constexpr std::uint64_t kSeed = 42;

struct Moments {
  double mean, var, mu4;
};

// Mean, variance and fourth central moment of the density g on [a, b] (composite Simpson).
Moments moments(const std::function<double(double)>& g, double a, double b) {
  const int n = 200000;
  const double h = (b - a) / n;
  auto integral = [&](const std::function<double(double)>& f) {
    double sum = f(a) + f(b);
    for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
    return sum * h / 3.0;
  };
  const double z = integral(g);
  const double mean = integral([&](double r) { return r * g(r); }) / z;
  const double var = integral([&](double r) { return std::pow(r - mean, 2) * g(r); }) / z;
  const double mu4 = integral([&](double r) { return std::pow(r - mean, 4) * g(r); }) / z;
  return {mean, var, mu4};
}

void expect_matches(const SizeSettings& size, const std::function<double(double)>& number_density) {
  granite::body::MaterialTable materials;
  materials.add({2500.0, 0.4});
  const SizeSampler sampler(size, 0, materials);
  double sum = 0.0, sum2 = 0.0;
  std::vector<double> r(N);
  for (std::size_t i = 0; i < N; ++i) {
    r[i] = sampler.draw(kSeed, granite::BodyId(i)).radius;
    ASSERT_GE(r[i], size.min);
    ASSERT_LE(r[i], size.max);
    sum += r[i];
  }
  const double mean = sum / N;
  for (const double x : r) sum2 += (x - mean) * (x - mean);
  const double var = sum2 / (N - 1);
  const Moments m = moments(number_density, size.min, size.max);
  EXPECT_NEAR(mean, m.mean, 5.0 * std::sqrt(m.var / N)) << "mean";
  EXPECT_NEAR(var, m.var, 5.0 * std::sqrt((m.mu4 - m.var * m.var) / N)) << "variance";
}

SizeSettings continuous(SizeSettings::Kind kind, double min, double max, bool by_mass) {
  SizeSettings s;
  s.kind = kind;
  s.min = min;
  s.max = max;
  s.by_mass = by_mass;
  return s;
}

TEST(SizeDistribution, UniformByNumberAndByMass) {
  for (const bool by_mass : {false, true}) {
    const auto s = continuous(SizeSettings::Kind::uniform, 1e-3, 3e-3, by_mass);
    expect_matches(s, [&](double r) { return by_mass ? 1.0 / (r * r * r) : 1.0; });
  }
}

TEST(SizeDistribution, TruncatedNormalByNumberAndByMass) {
  for (const bool by_mass : {false, true}) {
    auto s = continuous(SizeSettings::Kind::normal, 0.6e-3, 1.8e-3, by_mass);
    s.mean = 1.0e-3;
    s.std = 0.3e-3;
    expect_matches(s, [&](double r) {
      return std::exp(-0.5 * std::pow((r - s.mean) / s.std, 2)) / (by_mass ? r * r * r : 1.0);
    });
  }
}

TEST(SizeDistribution, TruncatedLogNormalByNumberAndByMass) {
  for (const bool by_mass : {false, true}) {
    auto s = continuous(SizeSettings::Kind::lognormal, 0.3e-3, 4e-3, by_mass);
    s.median = 1.0e-3;
    s.sigma = 0.5;
    expect_matches(s, [&](double r) {
      return std::exp(-0.5 * std::pow(std::log(r / s.median) / s.sigma, 2)) /
             (by_mass ? r * r * r * r : r);
    });
  }
}

// A normal whose window lies far in its upper tail (where Phi is 1 to double precision).
TEST(SizeDistribution, NormalTruncatedInItsTail) {
  auto s = continuous(SizeSettings::Kind::normal, 2.0e-3, 2.2e-3, false);
  s.mean = 1.0e-3;
  s.std = 0.1e-3;  // the window is 10 to 12 sigma above the mean
  expect_matches(s, [&](double r) { return std::exp(-0.5 * std::pow((r - s.mean) / s.std, 2)); });
}

TEST(SizeDistribution, QuantileOfTheStandardNormal) {
  EXPECT_NEAR(granite::scenario::truncated_normal_quantile(-20, 20, 0.975), 1.959963984540054,
              1e-12);
  EXPECT_NEAR(granite::scenario::truncated_normal_quantile(0, 20, 0.5), 0.6744897501960817, 1e-12);
}

// Glass (2500 kg/m^3, r = 1 mm) and steel (7800 kg/m^3, r = 2 mm), 30 % and 70 % of the mass:
// number fractions n_k ∝ w_k / (rho_k r_k^3).
TEST(SizeDistribution, MixtureByMassHasItsMassFractions) {
  granite::body::MaterialTable materials;
  materials.add({2500.0, 0.4});
  materials.add({7800.0, 0.4});
  SizeSettings s;
  s.kind = SizeSettings::Kind::mixture;
  s.by_mass = true;
  s.components = {{1e-3, 0, 0.3}, {2e-3, 1, 0.7}};
  const SizeSampler sampler(s, 0, materials);
  const double m0 = 2500.0 * 4.0 / 3.0 * M_PI * 1e-9, m1 = 7800.0 * 4.0 / 3.0 * M_PI * 8e-9;
  const double n0 = (0.3 / m0) / (0.3 / m0 + 0.7 / m1), n1 = 1.0 - n0;
  std::size_t count0 = 0;
  double mass0 = 0.0, mass = 0.0;
  for (std::size_t i = 0; i < N; ++i) {
    const auto d = sampler.draw(kSeed, granite::BodyId(i));
    ASSERT_TRUE((d.radius == 1e-3 && d.material == 0) || (d.radius == 2e-3 && d.material == 1));
    const double m = d.material == 0 ? m0 : m1;
    mass += m;
    if (d.material == 0) {
      ++count0;
      mass0 += m;
    }
  }
  EXPECT_NEAR(double(count0) / N, n0, 5.0 * std::sqrt(n0 * n1 / N));
  const double w = 0.3, eb = n0 * m0 + n1 * m1;
  const double var_w = (n0 * m0 * m0 * (1 - w) * (1 - w) + n1 * m1 * m1 * w * w) / (eb * eb) / N;
  EXPECT_NEAR(mass0 / mass, w, 5.0 * std::sqrt(var_w));
}

TEST(SizeDistribution, MixtureByNumberHasItsNumberFractions) {
  granite::body::MaterialTable materials;
  materials.add({2500.0, 0.4});
  SizeSettings s;
  s.kind = SizeSettings::Kind::mixture;
  s.components = {{1e-3, 0, 1.0}, {1.5e-3, 0, 2.0}, {2e-3, 0, 1.0}};  // normalised: 1/4, 1/2, 1/4
  const SizeSampler sampler(s, 0, materials);
  std::size_t middle = 0;
  for (std::size_t i = 0; i < N; ++i)
    middle += sampler.draw(kSeed, granite::BodyId(i)).radius == 1.5e-3;
  EXPECT_NEAR(double(middle) / N, 0.5, 5.0 * std::sqrt(0.25 / N));
}

// A mixture of shapes and spheres (issue 39): rods (a shape of volume V_rod) and spheres of
// radius 1 mm, 40 % of the mass rods. The number fraction of rods is w/V_rod over
// w/V_rod + (1 − w)/V_sphere (one density), the mass fraction of the draws w: both within 5
// standard deviations (binomial; the delta method for the ratio of mass sums). Each draw
// carries its shape, bounding radius and volume.
TEST(SizeDistribution, MixtureOfShapesAndSpheresByMassHasItsMassFractions) {
  granite::body::MaterialTable materials;
  materials.add({2500.0, 0.4});
  const double r_rod = 1.5e-3, v_rod = 2.0e-9, v_sphere = 4.0 / 3.0 * M_PI * 1e-9;
  const granite::body::ShapeIndex rod = 3;
  SizeSettings s;
  s.kind = SizeSettings::Kind::mixture;
  s.by_mass = true;
  s.components = {{r_rod, 0, 0.4, rod, v_rod}, {1e-3, 0, 0.6}};
  EXPECT_TRUE(s.has_shapes());
  const SizeSampler sampler(s, 0, materials);
  const double n0 = (0.4 / v_rod) / (0.4 / v_rod + 0.6 / v_sphere), n1 = 1.0 - n0;
  std::size_t rods = 0;
  double rod_volume = 0.0, volume = 0.0;
  for (std::size_t i = 0; i < N; ++i) {
    const auto d = sampler.draw(kSeed, granite::BodyId(i));
    const bool is_rod = d.shape == rod;
    ASSERT_TRUE(is_rod ? d.radius == r_rod && d.shape_volume == v_rod
                       : d.radius == 1e-3 && d.shape == granite::body::kSphere);
    EXPECT_EQ(sampler.volume(d), is_rod ? v_rod : v_sphere);
    volume += sampler.volume(d);
    if (is_rod) {
      ++rods;
      rod_volume += v_rod;
    }
  }
  EXPECT_NEAR(double(rods) / N, n0, 5.0 * std::sqrt(n0 * n1 / N));
  const double w = 0.4, eb = n0 * v_rod + n1 * v_sphere;
  const double var_w =
      (n0 * v_rod * v_rod * (1 - w) * (1 - w) + n1 * v_sphere * v_sphere * w * w) / (eb * eb) / N;
  EXPECT_NEAR(rod_volume / volume, w, 5.0 * std::sqrt(var_w));
}

// A radius is a function of (seed, id) alone: drawing in another order gives the same radii.
TEST(SizeDistribution, DrawsDependOnSeedAndIdOnly) {
  granite::body::MaterialTable materials;
  materials.add({2500.0, 0.4});
  const SizeSampler sampler(continuous(SizeSettings::Kind::uniform, 1e-3, 2e-3, false), 0,
                            materials);
  const double r7 = sampler.draw(kSeed, 7).radius;
  for (granite::BodyId id = 100; id > 0; --id) (void)sampler.draw(kSeed, id);
  EXPECT_EQ(sampler.draw(kSeed, 7).radius, r7);
  EXPECT_NE(sampler.draw(kSeed + 1, 7).radius, r7);
  EXPECT_NE(sampler.draw(kSeed, 8).radius, r7);
}

}  // namespace
