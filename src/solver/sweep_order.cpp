// Sweep orderings (see include/granite/solver/sweep_order.hpp).
#include "granite/solver/sweep_order.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace granite::solver {

void build_sweep_order(Ordering ordering, const std::vector<Vec3>& points, const Vec3& gravity,
                       std::uint64_t seed, std::int64_t step, SweepOrder& order) {
  order.alternate = ordering == Ordering::symmetric;
  order.indices.clear();
  const bool by_height = ordering == Ordering::gravity && gravity.squaredNorm() > 0.0;
  if (!by_height && ordering != Ordering::random) return;
  order.indices.resize(points.size());
  std::iota(order.indices.begin(), order.indices.end(), 0u);
  if (by_height) {
    const Vec3 up = -gravity.normalized();
    std::vector<double> height(points.size());
    for (std::size_t j = 0; j < points.size(); ++j) height[j] = up.dot(points[j]);
    // Stable: equal heights keep the detection order (deterministic).
    std::stable_sort(order.indices.begin(), order.indices.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return height[a] < height[b]; });
    return;
  }
  // Fisher–Yates with mt19937_64 written out (std::shuffle's use of the engine is
  // implementation-defined), seeded from (seed, step).
  std::seed_seq seq{std::uint32_t(seed), std::uint32_t(seed >> 32), std::uint32_t(step),
                    std::uint32_t(std::uint64_t(step) >> 32)};
  std::mt19937_64 rng(seq);
  for (std::size_t i = order.indices.size(); i > 1; --i) {
    const std::size_t k = static_cast<std::size_t>(rng() % i);
    std::swap(order.indices[i - 1], order.indices[k]);
  }
}

}  // namespace granite::solver
