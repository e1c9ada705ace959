// Load balance: weighted cuts of the rectilinear decomposition (see
// include/granite/parallel/balance.hpp).
#include "granite/parallel/balance.hpp"

#include "granite/comm/collectives.hpp"

#include <algorithm>
#include <numeric>

namespace granite::parallel {

std::vector<double> cuts_from_histogram(const std::vector<std::uint64_t>& histogram, double lo,
                                        double hi, int parts, double min_width) {
  std::vector<double> equal(std::size_t(parts) + 1);
  for (int k = 0; k < parts; ++k) equal[std::size_t(k)] = lo + k * ((hi - lo) / parts);
  equal.back() = hi;
  // A hair wider than asked, so that the subdomain-width test never rounds the other way.
  const double width = min_width * (1.0 + 1e-9);
  const std::uint64_t total = std::accumulate(histogram.begin(), histogram.end(), std::uint64_t(0));
  if (parts == 1 || total == 0 || hi - lo < parts * width) return equal;

  const double bin = (hi - lo) / double(histogram.size());
  std::vector<double> cuts = equal;
  std::size_t b = 0;
  std::uint64_t below = 0;  // weight of bins [0, b)
  for (int k = 1; k < parts; ++k) {
    // The k-th quantile: the first bin where the running weight reaches k/parts of the total
    // (compared in integers: below + h ≥ k·total/parts ⇔ (below + h)·parts ≥ k·total).
    const long double target = (long double)(total)*k / parts;
    while (b + 1 < histogram.size() &&
           (below + histogram[b]) * std::uint64_t(parts) < std::uint64_t(k) * total) {
      below += histogram[b];
      ++b;
    }
    const long double inside =
        histogram[b] > 0 ? std::clamp((target - below) / histogram[b], 0.0L, 1.0L) : 0.0L;
    cuts[std::size_t(k)] = lo + (double(b) + double(inside)) * bin;
  }
  // Slabs at least `width` wide: push cuts up from below, then down from above (feasible since
  // hi − lo ≥ parts · width).
  for (int k = 1; k < parts; ++k)
    cuts[std::size_t(k)] = std::max(cuts[std::size_t(k)], cuts[std::size_t(k) - 1] + width);
  for (int k = parts - 1; k >= 1; --k)
    cuts[std::size_t(k)] = std::min(cuts[std::size_t(k)], cuts[std::size_t(k) + 1] - width);
  for (int k = 1; k <= parts; ++k)
    if (!(cuts[std::size_t(k)] - cuts[std::size_t(k) - 1] >= min_width)) return equal;
  return cuts;
}

Cuts balanced_cuts(const Decomposition& decomposition, const std::vector<Vec3>& x,
                   const std::vector<std::uint64_t>& w, std::size_t count, double min_width,
                   const comm::Communicator& comm) {
  const Box& domain = decomposition.domain();
  const Int3& dims = decomposition.dims();
  Cuts cuts = decomposition.cuts();
  // Axis by axis: x over everything, then y within each new x-slab, then z within each new
  // (x, y) column: per axis one allreduce of a histogram per slab or column.
  std::vector<std::size_t> group(count, 0);  // the point's slab (after x) or column (after y)
  std::size_t groups = 1;
  // Positions outside the domain (a body not yet migrated or wrapped) count where they wrap to.
  std::vector<Vec3> y(count);
  for (std::size_t i = 0; i < count; ++i) y[i] = decomposition.wrap(x[i]);
  for (int a = 0; a < 3; ++a) {
    const std::size_t n = std::size_t(dims[a]) + 1;
    if (dims[a] > 1) {
      const double lo = domain.min[a], extent = domain.max[a] - domain.min[a];
      std::vector<std::uint64_t> histograms(groups * kBalanceBins, 0);
      for (std::size_t i = 0; i < count; ++i) {
        // Beyond a non-periodic face: the end bins.
        const double u = (y[i][a] - lo) / extent * double(kBalanceBins);
        const auto bin = std::size_t(std::clamp(u, 0.0, double(kBalanceBins - 1)));
        histograms[group[i] * kBalanceBins + bin] += w[i];
      }
      comm::sum_in_place(histograms, comm);
      for (std::size_t g = 0; g < groups; ++g) {
        const std::vector<std::uint64_t> histogram(
            histograms.begin() + std::ptrdiff_t(g * kBalanceBins),
            histograms.begin() + std::ptrdiff_t((g + 1) * kBalanceBins));
        const std::vector<double> run =
            cuts_from_histogram(histogram, domain.min[a], domain.max[a], dims[a], min_width);
        std::copy(run.begin(), run.end(), cuts[a].begin() + std::ptrdiff_t(g * n));
      }
    }
    // Each point's slab along a under the new cuts refines its group.
    for (std::size_t i = 0; i < count; ++i) {
      const double* inner = cuts[a].data() + group[i] * n + 1;
      group[i] = group[i] * std::size_t(dims[a]) +
                 std::size_t(std::upper_bound(inner, inner + dims[a] - 1, y[i][a]) - inner);
    }
    groups *= std::size_t(dims[a]);
  }
  return cuts;
}

std::vector<std::uint64_t> loads_under(const Decomposition& decomposition,
                                       const std::vector<Vec3>& x,
                                       const std::vector<std::uint64_t>& w, std::size_t count,
                                       const comm::Communicator& comm) {
  std::vector<std::uint64_t> loads(std::size_t(decomposition.size()), 0);
  for (std::size_t i = 0; i < count; ++i) loads[std::size_t(decomposition.owner_of(x[i]))] += w[i];
  comm::sum_in_place(loads, comm);
  return loads;
}

std::vector<std::uint64_t> loads_by_rank(std::uint64_t load, const comm::Communicator& comm) {
  std::vector<std::uint64_t> loads(std::size_t(comm.size()), 0);
  loads[std::size_t(comm.rank())] = load;
  comm::sum_in_place(loads, comm);
  return loads;
}

std::vector<std::uint64_t> work_weights(const collision::ContactList& contacts,
                                        const std::vector<Vec3>& impulses, int sweeps,
                                        std::size_t owned) {
  std::vector<std::uint64_t> w(owned, kParticleNs);
  const std::uint64_t n = std::uint64_t(std::max(sweeps, 0));
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const std::uint64_t work = n * (kVisitNs + (impulses[j].isZero(0.0) ? 0 : kClosedNs));
    const std::uint32_t a = contacts.body1[j], b = contacts.body2[j];
    const bool two_particles = a < contacts.num_particles && b < contacts.num_particles;
    const std::uint64_t share = two_particles ? work / 2 : work;  // work is even
    if (a < owned) w[a] += share;
    if (b < owned) w[b] += share;
  }
  return w;
}

double max_over_mean(const std::vector<std::uint64_t>& loads) {
  const std::uint64_t total = std::accumulate(loads.begin(), loads.end(), std::uint64_t(0));
  if (total == 0 || loads.empty()) return 1.0;
  const std::uint64_t largest = *std::max_element(loads.begin(), loads.end());
  return double(largest) * double(loads.size()) / double(total);
}

}  // namespace granite::parallel
