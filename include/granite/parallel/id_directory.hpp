#pragma once
// Which rank owns a particle, by id, without any rank holding every id: rank id mod P keeps
// the owner of each id it is given (a distributed directory, as the unique-id check uses).
#include "granite/comm/communicator.hpp"
#include "granite/core/types.hpp"

#include <unordered_map>
#include <vector>

namespace granite::parallel {

/// Collective: the owning rank of each of `wanted` (ids; repeats allowed), where each rank owns
/// the ids of its `owned`. Three all-to-alls: the owners register with the directory rank of
/// each id, the ranks ask it, it answers. An id no rank owns is absent from the result. Work
/// and memory per rank are those of its own ids and requests.
std::unordered_map<BodyId, int> owners_of(const std::vector<BodyId>& wanted,
                                          const std::vector<BodyId>& owned,
                                          const comm::Communicator& comm);

}  // namespace granite::parallel
