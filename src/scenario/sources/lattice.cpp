#include "granite/scenario/sources/lattice.hpp"

#include <cmath>

namespace granite::scenario {

std::vector<Vec3> lattice_centres(const Vec3& min, const Vec3& max, double spacing) {
  long cells[3];
  for (int a = 0; a < 3; ++a)  // the 1e-9 absorbs round-off when the extent is a multiple
    cells[a] = std::max(0L, long(std::floor((max[a] - min[a]) / spacing + 1e-9)));
  std::vector<Vec3> centres;
  centres.reserve(std::size_t(cells[0] * cells[1] * cells[2]));
  for (long k = 0; k < cells[2]; ++k)
    for (long j = 0; j < cells[1]; ++j)
      for (long i = 0; i < cells[0]; ++i)
        centres.push_back(min + spacing * Vec3(i + 0.5, j + 0.5, k + 0.5));
  return centres;
}

}  // namespace granite::scenario
