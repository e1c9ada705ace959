// The Z-order sort of the particles (body/locality_sort.hpp): the Morton key interleaves the
// cell's bits (checked against the definition bit by bit, and on known values); every aligned
// 2×2×2 (and 4×4×4) block of cells is one run of consecutive keys; sorting a lattice with one
// particle per cell puts the particles in the order of their keys; the sort is a permutation
// that moves every field of a body with it; and the order depends on the bodies only, not on
// the order they came in.
#include "granite/body/locality_sort.hpp"
#include "granite/body/particle_fields.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <type_traits>

using namespace granite;

namespace {

// The definition: bit b of x, y, z to bits 3b, 3b + 1, 3b + 2.
std::uint64_t interleave_bit_by_bit(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  std::uint64_t key = 0;
  for (int b = 0; b < body::kMortonBits; ++b) {
    key |= std::uint64_t((x >> b) & 1u) << (3 * b);
    key |= std::uint64_t((y >> b) & 1u) << (3 * b + 1);
    key |= std::uint64_t((z >> b) & 1u) << (3 * b + 2);
  }
  return key;
}

template <class T>
std::enable_if_t<std::is_arithmetic_v<T>, bool> same(T a, T b) {
  return a == b;
}
bool same(const Quat& a, const Quat& b) { return a.coeffs() == b.coeffs(); }
template <class Derived>
bool same(const Eigen::MatrixBase<Derived>& a, const Eigen::MatrixBase<Derived>& b) {
  return a == b;
}

// The names of the fields in which body `id` differs between p (index i) and q (index j).
std::string differing_fields(const body::Particles& p, std::size_t i, const body::Particles& q,
                             std::size_t j) {
  std::string wrong;
  body::for_each_particle_field([&](const auto& field) {
    if (!same((p.*field.array)[i], (q.*field.array)[j])) wrong += std::string(" ") + field.name;
  });
  return wrong;
}

// n spheres at random places in a box of edge `box`, every field set to a value of its own.
body::Particles random_bodies(std::size_t n, double box, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const auto vec = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  body::Particles p;
  for (std::size_t i = 0; i < n; ++i) {
    body::ParticleInit row;
    row.id = BodyId(7 * i + 3);
    row.position = box * vec();
    row.orientation = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    row.velocity = vec();
    row.angular_velocity = vec();
    row.force = vec();
    row.torque = vec();
    row.mass = 1.0 + u(rng);
    row.body_inertia = Mat3::Identity() * (1.0 + u(rng));
    row.body_inertia(0, 1) = row.body_inertia(1, 0) = 0.1 * u(rng);
    row.radius = 0.01 + 0.01 * u(rng);
    row.material = body::MaterialIndex(i % 3);
    row.group = std::int32_t(i % 5);
    row.fixed = std::int32_t(i % 7 == 0);
    row.neighbour_reference = vec();
    p.add(row);
  }
  return p;
}

// A random permutation of bodies [0, p.size()) of p.
body::Particles shuffled(const body::Particles& p, std::mt19937& rng) {
  std::vector<std::uint32_t> order(p.size());
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), rng);
  body::Particles q = p;
  q.permute(order);
  return q;
}

}  // namespace

TEST(LocalitySort, MortonKeyInterleavesTheBitsOfTheCell) {
  EXPECT_EQ(body::morton_key(0, 0, 0), 0u);
  EXPECT_EQ(body::morton_key(1, 0, 0), 1u);
  EXPECT_EQ(body::morton_key(0, 1, 0), 2u);
  EXPECT_EQ(body::morton_key(0, 0, 1), 4u);
  EXPECT_EQ(body::morton_key(1, 1, 1), 7u);
  EXPECT_EQ(body::morton_key(2, 0, 0), 8u);
  // x = 0b101, y = 0b011, z = 0b110: bits (z y x) per level, highest level first: 101 110 011.
  EXPECT_EQ(body::morton_key(5, 3, 6), 0b101110011u);
  const std::uint32_t top = (1u << body::kMortonBits) - 1u;
  EXPECT_EQ(body::morton_key(top, top, top), (std::uint64_t(1) << 63) - 1u);
  EXPECT_EQ(body::morton_key(top, 0, 0), 0x1249249249249249ULL);
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> cell(0, top);
  for (int k = 0; k < 10000; ++k) {
    const std::uint32_t x = cell(rng), y = cell(rng), z = cell(rng);
    ASSERT_EQ(body::morton_key(x, y, z), interleave_bit_by_bit(x, y, z))
        << x << " " << y << " " << z;
  }
}

