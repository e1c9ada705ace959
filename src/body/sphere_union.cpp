// Mass properties of a union of spheres: exact sums when no parts overlap; otherwise the
// chords along x integrated exactly and (y, z) by Gauss–Legendre panels, refined by doubling.
#include "granite/body/sphere_union.hpp"

#include "granite/core/error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

namespace granite::body {

namespace {

constexpr int kFirstRule = 8;            // Gauss points per panel of the first level
constexpr int kLastRule = 256;           // the finest level tried
constexpr double kSurfaceMargin = 1e-9;  // relative: a point this close to a surface is on it

// The shortest text that reads back as the same double (1e-06, not 0.000001).
std::string format(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

void check_input(const std::vector<SpherePart>& parts, double tolerance) {
  if (parts.empty()) throw InputError("clump: no parts (a clump needs at least one sphere)");
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string part = "clump part " + std::to_string(i) + ": ";
    const double r = parts[i].radius;
    const Vec3& c = parts[i].position;
    if (!(r > 0.0)) throw InputError(part + "radius must be > 0 m, got " + format(r));
    if (!std::isfinite(r)) throw InputError(part + "radius must be finite, got " + format(r));
    if (!c.allFinite())
      throw InputError(part + "centre must be finite, got (" + format(c.x()) + ", " +
                       format(c.y()) + ", " + format(c.z()) + ")");
  }
  if (!(tolerance > 0.0))
    throw InputError("clump mass properties: tolerance must be > 0, got " + format(tolerance));
}

double sphere_volume(double r) { return 4.0 / 3.0 * std::numbers::pi * r * r * r; }

// Parts overlap when |c_i − c_j| < r_i + r_j (touching spheres share no volume).
bool any_overlap(const std::vector<SpherePart>& parts) {
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (std::size_t j = i + 1; j < parts.size(); ++j)
      if ((parts[i].position - parts[j].position).norm() < parts[i].radius + parts[j].radius)
        return true;
  return false;
}

// c = Σ V_i c_i / Σ V_i, summed relative to the first centre (no cancellation far from 0).
Vec3 volume_weighted_centre(const std::vector<SpherePart>& parts) {
  const Vec3 origin = parts[0].position;
  double volume = 0.0;
  Vec3 moment = Vec3::Zero();
  for (const auto& p : parts) {
    const double v = sphere_volume(p.radius);
    volume += v;
    moment += v * (p.position - origin);
  }
  return origin + moment / volume;
}

// ½ (A + Aᵀ): exactly symmetric (v d dᵀ is (v d_i) d_j, not bitwise (v d_j) d_i).
Mat3 symmetric(const Mat3& a) { return 0.5 * (a + a.transpose()); }

// Disjoint parts: V = Σ V_i, c = Σ V_i c_i / V and, with d_i = c_i − c,
// I = Σ [2/5 V_i r_i² E + V_i (|d_i|² E − d_i d_iᵀ)] (parallel-axis theorem).
MassProperties disjoint_union(const std::vector<SpherePart>& parts) {
  MassProperties m;
  m.centroid = volume_weighted_centre(parts);
  for (const auto& p : parts) {
    const double v = sphere_volume(p.radius);
    const Vec3 d = p.position - m.centroid;
    m.volume += v;
    m.inertia += (0.4 * v * p.radius * p.radius + v * d.squaredNorm()) * Mat3::Identity() -
                 v * d * d.transpose();
  }
  m.inertia = symmetric(m.inertia);
  return m;
}

// --- the chords along x ---------------------------------------------------------------------

struct Interval {
  double lo, hi;
};

// L_k = ∫ xᵏ dx, k = 0, 1, 2, along one line through the union.
struct LineMoments {
  double l0 = 0.0, l1 = 0.0, l2 = 0.0;

