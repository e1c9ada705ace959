#include "granite/collision/linked_cells.hpp"

#include <algorithm>
#include <cmath>

namespace granite::collision {

void LinkedCells::build(const std::vector<Vec3>& positions, double cell_size) {
  const std::size_t n = positions.size();
  Vec3 lo = Vec3::Constant(0.0), hi = Vec3::Constant(0.0);
  if (n > 0) {
    lo = hi = positions[0];
    for (const Vec3& x : positions) {
      lo = lo.cwiseMin(x);
      hi = hi.cwiseMax(x);
    }
  }
  // Sparse systems would get far more cells than particles; grow the cells until the grid
  // has at most ~2 cells per particle (a larger cell never misses a pair).
  const double max_cells = 2.0 * double(std::max<std::size_t>(n, 1)) + 27.0;
  double h = cell_size;
  for (;;) {
    const Vec3 cells = ((hi - lo) / h).array().floor() + 1.0;
    if (cells.prod() <= max_cells) break;
    h *= 1.26;  // ≈ 2^(1/3): halves the cell count per iteration
  }
  cell_size_ = h;
  origin_ = lo;
  for (int k = 0; k < 3; ++k) dims_[k] = std::int64_t(std::floor((hi[k] - lo[k]) / h)) + 1;
  const std::size_t num_cells = std::size_t(dims_[0] * dims_[1] * dims_[2]);

  // Counting sort of particles by cell.
  cell_start_.assign(num_cells + 1, 0);
  cell_of_particle_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = std::uint32_t(cell_of(positions[i]));
    cell_of_particle_[i] = c;
    ++cell_start_[c + 1];
  }
  for (std::size_t c = 0; c < num_cells; ++c) cell_start_[c + 1] += cell_start_[c];
  sorted_.resize(n);
  // Fill using cell_start_ as a cursor, then shift it back.
  for (std::size_t i = 0; i < n; ++i)
    sorted_[cell_start_[cell_of_particle_[i]]++] = std::uint32_t(i);
  for (std::size_t c = num_cells; c > 0; --c) cell_start_[c] = cell_start_[c - 1];
  cell_start_[0] = 0;
}

std::int64_t LinkedCells::cell_of(const Vec3& x) const {
  std::int64_t idx[3];
  for (int k = 0; k < 3; ++k)
    idx[k] =
        std::clamp<std::int64_t>(std::int64_t((x[k] - origin_[k]) / cell_size_), 0, dims_[k] - 1);
  return (idx[2] * dims_[1] + idx[1]) * dims_[0] + idx[0];
}

std::vector<std::pair<std::uint32_t, std::uint32_t>>
brute_force_pairs(const std::vector<Vec3>& positions, const std::vector<double>& radius,
                  double threshold) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t i = 0; i < positions.size(); ++i)
    for (std::size_t j = i + 1; j < positions.size(); ++j) {
      const double reach = radius[i] + radius[j] + threshold;
      if ((positions[i] - positions[j]).squaredNorm() <= reach * reach)
        pairs.emplace_back(std::uint32_t(i), std::uint32_t(j));
    }
  return pairs;
}

}  // namespace granite::collision
