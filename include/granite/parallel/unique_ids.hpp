#pragma once
// Particle ids are unique over the whole run, not only on each rank: a distributed check whose
// work and memory per rank are those of its own ids (no rank gathers them all).
#include "granite/comm/communicator.hpp"
#include "granite/core/types.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace granite::parallel {

/// Collective: the smallest id that appears more than once among all ranks' `ids` (each id
/// goes to rank id mod P, which sorts what it receives; one all-to-all and one reduction), or
/// nullopt; the same answer on every rank.
std::optional<BodyId> first_duplicate_id(const std::vector<BodyId>& ids,
                                         const comm::Communicator& comm);

/// Each id's place among all ranks' ids sorted (0 for the smallest), for ids unique over all
/// ranks; otherwise `duplicate` is the smallest repeated id and `place` is empty. Collective,
/// with work and memory per rank those of its own ids: the ids are sent to ranks by value range
/// (rank r gets the r-th of P equal ranges of [min, max]), sorted there, numbered from the
/// sizes of the lower ranges (an exclusive prefix sum), and the places sent back.
struct IdOrder {
  std::vector<std::int64_t> place;  // place[i]: where ids[i] comes in the sorted order
  std::optional<BodyId> duplicate;
};
IdOrder id_order(const std::vector<BodyId>& ids, const comm::Communicator& comm);

}  // namespace granite::parallel
