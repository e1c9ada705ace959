#pragma once
// Particle ids are unique over the whole run, not only on each rank: a distributed check whose
// work and memory per rank are those of its own ids (no rank gathers them all).
#include "granite/comm/communicator.hpp"
#include "granite/core/types.hpp"

#include <optional>
#include <vector>

namespace granite::parallel {

/// Collective: the smallest id that appears more than once among all ranks' `ids` (each id
/// goes to rank id mod P, which sorts what it receives; one all-to-all and one reduction), or
/// nullopt; the same answer on every rank.
std::optional<BodyId> first_duplicate_id(const std::vector<BodyId>& ids,
                                         const comm::Communicator& comm);

}  // namespace granite::parallel
