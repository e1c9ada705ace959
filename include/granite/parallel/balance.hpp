#pragma once
// Load balance (domain.balance): the cuts of the decomposition moved so that every rank
// carries an equal share of the particles' weight (1 each, or their work: work_weights), as nested
// slabs (recursive bisection along fixed axes, "multi-jagged"): the x-cuts split the whole
// weight into px equal shares, the y-cuts of each x-slab split that slab's weight into py
// equal shares, the z-cuts of each column split its weight into pz. Any load is balanced up to
// the histogram's resolution and the minimum subdomain width, also one that is not a product
// of its marginals (a bed under an inlet's full-height stream). Deterministic: integer weights
// summed in integer histograms, so the same run on as many ranks gets the same cuts.
#include "granite/collision/contact.hpp"
#include "granite/comm/communicator.hpp"
#include "granite/parallel/decomposition.hpp"

#include <cstdint>
#include <vector>

namespace granite::parallel {

/// Bins of each slab's or column's weight histogram (its resolution: extent / kBalanceBins).
inline constexpr std::size_t kBalanceBins = 1024;

/// The dims + 1 cuts of one axis from [lo, hi] that split `histogram` (equal bins over [lo, hi],
/// weight per bin) into `parts` slabs of equal weight, interpolating linearly inside a bin,
/// then moved as little as needed for every slab to be at least `min_width` wide. If [lo, hi]
/// cannot hold `parts` slabs of that width, or the histogram is empty, the equal cuts.
std::vector<double> cuts_from_histogram(const std::vector<std::uint64_t>& histogram, double lo,
                                        double hi, int parts, double min_width);

/// Collective: balanced nested cuts (Decomposition's Cuts) for the points x[0, count) of every
/// rank with weights w (axes with one subdomain keep their two faces); one allreduce per cut
/// axis, of a histogram per slab or column. `min_width`: the thinnest admissible subdomain (the
/// ghost width).
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

/// The step's work in ns, as a fit of channel_small's relaxation time at 1 and 2 ranks to
/// the counts of contact visits and of closed contacts' updates (docs/load_balance.md): a
/// sweep's visit of a contact, the update of a closed one (λ ≠ 0) on top of its visit, and a
/// particle's work outside the relaxation (detection, setup, integration) per step.
inline constexpr std::uint64_t kVisitNs = 10, kClosedNs = 26, kParticleNs = 130;
static_assert(kVisitNs % 2 == 0 && kClosedNs % 2 == 0, "a pair's halves of a contact's work");

/// The load balance's particle weights (domain.balance dynamic): each of the first `owned`
/// particles weighs kParticleNs plus its share of the work of each of the step's contacts it
/// takes part in (`contacts` with their `impulses`, the contacts this rank relaxed in `sweeps`
/// sweeps): sweeps × (kVisitNs, + kClosedNs if the impulse is not zero), half of it for a
/// contact of two particles, all of it for a contact with a global body. Counts, not
/// timers: the same state gives the same weights, and a restart the same cuts.
std::vector<std::uint64_t> work_weights(const collision::ContactList& contacts,
                                        const std::vector<Vec3>& impulses, int sweeps,
                                        std::size_t owned);

/// max / mean of `loads` (1 for an even load; 1 when all are zero).
double max_over_mean(const std::vector<std::uint64_t>& loads);

}  // namespace granite::parallel
