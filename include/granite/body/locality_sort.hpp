#pragma once
// Locality: the particles sorted along a space-filling curve, so that bodies near in space are
// near in memory (issue 18). The curve is the Z-order (Morton) curve over a grid of cubic cells:
// a cell (x, y, z) gets the key that interleaves the bits of x, y and z, and sorting by the key
// visits the grid octant by octant, recursively, so every 2^k × 2^k × 2^k block of cells
// (aligned to multiples of 2^k) is one contiguous run of keys.
//
// The order is a function of the positions and ids only (key, then id; ids are unique), never of
// the order before, so a restart or any permutation of the same bodies sorts to the same order.
#include "granite/body/particles.hpp"

#include <cstdint>
#include <vector>

namespace granite::body {

/// Cell coordinates are kept to 21 bits each: 3 × 21 = 63 bits of key.
inline constexpr int kMortonBits = 21;

/// The Morton key of cell (x, y, z), each < 2^21: bit b of x goes to bit 3b of the key, bit b
/// of y to bit 3b + 1, bit b of z to bit 3b + 2.
std::uint64_t morton_key(std::uint32_t x, std::uint32_t y, std::uint32_t z);

/// The new order of particles [0, count): order[k] is the present index of the body that is to
/// come k-th. Sorted by the Morton key of the cell holding the position, ties by id; cells of
/// edge `cell_size` (m; not > 0: one cell for all; doubled until the bounding box fits in
/// 2^21 cells along every axis), counted from the lower corner of the bounding box of the
/// `count` positions. With `first` (one flag per body of the prefix), the flagged bodies come
/// before the others, each group in that order: the bodies near another subdomain, whose
/// contacts the overlapped sweep relaxes first (docs/solvers.md).
void locality_order(const Particles& particles, std::size_t count, double cell_size,
                    std::vector<std::uint32_t>& order,
                    const std::vector<std::uint8_t>* first = nullptr);

/// Sorts particles [0, count) by locality_order (the others keep their places); returns false,
/// having moved nothing, if they were in that order already.
bool sort_by_locality(Particles& particles, std::size_t count, double cell_size,
                      const std::vector<std::uint8_t>* first = nullptr);

}  // namespace granite::body