  // Over [a, b]: b − a, (b² − a²)/2 = (b − a)(a + b)/2, (b³ − a³)/3 = (b − a)(a² + ab + b²)/3.
  void add(double a, double b) {
    const double w = b - a;
    l0 += w;
    l1 += 0.5 * w * (a + b);
    l2 += w * (a * a + a * b + b * b) / 3.0;
  }
};

// The chords (count > 0) sorted by their start and merged into disjoint intervals.
LineMoments union_moments(Interval* chords, std::size_t count) {
  for (std::size_t i = 1; i < count; ++i)  // insertion sort: a handful of chords
    for (std::size_t k = i; k > 0 && chords[k].lo < chords[k - 1].lo; --k)
      std::swap(chords[k], chords[k - 1]);
  LineMoments m;
  Interval run = chords[0];
  for (std::size_t i = 1; i < count; ++i) {
    if (chords[i].lo <= run.hi) {
      run.hi = std::max(run.hi, chords[i].hi);
    } else {
      m.add(run.lo, run.hi);
      run = chords[i];
    }
  }
  m.add(run.lo, run.hi);
  return m;
}

// --- Gauss–Legendre panels ------------------------------------------------------------------

// The q-point Gauss–Legendre rule on [−1, 1]: nodes t_k, weights W_k (Newton's method on P_q
// from the usual first guesses), and the same rule after the substitution t = sin(π τ/2):
// σ_k = sin(π t_k/2), ω_k = π/2 cos(π t_k/2) W_k.
struct GaussRule {
  std::vector<double> t, w, sigma, omega;

  explicit GaussRule(int q) : t(q), w(q), sigma(q), omega(q) {
    for (int k = 0; k < q; ++k) {
      double x = std::cos(std::numbers::pi * (k + 0.75) / (q + 0.5));
      double derivative = 1.0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        // (j + 1) P_{j+1} = (2j + 1) x P_j − j P_{j−1}; P_q' = q (x P_q − P_{q−1}) / (x² − 1).
        double previous = 1.0, p = x;
        for (int j = 1; j < q; ++j) {
          const double next = ((2 * j + 1) * x * p - j * previous) / (j + 1);
          previous = p;
          p = next;
        }
        derivative = q * (x * p - previous) / (x * x - 1.0);
        const double step = p / derivative;
        x -= step;
        if (std::abs(step) <= 1e-16) break;
      }
      t[k] = x;
      w[k] = 2.0 / ((1.0 - x * x) * derivative * derivative);
      const double angle = 0.5 * std::numbers::pi * x;
      sigma[k] = std::sin(angle);
      omega[k] = 0.5 * std::numbers::pi * std::cos(angle) * w[k];
    }
  }
};

struct Node {
  double at, weight;
};

// Where the integrand of a 1D integral changes form: the panels' ends (sorted, distinct) and
// the branch points of its √ terms, those that continue to the right of a `start` (a chord
// end at the start of its disk) and to the left of an `end`.
struct Breaks {
  std::vector<double> at, starts, ends;