TEST(LocalitySort, EveryAlignedBlockOfCellsIsOneRunOfKeys) {
  std::mt19937 rng(6);
  std::uniform_int_distribution<std::uint32_t> corner(0, (1u << (body::kMortonBits - 2)) - 1u);
  for (const std::uint32_t edge : {2u, 4u})
    for (int trial = 0; trial < 200; ++trial) {
      const std::uint32_t x0 = edge * (corner(rng) / 2), y0 = edge * (corner(rng) / 2),
                          z0 = edge * (corner(rng) / 2);
      std::vector<std::uint64_t> keys;
      for (std::uint32_t dz = 0; dz < edge; ++dz)
        for (std::uint32_t dy = 0; dy < edge; ++dy)
          for (std::uint32_t dx = 0; dx < edge; ++dx)
            keys.push_back(body::morton_key(x0 + dx, y0 + dy, z0 + dz));
      std::sort(keys.begin(), keys.end());
      EXPECT_EQ(keys.front() % keys.size(), 0u) << "the block does not start a run";
      for (std::size_t k = 1; k < keys.size(); ++k)
        ASSERT_EQ(keys[k], keys[k - 1] + 1) << "block of edge " << edge << " at " << x0 << " " << y0
                                            << " " << z0 << " is not contiguous";
    }
}

TEST(LocalitySort, ALatticeWithOneBodyPerCellComesInTheOrderOfTheKeys) {
  // 8 × 8 × 8 cells of edge h, one body at the centre of each, ids and storage shuffled: the
  // body at index k after the sort is the one in the cell whose key is k (8³ = 2^9 keys). h is
  // a power of two, so that every position and cell coordinate is exact.
  const double h = 1.0 / 128.0;
  const int n = 8;
  body::Particles lattice;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        body::ParticleInit row;
        row.id = BodyId(1000 - (x + n * (y + n * z)));
        row.position = h * Vec3(x + 0.5, y + 0.5, z + 0.5);
        row.mass = 1.0;
        row.radius = 0.4 * h;
        lattice.add(row);
      }
  std::mt19937 rng(7);
  body::Particles p = shuffled(lattice, rng);
  ASSERT_TRUE(body::sort_by_locality(p, p.size(), h));
  for (std::size_t k = 0; k < p.size(); ++k) {
    const Vec3 c = (p.position[k] / h).array().floor();
    EXPECT_EQ(interleave_bit_by_bit(std::uint32_t(c[0]), std::uint32_t(c[1]), std::uint32_t(c[2])),
              k);
  }
  EXPECT_FALSE(body::sort_by_locality(p, p.size(), h)) << "sorted twice";
}

