#include "granite/parallel/decomposition.hpp"

#include "granite/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace granite::parallel {

double Box::distance(const Vec3& x) const {
  const Vec3 d = (min - x).cwiseMax(x - max).cwiseMax(Vec3::Zero());
  return d.norm();
}

namespace {

std::string metres(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g m", value);
  return text;
}

std::string counts(const Int3& d) {
  return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
         "]";
}

}  // namespace

std::string GhostWidth::describe() const {
  return metres(value()) + " (2 × largest radius " + metres(max_radius) + " + contact.threshold " +
         metres(threshold) + (skin > 0.0 ? " + contact.skin " + metres(skin) : std::string()) + ")";
}

std::string too_thin(const Vec3& extent, const Int3& dims, const std::array<bool, 3>& periodic,
                     const GhostWidth& ghost) {
  static const char* const kAxis[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    if (dims[a] == 1 && !periodic[a]) continue;  // no neighbour along a: nothing to hold
    const double width = extent[a] / dims[a];
    if (width < ghost.value())
      return std::string("the subdomains are ") + metres(width) + " wide along " + kAxis[a] +
             ", thinner than the ghost width " + ghost.describe() +
             " that contacts across subdomains need";
  }
  return "";
}

Int3 choose_dims(int ranks, const Vec3& extent, const Int3& requested, const GhostWidth& ghost,
                 const std::array<bool, 3>& periodic, const Vec3& load_given) {
  const Vec3 load = load_given == Vec3::Zero() ? extent : load_given;
  Int3 best{0, 0, 0}, best_thin{0, 0, 0};
  double best_surface = std::numeric_limits<double>::infinity();
  double best_thin_surface = best_surface;
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px || (requested[0] > 0 && px != requested[0])) continue;
    for (int py = 1; py <= ranks / px; ++py) {
      if ((ranks / px) % py || (requested[1] > 0 && py != requested[1])) continue;
      const int pz = ranks / px / py;
      if (requested[2] > 0 && pz != requested[2]) continue;
      // Total cut area of the load: (p_a − 1) planes across axis a, each of the other two
      // extents.
      const double surface = (px - 1) * load[1] * load[2] + (py - 1) * load[0] * load[2] +
                             (pz - 1) * load[0] * load[1];
      const bool holds = too_thin(extent, {px, py, pz}, periodic, ghost).empty();
      Int3& chosen = holds ? best : best_thin;
      double& chosen_surface = holds ? best_surface : best_thin_surface;
      if (chosen[0] == 0 || surface < chosen_surface * (1.0 - 1e-12)) {  // first wins ties
        chosen_surface = surface;
        chosen = {px, py, pz};
      }
    }
  }
  const bool fixed = requested[0] > 0 || requested[1] > 0 || requested[2] > 0;
  if (best[0] == 0 && best_thin[0] == 0)
    throw InputError("domain.decomposition " + counts(requested) + " cannot be used with " +
                     std::to_string(ranks) +
                     " ranks (the product of the counts must equal the rank count)");
  if (best[0] == 0) {
    // Refused rather than run with lost contacts: the ghosts come from nearest neighbours only.
    const std::string thin = too_thin(extent, best_thin, periodic, ghost);
    if (fixed)
      throw InputError("domain.decomposition " + counts(best_thin) + " on " +
                       std::to_string(ranks) + " ranks: " + thin +
                       "; choose fewer subdomains along that axis");
    throw InputError("no decomposition of the domain into " + std::to_string(ranks) +
                     " subdomains holds the ghost width; with the best, " + counts(best_thin) +
                     ", " + thin + "; run on fewer ranks");
  }
  return best;
}

