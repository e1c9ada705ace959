#include "granite/collision/pair_clearance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace granite::collision {

namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
// The lower bounds the narrow phase certifies carry rounding of a few ε of the coordinates,
// and GJK's distance is |v| to a relative 1e-12: a pair is kept only this far beyond the
// threshold, relative to the bodies' sizes (2e-12 m for millimetre grains, far below any step's
// motion) and to their coordinates.
constexpr double kRelativeSlack = 1e-9;
constexpr double kCoordinateSlack = 64.0 * kEpsilon;

// Whether the particles are those of the last call, at the same indices.
bool same_particles(const body::Particles& particles, const std::vector<BodyId>& ids) {
  if (particles.size() != ids.size()) return false;
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (particles.id[i] != ids[i]) return false;
  return true;
}

}  // namespace

void PairClearance::follow_particles(const body::Particles& particles) {
  const std::size_t n = particles.size();
  std::vector<std::pair<BodyId, std::int64_t>> old(id_.size());
  for (std::size_t k = 0; k < id_.size(); ++k) old[k] = {id_[k], std::int64_t(k)};
  std::sort(old.begin(), old.end());
  from_.assign(n, -1);
  std::vector<double> travel(n, 0.0);
  std::vector<Vec3> position(particles.position.begin(),
                             particles.position.begin() + std::ptrdiff_t(n));
  std::vector<Quat> orientation(particles.orientation.begin(),
                                particles.orientation.begin() + std::ptrdiff_t(n));
  for (std::size_t i = 0; i < n; ++i) {
    const auto at = std::lower_bound(old.begin(), old.end(),
                                     std::pair<BodyId, std::int64_t>{particles.id[i], -1});
    if (at == old.end() || at->first != particles.id[i]) continue;
    if (std::next(at) != old.end() && std::next(at)->first == at->first) continue;  // twice
    const std::size_t k = std::size_t(at->second);
    from_[i] = at->second;
    travel[i] = travel_[k];
    position[i] = position_[k];
    orientation[i] = orientation_[k];
  }
  // An id twice among the new particles: neither follows.
  std::vector<std::pair<BodyId, std::size_t>> now(n);
  for (std::size_t i = 0; i < n; ++i) now[i] = {particles.id[i], i};
  std::sort(now.begin(), now.end());
  for (std::size_t k = 1; k < n; ++k)
    if (now[k].first == now[k - 1].first) {
      from_[now[k].second] = from_[now[k - 1].second] = -1;
      travel[now[k].second] = travel[now[k - 1].second] = 0.0;
    }
  travel_ = std::move(travel);
  position_ = std::move(position);
  orientation_ = std::move(orientation);
  id_.assign(particles.id.begin(), particles.id.begin() + std::ptrdiff_t(n));
}

void PairClearance::follow_pairs(const Pairs& pairs) {
  // The old pairs by their first particle (they are sorted): row[a] .. row[a + 1].
  std::size_t old_n = 0;
  for (const auto& [a, b] : pairs_) old_n = std::max<std::size_t>(old_n, b + 1);
  std::vector<std::size_t> row(old_n + 1, 0);
  for (const auto& p : pairs_) ++row[p.first + 1];
  for (std::size_t a = 0; a < old_n; ++a) row[a + 1] += row[a];
  std::vector<double> limit(pairs.size(), -1.0);
  for (std::size_t c = 0; c < pairs.size(); ++c) {
    const std::int64_t fi = from_[pairs[c].first], fj = from_[pairs[c].second];
    if (fi < 0 || fj < 0) continue;
    const std::uint32_t a = std::uint32_t(std::min(fi, fj)), b = std::uint32_t(std::max(fi, fj));
    if (a >= old_n) continue;
    const auto begin = pairs_.begin() + std::ptrdiff_t(row[a]);
    const auto end = pairs_.begin() + std::ptrdiff_t(row[a + 1]);
    const auto at = std::lower_bound(begin, end, std::pair<std::uint32_t, std::uint32_t>{a, b});
    if (at != end && at->second == b) limit[c] = limit_[std::size_t(at - pairs_.begin())];
  }
  limit_ = std::move(limit);
  pairs_ = pairs;
}

void PairClearance::advance(const body::Particles& particles, std::uint64_t generation,
                            const Pairs& pairs) {
  const std::size_t n = particles.size();
  const bool same = same_particles(particles, id_);
  if (!same) follow_particles(particles);
  if (!same || generation != generation_ || limit_.size() != pairs.size()) {
    if (same) {  // the same particles at the same indices: a new list of them
      from_.resize(n);
      for (std::size_t i = 0; i < n; ++i) from_[i] = std::int64_t(i);
    }
    follow_pairs(pairs);
    generation_ = generation;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3& x = particles.position[i];
    const Quat& q = particles.orientation[i];
    // |x' − x| + 2|vec(q' q̄)| r, and the rounding of both (a few ε of the coordinates).
    const double turn = (q * orientation_[i].conjugate()).vec().norm();
    const double r = particles.radius[i];
    travel_[i] += (x - position_[i]).norm() + 2.0 * turn * r +
                  4.0 * kEpsilon * (x.cwiseAbs().sum() + 2.0 * r);
    position_[i] = x;
    orientation_[i] = q;
  }
}

void PairClearance::record(std::size_t c, std::uint32_t i, std::uint32_t j, double distance,
                           double threshold, const body::Particles& particles) {
  const double slack = kRelativeSlack * (particles.radius[i] + particles.radius[j]) +
                       kCoordinateSlack * (particles.position[i].cwiseAbs().sum() +
                                           particles.position[j].cwiseAbs().sum());
  const double margin = distance - threshold - slack;  // NaN compares false: nothing known
  limit_[c] = margin > 0.0 ? margin + travel_[i] + travel_[j] : -1.0;
}

}  // namespace granite::collision