  void clear() {
    at.clear();
    starts.clear();
    ends.clear();
  }
  void sort() {
    for (auto* v : {&at, &starts, &ends}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
  }
};

// The rule on a panel [a, b] ⊆ [lo, hi] after s = m + h sin θ (m = (lo + hi)/2,
// h = (hi − lo)/2): ∫_a^b f ds = ∫ f(m + h sin θ) h cos θ dθ over θ from asin((a − m)/h)
// to asin((b − m)/h). With [lo, hi] = [a, b] (θ over ±π/2) a √ or ^(3/2) at an end becomes
// smooth in θ, so the rule converges faster than any power of q.
void add_panel(double a, double b, double lo, double hi, const GaussRule& rule,
               std::vector<Node>& out) {
  const double m = 0.5 * (lo + hi), h = 0.5 * (hi - lo);
  const std::size_t q = rule.t.size();
  if (lo == a && hi == b) {
    for (std::size_t k = 0; k < q; ++k) out.push_back({m + h * rule.sigma[k], h * rule.omega[k]});
    return;
  }
  const double ta = std::asin(std::clamp((a - m) / h, -1.0, 1.0));
  const double tb = std::asin(std::clamp((b - m) / h, -1.0, 1.0));
  const double c = 0.5 * (tb + ta), half = 0.5 * (tb - ta);
  for (std::size_t k = 0; k < q; ++k) {
    const double theta = c + half * rule.t[k];
    out.push_back({m + h * std::sin(theta), half * rule.w[k] * h * std::cos(theta)});
  }
}

// The rule on every panel [a, b], mapped from [lo, hi]: lo the last start <= a if at most a
// panel width before it, else a; hi likewise the first end >= b. A panel that begins at a
// branch point is mapped from it; one that begins at a kink (a crossing, where a chord end
// became the union's) is mapped from the branch point of that end's √ just before it, which a
// map of the panel alone would see just outside (slow convergence).
void panel_nodes(const Breaks& breaks, const GaussRule& rule, std::vector<Node>& out) {
  out.clear();
  const auto& s = breaks.starts;
  const auto& e = breaks.ends;
  for (std::size_t i = 0; i + 1 < breaks.at.size(); ++i) {
    const double a = breaks.at[i], b = breaks.at[i + 1], width = b - a;
    double lo = a, hi = b;
    const auto start = std::upper_bound(s.begin(), s.end(), a);  // first start > a
    if (start != s.begin() && a - *(start - 1) <= width) lo = *(start - 1);
    const auto end = std::lower_bound(e.begin(), e.end(), b);  // first end >= b
    if (end != e.end() && *end - b <= width) hi = *end;
    add_panel(a, b, lo, hi, rule, out);
  }
}

// --- where the union changes form -----------------------------------------------------------

// Whether p lies inside a part, not on its surface: only exposed points change the union's
// form (counting a buried one costs a panel, missing an exposed one accuracy).
bool buried(const Vec3& p, const std::vector<SpherePart>& parts) {
  for (const auto& s : parts) {
    const double r = s.radius * (1.0 - kSurfaceMargin);
    if ((p - s.position).squaredNorm() < r * r) return true;
  }
  return false;
}

void add_if_exposed(const Vec3& p, const std::vector<SpherePart>& parts, Breaks& z) {
  if (!buried(p, parts)) z.at.push_back(p.z());
}

// The points where the surfaces of a, b and c meet (trilateration): in the frame e_x ∥ b − a,
// e_y ⊥ e_x in the plane of the centres, e_z = e_x × e_y, with d = |b − a|, (i, j) the
// coordinates of c − a: x = (r_a² − r_b² + d²)/(2d), y = (r_a² − r_c² + i² + j²)/(2j) − i x/j,
// z = ±√(r_a² − x² − y²).
void triple_points(const SpherePart& a, const SpherePart& b, const SpherePart& c,
                   const std::vector<SpherePart>& parts, Breaks& z) {
  const Vec3 ab = b.position - a.position, ac = c.position - a.position;
  const double d = ab.norm();
  const Vec3 ex = ab / d;
  const double i = ex.dot(ac);
  const Vec3 in_plane = ac - i * ex;
  const double j = in_plane.norm();
  if (!(j > kSurfaceMargin * ac.norm())) return;  // collinear centres: no isolated points
  const Vec3 ey = in_plane / j, ez = ex.cross(ey);
  const double ra2 = a.radius * a.radius;
  const double x = (ra2 - b.radius * b.radius + d * d) / (2.0 * d);
  const double y = (ra2 - c.radius * c.radius + i * i + j * j) / (2.0 * j) - i * x / j;
  const double h2 = ra2 - x * x - y * y;
  if (!(h2 > 0.0)) return;
  const Vec3 foot = a.position + x * ex + y * ey;
  for (double side : {-1.0, 1.0}) add_if_exposed(foot + side * std::sqrt(h2) * ez, parts, z);
}

// The circle where a and b meet: centre a + t u (u = (b − a)/d), radius ρ = √(r_a² − t²),
// t = (d² + r_a² − r_b²)/(2d). Its z extremes, centre ± ρ e with e the unit vector of its
// plane closest to z (e ∥ e_z − u_z u), are where two slices start to overlap: a lens of area
// ∝ Δz^(3/2) (a branch point, exposed or not). A horizontal circle (u = ±e_z) is met all at
// once: its z counts whether or not a part covers it.
void circle_extremes(const SpherePart& a, const SpherePart& b, const std::vector<SpherePart>& parts,
                     Breaks& z) {
  const Vec3 ab = b.position - a.position;
  const double d = ab.norm();
  const Vec3 u = ab / d;
  const double t = (d * d + a.radius * a.radius - b.radius * b.radius) / (2.0 * d);
  const double rho = std::sqrt(std::max(0.0, a.radius * a.radius - t * t));
  const Vec3 centre = a.position + t * u;
  const Vec3 e = Vec3::UnitZ() - u.z() * u;
  if (!(e.norm() > kSurfaceMargin)) {
    for (auto* v : {&z.at, &z.starts, &z.ends}) v->push_back(centre.z());
    return;
  }
  const Vec3 low = centre - rho * e.normalized(), high = centre + rho * e.normalized();
  z.starts.push_back(low.z());
  z.ends.push_back(high.z());
  add_if_exposed(low, parts, z);
  add_if_exposed(high, parts, z);
}

// Parts whose surfaces cross (|r_a − r_b| < d < r_a + r_b).
bool surfaces_cross(const SpherePart& a, const SpherePart& b) {
  const double d = (b.position - a.position).norm();
  return d > std::abs(a.radius - b.radius) && d < a.radius + b.radius;
}

// The z between which the slices' moments are smooth: the z range, exposed poles c_z ± r (a
// disk appears), extremes of the circles where two surfaces meet (two disks start to
// overlap) and points where three meet (three circles through one point). Branch points: every
// pole and circle extreme, the lower ones as starts, the upper ones as ends.
Breaks z_breaks(const std::vector<SpherePart>& parts) {
  Breaks z;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& p : parts) {
    lo = std::min(lo, p.position.z() - p.radius);
    hi = std::max(hi, p.position.z() + p.radius);
    z.starts.push_back(p.position.z() - p.radius);
    z.ends.push_back(p.position.z() + p.radius);
    for (double side : {-1.0, 1.0})
      add_if_exposed(p.position + side * p.radius * Vec3::UnitZ(), parts, z);
  }
  z.at.push_back(lo);
  z.at.push_back(hi);
  const std::size_t n = parts.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (!surfaces_cross(parts[i], parts[j])) continue;
      circle_extremes(parts[i], parts[j], parts, z);
      for (std::size_t k = j + 1; k < n; ++k)
        if (surfaces_cross(parts[i], parts[k]) && surfaces_cross(parts[j], parts[k]))
          triple_points(parts[i], parts[j], parts[k], parts, z);
    }
  z.sort();
  return z;
}

