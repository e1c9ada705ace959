#pragma once
// Lattice fill: sphere centres on a rectangular grid filling a region, one per cubic cell of
// edge `spacing`, each at its cell centre (min + spacing·(i + ½) along every axis, as many
// cells as fit in [min, max]).
#include "granite/core/types.hpp"

#include <vector>

namespace granite::scenario {

std::vector<Vec3> lattice_centres(const Vec3& min, const Vec3& max, double spacing);

}  // namespace granite::scenario
