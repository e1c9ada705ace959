#pragma once
// Lattice fill: sphere centres on a rectangular grid filling a region, one per cubic cell of
// edge `spacing`, each at its cell centre (min + spacing·(i + ½) along every axis, as many
// cells as fit in [min, max]), walked x fastest, then y, then z.
#include "granite/core/types.hpp"

#include <array>
#include <vector>

namespace granite::scenario {

class LatticeGrid {
public:
  LatticeGrid(const Vec3& min, const Vec3& max, double spacing);
  std::size_t size() const { return std::size_t(cells_[0] * cells_[1] * cells_[2]); }
  /// Calls f(centre) for every cell in walk order; nothing is stored (a rank walks a lattice
  /// of any size in constant memory).
  template <class F>
  void for_each(F&& f) const {
    for (long k = 0; k < cells_[2]; ++k)
      for (long j = 0; j < cells_[1]; ++j)
        for (long i = 0; i < cells_[0]; ++i) f(min_ + spacing_ * Vec3(i + 0.5, j + 0.5, k + 0.5));
  }

private:
  Vec3 min_;
  double spacing_;
  std::array<long, 3> cells_;
};

/// Every centre, in walk order (for small lattices: an inflow layer).
std::vector<Vec3> lattice_centres(const Vec3& min, const Vec3& max, double spacing);

}  // namespace granite::scenario