// A part's slice by a plane z = const: the disk of centre (x, y) and radius ρ, ρ² = r² − Δz².
struct Disk {
  double x, y, rho2;
};

bool inside_other_disk(double x, double y, const std::vector<Disk>& disks) {
  for (const Disk& k : disks) {
    const double r2 = k.rho2 * (1.0 - kSurfaceMargin) * (1.0 - kSurfaceMargin);
    if ((x - k.x) * (x - k.x) + (y - k.y) * (y - k.y) < r2) return true;
  }
  return false;
}

// The y between which a slice's line moments are smooth: the disks' exposed ends y ± ρ (a
// chord appears; branch points of x ± √(ρ² − (y − y_c)²) whether exposed or not) and the
// exposed points where two circles cross (two chord ends pass): with d the distance of the
// centres, the crossings lie a = (d² + ρ_i² − ρ_j²)/(2d) along the line of centres and
// ±√(ρ_i² − a²) across it.
void y_breaks(const std::vector<Disk>& disks, Breaks& y) {
  y.clear();
  auto add = [&](double px, double py) {
    if (!inside_other_disk(px, py, disks)) y.at.push_back(py);
  };
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Disk& c : disks) {
    const double rho = std::sqrt(c.rho2);
    lo = std::min(lo, c.y - rho);
    hi = std::max(hi, c.y + rho);
    y.starts.push_back(c.y - rho);
    y.ends.push_back(c.y + rho);
    add(c.x, c.y - rho);
    add(c.x, c.y + rho);
  }
  y.at.push_back(lo);
  y.at.push_back(hi);
  for (std::size_t i = 0; i < disks.size(); ++i)
    for (std::size_t j = i + 1; j < disks.size(); ++j) {
      const Disk &p = disks[i], &q = disks[j];
      const double dx = q.x - p.x, dy = q.y - p.y, d = std::hypot(dx, dy);
      const double rp = std::sqrt(p.rho2), rq = std::sqrt(q.rho2);
      if (!(d > std::abs(rp - rq) && d < rp + rq)) continue;
      const double a = (d * d + p.rho2 - q.rho2) / (2.0 * d);
      const double h = std::sqrt(std::max(0.0, p.rho2 - a * a));
      const double mx = p.x + a * dx / d, my = p.y + a * dy / d;
      add(mx - h * dy / d, my + h * dx / d);
      add(mx + h * dy / d, my - h * dx / d);
    }
  y.sort();
}

