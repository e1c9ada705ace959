// Size distributions (see size_distribution.hpp).
//
// A distribution "by mass" prescribes the mass fraction dM/M in each size; the number density
// is then g(r) ∝ f(r) / (ρ r³). Mixtures convert their mass fractions w_k to number fractions
// n_k ∝ w_k / (ρ_k r_k³). Log-normal: f(r)/r³ is again log-normal with mu − 3 sigma² (complete
// the square in ln r), so it is drawn directly. Uniform and normal by mass: rejection from f
// with acceptance (min/r)³ ≤ 1, exact, (max/min)³ draws per sphere at worst.
#include "granite/scenario/sources/size_distribution.hpp"

#include <algorithm>
#include <cmath>

namespace granite::scenario {

namespace {

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace

double truncated_normal_quantile(double a, double b, double u) {
  // In the upper tail Φ is close to 1 and loses digits: use the symmetry z → −z.
  if (a > 0.0) return -truncated_normal_quantile(-b, -a, 1.0 - u);
  const double fa = normal_cdf(a), fb = normal_cdf(b);
  const double target = fa + u * (fb - fa);
  double lo = a, hi = b;
  for (int k = 0; k < 100 && hi - lo > 1e-15 * std::max(1.0, std::abs(lo)); ++k) {
    const double mid = 0.5 * (lo + hi);
    (normal_cdf(mid) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

SizeSampler::SizeSampler(const config::SizeSettings& size, body::MaterialIndex material,
                         const body::MaterialTable& materials) :
    size_(size),
    material_(material) {
  if (size_.kind != config::SizeSettings::Kind::mixture) return;
  double total = 0.0;
  for (const config::SizeComponent& c : size_.components) {
    // By mass: n_k ∝ w_k / (ρ_k V_k), with V_k/(4π/3) for every component (r³ for a sphere).
    const double scaled_volume =
        c.shape == body::kSphere ? std::pow(c.radius, 3) : c.shape_volume / (4.0 / 3.0 * M_PI);
    const double weight =
        size_.by_mass ? c.fraction / (materials[c.material].density * scaled_volume) : c.fraction;
    total += weight;
    cumulative_.push_back(total);
  }
  for (double& c : cumulative_) c /= total;
  cumulative_.back() = 1.0;
}

double SizeSampler::continuous(CounterStream& stream) const {
  using Kind = config::SizeSettings::Kind;
  const double lo = size_.min, hi = size_.max;
  if (size_.kind == Kind::lognormal) {
    const double mu =
        std::log(size_.median) - (size_.by_mass ? 3.0 * size_.sigma * size_.sigma : 0.0);
    const double z = truncated_normal_quantile((std::log(lo) - mu) / size_.sigma,
                                               (std::log(hi) - mu) / size_.sigma, stream.uniform());
    return std::clamp(std::exp(mu + size_.sigma * z), lo, hi);
  }
  for (;;) {
    double r;
    if (size_.kind == Kind::uniform)
      r = stream.uniform(lo, hi);
    else
      r = std::clamp(size_.mean + size_.std * truncated_normal_quantile(
                                                  (lo - size_.mean) / size_.std,
                                                  (hi - size_.mean) / size_.std, stream.uniform()),
                     lo, hi);
    if (!size_.by_mass || stream.uniform() < std::pow(lo / r, 3)) return r;
  }
}

SizeDraw SizeSampler::draw(CounterStream& stream) const {
  using Kind = config::SizeSettings::Kind;
  if (size_.kind == Kind::fixed) return {size_.radius, material_, size_.shape, size_.shape_volume};
  if (size_.kind == Kind::mixture) {
    const double u = stream.uniform();
    const std::size_t k = std::size_t(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) -
                                      cumulative_.begin());
    const config::SizeComponent& c = size_.components[std::min(k, cumulative_.size() - 1)];
    return {c.radius, c.material, c.shape, c.shape_volume};
  }
  return {continuous(stream), material_};
}

double SizeSampler::volume(const SizeDraw& draw) const {
  return draw.shape == body::kSphere ? 4.0 / 3.0 * M_PI * std::pow(draw.radius, 3)
                                     : draw.shape_volume;
}

SizeDraw SizeSampler::draw(std::uint64_t seed, BodyId id) const {
  CounterStream stream(seed, StreamTag::size, std::uint64_t(id));
  return draw(stream);
}

}  // namespace granite::scenario
