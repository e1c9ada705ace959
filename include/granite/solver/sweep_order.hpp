#pragma once
// The order in which a Gauss–Seidel sweep visits the contacts (solver.ordering):
//   detection  the detection order (the contact list as it is);
//   symmetric  the detection order forwards, then backwards, alternating sweep by sweep
//              (symmetric Gauss–Seidel; each direction counts as one sweep);
//   gravity    by the height of the contact point along −g, lowest first, so that the weight
//              of a pile travels down in one sweep (detection order without gravity);
//   random     a shuffle drawn anew each step from (seed, step), so that a run and its restart
//              visit the contacts alike.
#include "granite/core/names.hpp"
#include "granite/core/types.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace granite::solver {

enum class Ordering { detection, symmetric, gravity, random };

inline constexpr std::array<Named<Ordering>, 4> kOrderingNames{{
    {Ordering::detection, "detection"},
    {Ordering::symmetric, "symmetric"},
    {Ordering::gravity, "gravity"},
    {Ordering::random, "random"},
}};

struct SweepOrder {
  std::vector<std::uint32_t> indices;  // contacts in visiting order; empty = list order
  bool alternate = false;              // every second sweep backwards
};

/// Builds the order of the step's contacts with contact points `points`.
void build_sweep_order(Ordering ordering, const std::vector<Vec3>& points, const Vec3& gravity,
                       std::uint64_t seed, std::int64_t step, SweepOrder& order);

}  // namespace granite::solver