// --- the integrals --------------------------------------------------------------------------

// ∫ 1, r, r rᵀ dV about the reference point, and how many terms the longest sum had.
struct Moments {
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  std::size_t terms = 0;
};

// Weighted sums over one slice's lines of L0, L1, L2, y L0, y L1, y² L0 (summed per slice,
// then over the slices: two short sums instead of one long one).
struct SliceSums {
  double l0 = 0.0, l1 = 0.0, l2 = 0.0, y0 = 0.0, y1 = 0.0, yy0 = 0.0;
  std::size_t lines = 0;
};

// Adds w_z × the slice sums at z: V += L0, S₁ += (L1, y L0, z L0),
// S₂ += (L2, y² L0, z² L0; xy: y L1, xz: z L1, yz: z y L0).
void add_slice(Moments& m, const Node& row, const SliceSums& s) {
  const double w = row.weight, z = row.at, zw = z * w;
  m.volume += w * s.l0;
  m.first += Vec3(w * s.l1, w * s.y0, zw * s.l0);
  Mat3 second;
  second << w * s.l2, w * s.y1, zw * s.l1,  //
      w * s.y1, w * s.yy0, zw * s.y0,       //
      zw * s.l1, zw * s.y0, zw * z * s.l0;
  m.second += second;
  m.terms = std::max(m.terms, s.lines);
}

class UnionIntegral {
public:
  // The parts relative to the reference point.
  explicit UnionIntegral(std::vector<SpherePart> parts) :
      parts_(std::move(parts)), z_breaks_(z_breaks(parts_)) {}

  // ∫ f dV = ∫∫ (∫ f dx) dy dz with the q-point panel rule in z and in y.
  Moments integrate(int q) {
    const GaussRule rule(q);
    std::vector<Node> rows;
    panel_nodes(z_breaks_, rule, rows);
    Moments m;
    for (const Node& row : rows) add_slice(m, row, slice(row.at, rule));
    m.terms = std::max(m.terms, rows.size());
    return m;
  }

private:
  // The line (y, z) meets disk i, if h² = ρ_i² − (y − y_i)² > 0, in [x_i − h, x_i + h].
  SliceSums slice(double z, const GaussRule& rule) {
    disks_.clear();
    for (const auto& p : parts_) {
      const double dz = z - p.position.z();
      const double rho2 = p.radius * p.radius - dz * dz;
      if (rho2 > 0.0) disks_.push_back({p.position.x(), p.position.y(), rho2});
    }
    SliceSums s;
    if (disks_.empty()) return s;
    y_breaks(disks_, breaks_);
    panel_nodes(breaks_, rule, lines_);
    chords_.resize(disks_.size());
    for (const Node& line : lines_) {
      const double y = line.at;
      std::size_t count = 0;
      for (const Disk& d : disks_) {
        const double h2 = d.rho2 - (y - d.y) * (y - d.y);
        if (h2 > 0.0) {
          const double h = std::sqrt(h2);
          chords_[count++] = {d.x - h, d.x + h};
        }
      }
      if (count == 0) continue;
      const LineMoments m = union_moments(chords_.data(), count);
      const double w = line.weight, yw = y * w;
      s.l0 += w * m.l0;
      s.l1 += w * m.l1;
      s.l2 += w * m.l2;
      s.y0 += yw * m.l0;
      s.y1 += yw * m.l1;
      s.yy0 += yw * y * m.l0;
    }
    s.lines = lines_.size();
    return s;
  }