namespace {
Cuts equal_cuts(const Box& domain, const Int3& dims) {
  Cuts cuts;
  std::size_t runs = 1;  // x: one run; y: one per x-slab; z: one per column
  for (int a = 0; a < 3; ++a) {
    const double cell = (domain.max[a] - domain.min[a]) / dims[a];
    for (std::size_t r = 0; r < runs; ++r) {
      for (int c = 0; c < dims[a]; ++c) cuts[a].push_back(domain.min[a] + c * cell);
      cuts[a].push_back(domain.max[a]);  // the last cell ends exactly at the face
    }
    runs *= std::size_t(dims[a]);
  }
  return cuts;
}
}  // namespace

Decomposition::Decomposition(const Box& domain, const Int3& dims,
                             const std::array<bool, 3>& periodic) :
    domain_(domain),
    dims_(dims), periodic_(periodic), cuts_(equal_cuts(domain, dims)) {}

void Decomposition::set_cuts(const Cuts& cuts) {
  std::size_t runs = 1;
  for (int a = 0; a < 3; ++a) {
    const std::vector<double>& c = cuts[a];
    const std::size_t n = std::size_t(dims_[a]) + 1;
    bool ok = c.size() == runs * n;
    for (std::size_t r = 0; ok && r < runs; ++r) {
      ok = c[r * n] == domain_.min[a] && c[r * n + n - 1] == domain_.max[a];
      for (std::size_t k = 1; ok && k < n; ++k) ok = c[r * n + k] > c[r * n + k - 1];
    }
    if (!ok)
      throw std::invalid_argument("decomposition cuts along axis " + std::to_string(a) +
                                  " are not " + std::to_string(runs) + " run(s) of " +
                                  std::to_string(n) + " increasing values spanning the domain");
    runs *= std::size_t(dims_[a]);
  }
  cuts_ = cuts;
}

bool Decomposition::uniform() const { return cuts_ == equal_cuts(domain_, dims_); }

const double* Decomposition::run(int axis, const Int3& c) const {
  const std::size_t n = std::size_t(dims_[axis]) + 1;
  const std::size_t index = axis == 0 ? 0
                            : axis == 1
                                ? std::size_t(c[0])
                                : std::size_t(c[0]) * std::size_t(dims_[1]) + std::size_t(c[1]);
  return cuts_[axis].data() + index * n;
}

double Decomposition::thinnest(int axis) const {
  const std::vector<double>& c = cuts_[axis];
  const std::size_t n = std::size_t(dims_[axis]) + 1;
  double thinnest = std::numeric_limits<double>::infinity();
  for (std::size_t k = 1; k < c.size(); ++k)
    if (k % n != 0) thinnest = std::min(thinnest, c[k] - c[k - 1]);
  return thinnest;
}

std::string Decomposition::too_thin(const GhostWidth& ghost) const {
  // The thinnest subdomain of each axis, as if every one were that thin.
  Vec3 extent;
  for (int a = 0; a < 3; ++a) extent[a] = thinnest(a) * dims_[a];
  return parallel::too_thin(extent, dims_, periodic_, ghost);
}

Int3 Decomposition::coords(int rank) const {
  return {rank % dims_[0], (rank / dims_[0]) % dims_[1], rank / (dims_[0] * dims_[1])};
}

int Decomposition::rank_of(const Int3& c) const {
  return c[0] + dims_[0] * (c[1] + dims_[1] * c[2]);
}

Box Decomposition::subdomain(int rank) const {
  const Int3 c = coords(rank);
  Box b;
  for (int a = 0; a < 3; ++a) {
    const double* cuts = run(a, c);
    b.min[a] = cuts[c[a]];
    b.max[a] = cuts[c[a] + 1];
  }
  return b;
}

namespace {

// Interval k of a run of cuts along an axis, grown by `margin`, unbounded beyond the domain's
// faces unless the axis is periodic.
std::pair<double, double> reach_interval(const double* cuts, int k, int count, bool periodic,
                                         double margin) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  return {k == 0 && !periodic ? -kInf : cuts[k] - margin,
          k == count - 1 && !periodic ? kInf : cuts[k + 1] + margin};
}

}  // namespace

