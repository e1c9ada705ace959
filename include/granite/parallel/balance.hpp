#pragma once
// Load balance (domain.balance): the cuts of the rectilinear decomposition moved so that each
// slab along an axis carries an equal share of the particles' weight (1 + the particle's
// contacts). The planes still cross the whole domain, so the neighbour relations, halo and
// migration code of the equal grid serve unchanged (at most 26 neighbours); the price is that
// only the load's marginal along each axis is balanced (exact for a load that varies along one
// axis, like the channel's bed in z or its inlet half in x). Deterministic: integer weights
// summed in integer histograms, so the same run on as many ranks gets the same cuts.
#include "granite/collision/contact.hpp"
#include "granite/comm/communicator.hpp"
#include "granite/parallel/decomposition.hpp"

#include <cstdint>
#include <vector>

namespace granite::parallel {

/// Bins of the weight histogram along each axis (its resolution: extent / kBalanceBins).
inline constexpr std::size_t kBalanceBins = 4096;

/// The dims + 1 cuts of one axis from [lo, hi] that split `histogram` (equal bins over [lo, hi],
/// weight per bin) into `parts` slabs of equal weight, interpolating linearly inside a bin,
/// then moved as little as needed for every slab to be at least `min_width` wide. If [lo, hi]
/// cannot hold `parts` slabs of that width, or the histogram is empty, the equal cuts.
std::vector<double> cuts_from_histogram(const std::vector<std::uint64_t>& histogram, double lo,
                                        double hi, int parts, double min_width);

/// Collective: balanced cuts of `decomposition`'s axes for the points x[0, count) of every rank
/// with weights w (axes with one subdomain keep their two faces). `min_width`: the thinnest
/// admissible subdomain (the ghost width).
Cuts balanced_cuts(const Decomposition& decomposition, const std::vector<Vec3>& x,
                   const std::vector<std::uint64_t>& w, std::size_t count, double min_width,
                   const comm::Communicator& comm);

/// Collective: every rank's load (sum of weights of the points it would own) under
/// `decomposition`, indexed by rank, the same on every rank.
std::vector<std::uint64_t> loads_under(const Decomposition& decomposition,
                                       const std::vector<Vec3>& x,
                                       const std::vector<std::uint64_t>& w, std::size_t count,
                                       const comm::Communicator& comm);

/// Collective: every rank's own load (its `load`), indexed by rank.
std::vector<std::uint64_t> loads_by_rank(std::uint64_t load, const comm::Communicator& comm);

/// The load balance's particle weights: 1 + the contacts of `contacts` each of the first
/// `owned` particles takes part in (the step's contacts this rank relaxed).
std::vector<std::uint64_t> contact_weights(const collision::ContactList& contacts,
                                           std::size_t owned);

/// max / mean of `loads` (1 for an even load; 1 when all are zero).
double max_over_mean(const std::vector<std::uint64_t>& loads);

}  // namespace granite::parallel
