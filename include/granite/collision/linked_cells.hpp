#pragma once
// Linked-cell broad phase (O(N)): particles are binned into a uniform grid whose cell edge is
// at least the largest particle diameter plus the contact threshold, so every pair within
// reach lies in the same or a neighbouring cell. Buffers are reused across calls.
#include "granite/core/types.hpp"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace granite::collision {

class LinkedCells {
public:
  /// Bins the positions. cell_size must be > 0; the grid covers the positions' bounding box
  /// (cells are enlarged if the grid would have more than ~2 cells per particle).
  void build(const std::vector<Vec3>& positions, double cell_size);

  /// Calls visit(i, j) once for every unordered pair of particles in the same or
  /// adjacent cells (each candidate pair exactly once; i != j, order of i, j unspecified).
  template <class Visit>
  void for_each_candidate_pair(Visit&& visit) const;

  /// The same candidate pairs by ranges of the cell order: visit(p, begin, end) pairs the
  /// particle sorted()[p] with each of sorted()[begin, end). The half stencil's 13 neighbours
  /// lie in 5 rows of consecutive cells, so a particle has at most 5 ranges, each contiguous in
  /// arrays kept in the cell order (a neighbour list's build scans them without indirection).
  template <class Visit>
  void for_each_candidate_range(Visit&& visit) const;
  /// Particle indices grouped by cell (the cell order of for_each_candidate_range).
  const std::vector<std::uint32_t>& sorted() const { return sorted_; }

  double cell_size() const { return cell_size_; }
  const std::array<std::int64_t, 3>& dims() const { return dims_; }

private:
  std::int64_t cell_of(const Vec3& x) const;
  /// Calls f(x, y, z, c, begin, end) for every cell c = (x, y, z) holding particles
  /// sorted_[begin, end).
  template <class F>
  void for_each_occupied_cell(F&& f) const;

  double cell_size_ = 0.0;
  Vec3 origin_ = Vec3::Zero();
  std::array<std::int64_t, 3> dims_{1, 1, 1};
  std::vector<std::uint32_t> cell_start_;  // size cells+1, counting-sort offsets
  std::vector<std::uint32_t> sorted_;      // particle indices grouped by cell
  std::vector<std::uint32_t> cell_of_particle_;
};

/// Reference O(N²) pair search for tests: every pair with |x_i - x_j| < reach_i + reach_j.
std::vector<std::pair<std::uint32_t, std::uint32_t>>
brute_force_pairs(const std::vector<Vec3>& positions, const std::vector<double>& radius,
                  double threshold);

// --- implementation of the templates -------------------------------------------------------
template <class F>
void LinkedCells::for_each_occupied_cell(F&& f) const {
  const std::int64_t nx = dims_[0], ny = dims_[1], nz = dims_[2];
  for (std::int64_t z = 0; z < nz; ++z)
    for (std::int64_t y = 0; y < ny; ++y)
      for (std::int64_t x = 0; x < nx; ++x) {
        const std::int64_t c = (z * ny + y) * nx + x;
        const std::uint32_t begin = cell_start_[c], end = cell_start_[c + 1];
        if (begin != end) f(x, y, z, c, begin, end);
      }
}

template <class Visit>
void LinkedCells::for_each_candidate_pair(Visit&& visit) const {
  const std::int64_t nx = dims_[0], ny = dims_[1], nz = dims_[2];
  // Half stencil: the cell itself (pairs within it) plus 13 of its 26 neighbours.
  static constexpr int kStencil[13][3] = {
      {1, 0, 0},  {-1, 1, 0}, {0, 1, 0}, {1, 1, 0},  {-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
      {-1, 0, 1}, {0, 0, 1},  {1, 0, 1}, {-1, 1, 1}, {0, 1, 1},   {1, 1, 1}};
  for_each_occupied_cell([&](std::int64_t x, std::int64_t y, std::int64_t z, std::int64_t,
                             std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t a = begin; a < end; ++a)
      for (std::uint32_t b = a + 1; b < end; ++b) visit(sorted_[a], sorted_[b]);
    for (const auto& s : kStencil) {
      const std::int64_t xx = x + s[0], yy = y + s[1], zz = z + s[2];
      if (xx < 0 || xx >= nx || yy < 0 || yy >= ny || zz >= nz) continue;
      const std::int64_t d = (zz * ny + yy) * nx + xx;
      const std::uint32_t dbegin = cell_start_[d], dend = cell_start_[d + 1];
      for (std::uint32_t a = begin; a < end; ++a)
        for (std::uint32_t b = dbegin; b < dend; ++b) visit(sorted_[a], sorted_[b]);
    }
  });
}

template <class Visit>
void LinkedCells::for_each_candidate_range(Visit&& visit) const {
  const std::int64_t nx = dims_[0], ny = dims_[1], nz = dims_[2];
  // The rows of the half stencil other than the cell's own: (dy, dz), each cells x-1..x+1.
  static constexpr int kRows[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  for_each_occupied_cell([&](std::int64_t x, std::int64_t y, std::int64_t z, std::int64_t c,
                             std::uint32_t begin, std::uint32_t end) {
    // The cell itself after p, and the next cell of its row ({1, 0, 0}).
    const std::uint32_t own_end = cell_start_[x + 1 < nx ? c + 2 : c + 1];
    for (std::uint32_t p = begin; p < end; ++p) visit(p, p + 1, own_end);
    const std::int64_t x0 = x > 0 ? x - 1 : 0, x1 = x + 1 < nx ? x + 1 : x;
    for (const auto& row : kRows) {
      const std::int64_t yy = y + row[0], zz = z + row[1];
      if (yy < 0 || yy >= ny || zz >= nz) continue;
      const std::int64_t first = (zz * ny + yy) * nx;
      const std::uint32_t rbegin = cell_start_[first + x0], rend = cell_start_[first + x1 + 1];
      if (rbegin == rend) continue;
      for (std::uint32_t p = begin; p < end; ++p) visit(p, rbegin, rend);
    }
  });
}

}  // namespace granite::collision