Box Decomposition::reach(int rank, double margin) const {
  const Int3 c = coords(rank);
  Box b;
  for (int a = 0; a < 3; ++a)
    std::tie(b.min[a], b.max[a]) = reach_interval(run(a, c), c[a], dims_[a], periodic_[a], margin);
  return b;
}

// The nested cuts (Cuts): the x-slabs that reach the box, in each the y-slabs, in each column
// the z-boxes; the least rank among them.
int Decomposition::lowest_rank_reaching(const Box& box, double margin) const {
  int lowest = -1;
  Int3 c{0, 0, 0};
  const auto visit = [&](int a, auto&& next) -> void {
    for (c[a] = 0; c[a] < dims_[a]; ++c[a]) {
      const auto [lo, hi] = reach_interval(run(a, c), c[a], dims_[a], periodic_[a], margin);
      if (lo <= box.max[a] && box.min[a] <= hi) next();
    }
  };
  visit(0, [&] {
    visit(1, [&] {
      visit(2, [&] {
        const int r = rank_of(c);
        if (lowest < 0 || r < lowest) lowest = r;
      });
    });
  });
  return lowest;
}

Vec3 Decomposition::wrap(const Vec3& x) const {
  Vec3 y = x;
  for (int a = 0; a < 3; ++a) {
    if (!periodic_[a]) continue;
    const double length = domain_.max[a] - domain_.min[a];
    y[a] = domain_.min[a] + std::fmod(y[a] - domain_.min[a], length);
    if (y[a] < domain_.min[a]) y[a] += length;
    if (y[a] >= domain_.max[a]) y[a] = domain_.min[a];  // fmod round-off at the upper face
  }
  return y;
}

int Decomposition::owner_of(const Vec3& x) const {
  const Vec3 y = wrap(x);
  Int3 c{0, 0, 0};
  for (int a = 0; a < 3; ++a) {
    // The inner cuts of this slab or column; a point on one belongs to the upper subdomain,
    // one outside the domain to the nearest.
    const double* inner = run(a, c) + 1;
    c[a] = int(std::upper_bound(inner, inner + dims_[a] - 1, y[a]) - inner);
  }
  return rank_of(c);
}

std::vector<Neighbour> Decomposition::neighbours(int rank) const {
  // Every subdomain within a ghost width is closer than the thinnest subdomain (too_thin).
  double reach = std::numeric_limits<double>::infinity();
  for (int a = 0; a < 3; ++a)
    if (dims_[a] > 1 || periodic_[a]) reach = std::min(reach, thinnest(a));
  std::vector<Neighbour> result;
  if (reach == std::numeric_limits<double>::infinity()) return result;  // one subdomain, walls
  const Box own = subdomain(rank);
  const Vec3 length = domain_.max - domain_.min;
  // Periodic images first by shift, then by rank: a fixed order (Halo relies on it).
  for (int sz = -1; sz <= 1; ++sz)
    for (int sy = -1; sy <= 1; ++sy)
      for (int sx = -1; sx <= 1; ++sx) {
        const Int3 s{sx, sy, sz};
        bool valid = true;
        Vec3 shift = Vec3::Zero();  // added to a position sent to that image
        for (int a = 0; a < 3; ++a) {
          if (s[a] != 0 && !periodic_[a]) valid = false;
          shift[a] = -s[a] * length[a];
        }
        if (!valid) continue;
        for (int r = 0; r < size(); ++r) {
          if (r == rank && s == Int3{0, 0, 0}) continue;
          Box box = subdomain(r);  // in this rank's coordinates: moved by the image's offset
          box.min -= shift;
          box.max -= shift;
          const Vec3 gap = (box.min - own.max).cwiseMax(own.min - box.max).cwiseMax(Vec3::Zero());
          if (gap.norm() < reach) result.push_back({r, shift, box});
        }
      }
  return result;
}

std::vector<int> Decomposition::neighbour_ranks(int rank) const {
  std::vector<int> ranks;
  for (const Neighbour& n : neighbours(rank)) ranks.push_back(n.rank);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

}  // namespace granite::parallel