TEST(LocalitySort, BodiesInOneCellComeByIdAndEveryFieldMovesWithItsBody) {
  std::mt19937 rng(8);
  const body::Particles before = random_bodies(3000, 0.2, rng);
  body::Particles after = before;
  const double h = 0.02;  // ~3 bodies per cell: many ties
  ASSERT_TRUE(body::sort_by_locality(after, after.size(), h));
  ASSERT_EQ(after.size(), before.size());
  std::map<BodyId, std::size_t> where;
  for (std::size_t i = 0; i < before.size(); ++i) where[before.id[i]] = i;
  std::size_t moved = 0;
  for (std::size_t k = 0; k < after.size(); ++k) {
    const auto it = where.find(after.id[k]);
    ASSERT_NE(it, where.end()) << "id " << after.id[k] << " was not there before";
    moved += it->second != k ? 1 : 0;
    EXPECT_EQ(differing_fields(before, it->second, after, k), "") << "body " << after.id[k];
    where.erase(it);  // each body once
  }
  EXPECT_GT(moved, before.size() / 2) << "test too weak: random bodies barely moved";
  // Within one cell (same floor of (x - lo) / h on every axis), ascending ids.
  Vec3 lo = after.position[0];
  for (const Vec3& x : after.position) lo = lo.cwiseMin(x);
  std::size_t ties = 0;
  for (std::size_t k = 1; k < after.size(); ++k) {
    const Vec3 a = ((after.position[k - 1] - lo) / h).array().floor();
    const Vec3 b = ((after.position[k] - lo) / h).array().floor();
    if (a != b) continue;
    ++ties;
    EXPECT_LT(after.id[k - 1], after.id[k]) << "bodies of one cell not by id at " << k;
  }
  EXPECT_GT(ties, 500u) << "test too weak: few bodies share a cell";
}

TEST(LocalitySort, TheOrderDependsOnTheBodiesNotOnTheirOrderBefore) {
  std::mt19937 rng(9);
  const body::Particles bodies = random_bodies(2000, 0.1, rng);
  body::Particles a = shuffled(bodies, rng), b = shuffled(bodies, rng);
  body::sort_by_locality(a, a.size(), 0.013);
  body::sort_by_locality(b, b.size(), 0.013);
  for (std::size_t k = 0; k < a.size(); ++k)
    ASSERT_EQ(differing_fields(a, k, b, k), "") << "index " << k;
}

// With flags (the bodies the halo sends, timestep/simulation.cpp), the flagged bodies come
// first and each group in the order it has sorted alone.
TEST(LocalitySort, FlaggedBodiesComeFirstEachGroupInItsOwnOrder) {
  std::mt19937 rng(11);
  const body::Particles bodies = random_bodies(1000, 0.1, rng);
  std::vector<std::uint8_t> first(bodies.size());
  for (std::size_t i = 0; i < first.size(); ++i) first[i] = bodies.position[i][0] > 0.08 ? 1 : 0;
  std::vector<std::uint32_t> order;
  body::locality_order(bodies, bodies.size(), 0.013, order, &first);
  std::vector<std::uint32_t> plain;
  body::locality_order(bodies, bodies.size(), 0.013, plain);
  // The plain order split by the flag, stably: what the flags must give.
  std::vector<std::uint32_t> expected;
  for (const int flag : {1, 0})
    for (const std::uint32_t i : plain)
      if (first[i] == flag) expected.push_back(i);
  EXPECT_EQ(order, expected);
  const auto flagged = std::count(first.begin(), first.end(), 1);
  EXPECT_GT(flagged, 100) << "test too weak: few flagged bodies";
  EXPECT_NE(order, plain) << "test too weak: the flags changed nothing";
}

TEST(LocalitySort, OnlyThePrefixIsSorted) {
  std::mt19937 rng(10);
  const body::Particles before = random_bodies(500, 0.1, rng);
  body::Particles after = before;
  const std::size_t count = 300;
  ASSERT_TRUE(body::sort_by_locality(after, count, 0.01));
  for (std::size_t i = count; i < before.size(); ++i)
    EXPECT_EQ(differing_fields(before, i, after, i), "") << "index " << i << " beyond the prefix";
  std::vector<BodyId> ids_before(before.id.begin(), before.id.begin() + count);
  std::vector<BodyId> ids_after(after.id.begin(), after.id.begin() + count);
  std::sort(ids_before.begin(), ids_before.end());
  std::sort(ids_after.begin(), ids_after.end());
  EXPECT_EQ(ids_before, ids_after) << "the prefix is not a permutation of itself";
}
