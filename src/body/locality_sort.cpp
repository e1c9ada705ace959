// The Z-order (Morton) sort of the particles (see include/granite/body/locality_sort.hpp).
#include "granite/body/locality_sort.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace granite::body {

namespace {

/// Spreads the low 21 bits of v so that bit b lands on bit 3b (two zero bits between
/// neighbours): the classic shift-and-mask ladder, 32 + 16 + 8 + 4 + 2.
std::uint64_t spread_by_three(std::uint32_t v) {
  std::uint64_t x = v & ((1u << kMortonBits) - 1u);
  x = (x | x << 32) & 0x001f00000000ffffULL;
  x = (x | x << 16) & 0x001f0000ff0000ffULL;
  x = (x | x << 8) & 0x100f00f00f00f00fULL;
  x = (x | x << 4) & 0x10c30c30c30c30c3ULL;
  x = (x | x << 2) & 0x1249249249249249ULL;
  return x;
}

struct Entry {
  std::uint64_t key;
  BodyId id;
  std::uint32_t index;
};

}  // namespace

std::uint64_t morton_key(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return spread_by_three(x) | spread_by_three(y) << 1 | spread_by_three(z) << 2;
}

void locality_order(const Particles& particles, std::size_t count, double cell_size,
                    std::vector<std::uint32_t>& order, const std::vector<std::uint8_t>* first) {
  order.resize(count);
  if (count == 0) return;
  const std::vector<Vec3>& x = particles.position;
  Vec3 lo = x[0], hi = x[0];
  for (std::size_t i = 1; i < count; ++i) {
    lo = lo.cwiseMin(x[i]);
    hi = hi.cwiseMax(x[i]);
  }
  const double last_cell = double((1u << kMortonBits) - 1u);
  const double extent = (hi - lo).maxCoeff();
  // A cell size that is not positive and finite: one cell for all (ties by id).
  double h = cell_size > 0.0 && std::isfinite(cell_size) ? cell_size
             : std::isfinite(extent) && extent > 0.0     ? 2.0 * extent
                                                         : 1.0;
  if (std::isfinite(extent))
    while (extent / h >= last_cell) h *= 2.0;
  // Cell index along one axis; a non-finite coordinate (the run stops on it after the step)
  // goes to cell 0 rather than into an undefined conversion.
  const auto cell = [&](double coordinate, int axis) {
    const double c = std::floor((coordinate - lo[axis]) / h);
    return std::uint32_t(c >= 0.0 ? std::min(c, last_cell) : 0.0);
  };
  // The keys take 63 bits: the 64th puts the bodies not flagged `first` after the others.
  constexpr std::uint64_t kLater = std::uint64_t(1) << (3 * kMortonBits);
  static_assert(3 * kMortonBits == 63);
  std::vector<Entry> entries(count);
  for (std::size_t i = 0; i < count; ++i)
    entries[i] = {morton_key(cell(x[i][0], 0), cell(x[i][1], 1), cell(x[i][2], 2)) |
                      (first != nullptr && (*first)[i] == 0 ? kLater : 0),
                  particles.id[i], std::uint32_t(i)};
  const auto before = [](const Entry& a, const Entry& b) {
    return std::tie(a.key, a.id) < std::tie(b.key, b.id);
  };
  // Between rebuilds few bodies change cells: often the order holds already (one pass).
  if (!std::is_sorted(entries.begin(), entries.end(), before))
    std::sort(entries.begin(), entries.end(), before);
  for (std::size_t k = 0; k < count; ++k) order[k] = entries[k].index;
}

bool sort_by_locality(Particles& particles, std::size_t count, double cell_size,
                      const std::vector<std::uint8_t>* first) {
  std::vector<std::uint32_t> order;
  locality_order(particles, count, cell_size, order, first);
  bool identity = true;
  for (std::size_t k = 0; k < count && identity; ++k) identity = order[k] == k;
  if (identity) return false;
  particles.permute(order);
  return true;
}

}  // namespace granite::body