  std::vector<SpherePart> parts_;
  Breaks z_breaks_;
  std::vector<Disk> disks_;  // scratch, per slice
  Breaks breaks_;            // scratch, per slice
  std::vector<Node> lines_;
  std::vector<Interval> chords_;
};

// With c = S₁/V (S₁ = ∫ r dV about the reference point), the second moment about the
// centroid is M = S₂ − V c cᵀ (S₂ = ∫ r rᵀ dV), and I = tr(M) E − M.
MassProperties from_moments(const Moments& m, const Vec3& reference, int q) {
  MassProperties p;
  const Vec3 c = m.first / m.volume;
  const Mat3 second = m.second - m.volume * c * c.transpose();
  p.volume = m.volume;
  p.centroid = reference + c;
  p.inertia = symmetric(second.trace() * Mat3::Identity() - second);
  p.exact = false;
  p.grid = q;
  return p;
}

// The change between two levels: the largest of |ΔV|/V, max |ΔI_ij| / max |I_ij| and
// |Δc| / √(max |I_ij| / V) (the centroid's shift relative to a radius of gyration).
double change(const MassProperties& coarse, const MassProperties& fine) {
  const double inertia = fine.inertia.cwiseAbs().maxCoeff();
  const double gyration = std::sqrt(inertia / fine.volume);
  return std::max({std::abs(fine.volume - coarse.volume) / fine.volume,
                   (fine.inertia - coarse.inertia).cwiseAbs().maxCoeff() / inertia,
                   (fine.centroid - coarse.centroid).norm() / gyration});
}

// Rounding in sums of n terms: up to n ε of the sum of their magnitudes, which is at most
// about 4 max |I_ij| for an inertia entry (|xy| <= (x² + y²)/2; M = S₂ − V c cᵀ; tr M − M).
double rounding(const Moments& m) {
  return 4.0 * double(m.terms + 16) * std::numeric_limits<double>::epsilon();
}

}  // namespace

MassProperties sphere_union_mass_properties(const std::vector<SpherePart>& parts,
                                            double tolerance) {
  check_input(parts, tolerance);
  if (!any_overlap(parts)) return disjoint_union(parts);
  // Integrating about a point near the centroid keeps S₂ − V c cᵀ free of cancellation.
  const Vec3 reference = volume_weighted_centre(parts);
  std::vector<SpherePart> relative = parts;
  for (auto& p : relative) p.position -= reference;
  UnionIntegral integral(std::move(relative));
  MassProperties previous = from_moments(integral.integrate(kFirstRule), reference, kFirstRule);
  for (int q = 2 * kFirstRule;; q *= 2) {
    const Moments m = integral.integrate(q);
    MassProperties current = from_moments(m, reference, q);
    const double changed = change(previous, current), floor = rounding(m);
    current.relative_error = std::max(changed, floor);
    // Done when within tolerance, or when more points cannot help: the change is at
    // rounding level (the tolerance is below it) or the finest level is reached.
    if (current.relative_error <= tolerance || changed <= floor || q >= kLastRule) return current;
    previous = current;
  }
}

}  // namespace granite::body
