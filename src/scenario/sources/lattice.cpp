#include "granite/scenario/sources/lattice.hpp"

#include <cmath>

namespace granite::scenario {

LatticeGrid::LatticeGrid(const Vec3& min, const Vec3& max, double spacing) :
    min_(min), spacing_(spacing) {
  for (int a = 0; a < 3; ++a)  // the 1e-9 absorbs round-off when the extent is a multiple
    cells_[std::size_t(a)] = std::max(0L, long(std::floor((max[a] - min[a]) / spacing + 1e-9)));
}

std::vector<Vec3> lattice_centres(const Vec3& min, const Vec3& max, double spacing) {
  const LatticeGrid grid(min, max, spacing);
  std::vector<Vec3> centres;
  centres.reserve(grid.size());
  grid.for_each([&](const Vec3& x) { centres.push_back(x); });
  return centres;
}

}  // namespace granite::scenario
