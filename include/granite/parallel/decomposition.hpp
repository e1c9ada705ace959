#pragma once
// Domain decomposition: the domain box is cut into px × py × pz subdomains, one per rank,
// optionally periodic per axis. Equally spaced cuts, or cuts moved by the load balance
// (parallel/balance.hpp) as nested slabs: px slabs along x; each x-slab cut into py slabs
// along y by its own cuts; each (x, y) column into pz boxes along z by its own cuts. With
// moved cuts a subdomain can have more neighbours than the 26 of the equal grid; neighbours()
// finds them by distance. Pure geometry and rank arithmetic (no MPI calls), so every rank
// computes the same answers.
#include "granite/core/types.hpp"

#include <array>
#include <string>
#include <vector>

namespace granite::parallel {

using Int3 = std::array<int, 3>;

struct Box {
  Vec3 min, max;
  /// Euclidean distance from x to the box (0 inside).
  double distance(const Vec3& x) const;
};

/// The width of the ghost layer a decomposition must hold: a contact reaches from a centre to
/// 2 · largest radius + contact threshold. The ghosts come from the nearest neighbours only,
/// so every subdomain must be at least this wide along each axis that has neighbours (more
/// than one subdomain, or periodic); otherwise contacts across a subdomain are lost.
struct GhostWidth {
  double max_radius = 0.0;  // m
  double threshold = 0.0;   // m, contact.threshold
  double skin = 0.0;        // m, contact.skin
  double value() const { return 2.0 * max_radius + threshold + skin; }
  /// "0.0111 m (2 × largest radius 0.0055 m + contact.threshold 0.0001 m)" (and
  /// " + contact.skin 0.0002 m" with a skin).
  std::string describe() const;
};

/// "" if `dims` subdomains of `extent` hold `ghost`; otherwise what is too thin, e.g.
/// "the subdomains are 0.01 m wide along x, thinner than the ghost width 0.0111 m (...)".
std::string too_thin(const Vec3& extent, const Int3& dims, const std::array<bool, 3>& periodic,
                     const GhostWidth& ghost);

/// Subdomain counts per axis for `ranks` processes minimising the total cut area of the
/// load's extent `load` (zero: `extent`; scenario/settled_bed.hpp), among those whose
/// subdomains of `extent` hold `ghost` (see too_thin). Axes with requested[a] > 0 are fixed
/// to that count. Throws InputError if the fixed counts cannot give `ranks`, or if no
/// admissible count holds the ghost width (one line naming the axis, the subdomain width and
/// the ghost width needed).
Int3 choose_dims(int ranks, const Vec3& extent, const Int3& requested = {0, 0, 0},
                 const GhostWidth& ghost = {}, const std::array<bool, 3>& periodic = {},
                 const Vec3& load = Vec3::Zero());

/// A neighbour subdomain as seen from this rank: its rank and the shift to add to a position
/// sent there (non-zero only across a periodic boundary).
struct Neighbour {
  int rank;
  Vec3 shift;
  Box box;  // the neighbour's subdomain in this rank's coordinates (after the shift)
};

/// The cut positions, nested: cuts[0] the px + 1 x-cuts; cuts[1] for each x-slab i its py + 1
/// y-cuts at [i (py + 1), (i + 1)(py + 1)); cuts[2] for each column (i, j) its pz + 1 z-cuts at
/// [(i py + j)(pz + 1), ...). Each run increases from the domain's lower to its upper face;
/// subdomain (i, j, k) spans [x_i, x_i+1) × [y_ij, y_ij+1) × [z_ijk, z_ijk+1).
using Cuts = std::array<std::vector<double>, 3>;

class Decomposition {
public:
  /// Equally spaced cuts.
  Decomposition(const Box& domain, const Int3& dims, const std::array<bool, 3>& periodic);

  int size() const { return dims_[0] * dims_[1] * dims_[2]; }
  const Int3& dims() const { return dims_; }
  const Box& domain() const { return domain_; }
  bool periodic(int axis) const { return periodic_[axis]; }

  const Cuts& cuts() const { return cuts_; }
  /// Moves the cuts (the same on every rank). Throws std::invalid_argument unless every run of
  /// `cuts` (see Cuts) has dims + 1 strictly increasing values from the domain's lower to its
  /// upper face.
  void set_cuts(const Cuts& cuts);
  /// Whether the cuts are the equally spaced ones of the constructor.
  bool uniform() const;

  Int3 coords(int rank) const;
  int rank_of(const Int3& coords) const;
  Box subdomain(int rank) const;

  /// The region of `rank` that a query of its particles (owned or ghost) can reach: its
  /// subdomain grown by `margin`, unbounded beyond the domain's faces on non-periodic axes
  /// (points there belong to the nearest subdomain: owner_of).
  Box reach(int rank, double margin) const;
  /// The lowest rank whose reach(rank, margin) intersects `box` (closed boxes); −1 if none.
  int lowest_rank_reaching(const Box& box, double margin) const;

  /// "" if every subdomain holds `ghost` (see parallel::too_thin; with moved cuts the
  /// thinnest subdomain along each axis counts), otherwise what is too thin.
  std::string too_thin(const GhostWidth& ghost) const;

  /// Maps x into the domain across periodic axes (unchanged on other axes).
  Vec3 wrap(const Vec3& x) const;
  /// The rank whose subdomain contains x (after wrapping). A point outside the domain on a
  /// non-periodic axis belongs to the nearest subdomain (bodies there stay simulated until the
  /// scenario's outflow deletes them). Inner faces belong to the upper subdomain.
  int owner_of(const Vec3& x) const;

  /// The neighbours of `rank`: every other subdomain (or periodic image, with its shift) closer
  /// to this one than the thinnest subdomain along the axes that have neighbours, which holds
  /// every subdomain within a ghost width (too_thin). With equal cuts, the up to 26 adjacent
  /// ones (fewer at non-periodic walls). With few subdomains on a periodic axis the same rank
  /// (even `rank` itself) can appear with different shifts.
  std::vector<Neighbour> neighbours(int rank) const;
  /// The ranks of neighbours(rank), each once, sorted (the peers of comm::PeerExchange).
  std::vector<int> neighbour_ranks(int rank) const;

private:
  // The run of cuts[axis] that cuts the subdomains at grid coordinates c along `axis`.
  const double* run(int axis, const Int3& c) const;
  // The thinnest subdomain along `axis` (m).
  double thinnest(int axis) const;

  Box domain_;
  Int3 dims_;
  std::array<bool, 3> periodic_;
  Cuts cuts_;
};

}  // namespace granite::parallel
