#include "granite/collision/gjk.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace granite::collision {

namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
// The duality gap |v|² − v·w = v·(v − w) is computed with an error of at most about
// 4 ε |v| (|v| + |w|) <= 8 ε |v| L (a dot product of three terms, and v − w). A gap below twice
// that is rounding: stop. Then |v| − distance <= 16 ε L, the accuracy v itself has (a convex
// combination of up to four points of norm <= L). Sets that touch (distance 0) end here or by
// the overlap test: for them the gap stays near |v|² and the relative test never passes.
constexpr double kGapFloor = 16.0 * kEpsilon;
// |v| <= 64 ε L (1.4e-14 L) is the origin itself: v, rounded to a few ε L, cannot tell a
// smaller distance from 0. Sets closer than this report an overlap (about 3e-17 m for
// millimetre particles, L ≈ 2 mm); the tolerance is relative so that it holds at any size and
// position (L is the size of A − B, which does not change when both sets move).
constexpr double kOverlapTolerance = 64.0 * kEpsilon;

bool same_sign(double x, double y) { return (x > 0.0 && y > 0.0) || (x < 0.0 && y < 0.0); }

// A sub-simplex candidate: indices of the vertices it keeps (increasing), their weights, the
// point Σ weight w and its squared norm.
struct Candidate {
  int count = 0;
  std::array<int, 4> index{};
  std::array<double, 4> weight{};
  Vec3 point = Vec3::Zero();
  double norm2 = std::numeric_limits<double>::infinity();
};

void finish(Candidate& c, const Vec3* w) {
  c.point = Vec3::Zero();
  for (int k = 0; k < c.count; ++k) c.point += c.weight[k] * w[c.index[k]];
  c.norm2 = c.point.squaredNorm();
}

void keep_nearer(Candidate& best, const Candidate& c) {
  if (c.norm2 < best.norm2) best = c;
}

Candidate vertex(const Vec3* w, int i) {
  Candidate c;
  c.count = 1;
  c.index[0] = i;
  c.weight[0] = 1.0;
  finish(c, w);
  return c;
}

// Segment [w_i, w_j]: the origin's projection on the line has barycentric coordinates
// (w_j·t, −w_i·t) / |t|², t = w_j − w_i. A coordinate <= 0 puts the nearest point at the other
// end (both are <= 0 only if t = 0: a repeated point).
Candidate segment(const Vec3* w, int i, int j) {
  const Vec3 t = w[j] - w[i];
  const double ci = w[j].dot(t), cj = -w[i].dot(t);
  if (cj <= 0.0) return vertex(w, i);
  if (ci <= 0.0) return vertex(w, j);
  Candidate c;
  c.count = 2;
  c.index = {i, j, 0, 0};
  const double sum = ci + cj;
  c.weight = {ci / sum, cj / sum, 0.0, 0.0};
  finish(c, w);
  return c;
}

// Triangle (w_i, w_j, w_k). The origin's projection p on its plane has barycentric coordinates
// the signed areas of (p, w_j, w_k), (w_i, p, w_k), (w_i, w_j, p) over that of the triangle,
// all measured in the coordinate plane where the triangle's projection is largest (the
// largest component of the normal n: the areas lose least there). If one has the wrong sign
// (or is zero), the nearest point is on an edge the origin lies beyond: the edges opposite
// those vertices are searched. A degenerate triangle (n = 0) searches all three edges.
//
// p = (n·x0 / n·n) n for any point x0 of the plane; x0 is the foot of the origin on the line
// of the longest edge. For a sliver (edges at a small angle θ) the plane is poorly defined
// about that line: rounding of the vertices (ε L) turns n by ~ε / sin θ, which moves p by that
// angle times the distance from x0 to p, at most about the triangle's height when the origin
// is over it: ~ε L. With x0 a vertex it would move p by ε |a| / sin θ. For the same reason the
// point returned inside is p itself, not Σ λ w: the weights of a sliver carry errors ~ε / sin θ
// whose combination does not cancel (they serve the sign tests and the witness points).
Candidate triangle(const Vec3* w, int i, int j, int k) {
  const Vec3 &a = w[i], &b = w[j], &c = w[k];
  const Vec3 n = cross(b - a, c - a);
  const double nn = n.squaredNorm();
  bool outside[3] = {true, true, true};
  if (nn > 0.0) {
    const Vec3 ab = b - a, bc = c - b, ca = a - c;
    const double lab = ab.squaredNorm(), lbc = bc.squaredNorm(), lca = ca.squaredNorm();
    const Vec3 x0 = lab >= lbc && lab >= lca ? Vec3(a - (a.dot(ab) / lab) * ab)
                    : lbc >= lca             ? Vec3(b - (b.dot(bc) / lbc) * bc)
                                             : Vec3(c - (c.dot(ca) / lca) * ca);
    const Vec3 p = (x0.dot(n) / nn) * n;
    int z = 0;
    if (std::abs(n[1]) > std::abs(n[z])) z = 1;
    if (std::abs(n[2]) > std::abs(n[z])) z = 2;
    const int x = (z + 1) % 3, y = (z + 2) % 3;
    // Twice the signed area of (q0, q1, q2) projected on the (x, y) plane; (x, y, z) is cyclic,
    // so that area(a, b, c) = n[z].
    const auto area = [x, y](const Vec3& q0, const Vec3& q1, const Vec3& q2) {
      return (q1[x] - q0[x]) * (q2[y] - q0[y]) - (q1[y] - q0[y]) * (q2[x] - q0[x]);
    };
    const double mu = n[z];
    const double sa = area(p, b, c), sb = area(a, p, c), sc = area(a, b, p);
    outside[0] = !same_sign(sa, mu);
    outside[1] = !same_sign(sb, mu);
    outside[2] = !same_sign(sc, mu);
    if (!outside[0] && !outside[1] && !outside[2]) {
      Candidate in;
      in.count = 3;
      in.index = {i, j, k, 0};
      const double sum = sa + sb + sc;
      in.weight = {sa / sum, sb / sum, sc / sum, 0.0};
      in.point = p;
      in.norm2 = p.squaredNorm();
      return in;
    }
  }
  Candidate best;
  if (outside[0]) keep_nearer(best, segment(w, j, k));
  if (outside[1]) keep_nearer(best, segment(w, i, k));
  if (outside[2]) keep_nearer(best, segment(w, i, j));
  return best;
}

// Tetrahedron (w_0, …, w_3). The origin's barycentric coordinates are C_m / D: C_m the signed
// volume of the tetrahedron with w_m replaced by the origin, D = Σ C_m its own. Each C_m is
// the triple product of a vertex with the opposite face's normal computed from edge vectors
// (accurate for a small tetrahedron far from the origin), and D = (w_1 − w_0)·n_1 likewise,
// rather than the sum of the C_m, which cancels. The origin is inside if every C_m has D's
// sign; otherwise the nearest point is on a face the origin lies beyond: those faces are
// searched (all four if the tetrahedron is flat, D = 0).
Candidate tetrahedron(const Vec3* w) {
  const Vec3 e1 = w[1] - w[0], e2 = w[2] - w[0], e3 = w[3] - w[0];
  const Vec3 n0 = cross(w[2] - w[1], w[3] - w[1]);  // face (1, 2, 3)
  const Vec3 n1 = cross(e2, e3);                    // face (0, 2, 3)
  const Vec3 n2 = cross(e1, e3);                    // face (0, 1, 3)
  const Vec3 n3 = cross(e1, e2);                    // face (0, 1, 2)
  const double det = e1.dot(n1);
  const double cv[4] = {w[1].dot(n0), -w[0].dot(n1), w[0].dot(n2), -w[0].dot(n3)};
  bool outside[4];
  for (int m = 0; m < 4; ++m) outside[m] = !same_sign(cv[m], det);
  if (!outside[0] && !outside[1] && !outside[2] && !outside[3]) {
    Candidate in;
    in.count = 4;
    in.index = {0, 1, 2, 3};
    const double sum = cv[0] + cv[1] + cv[2] + cv[3];
    for (int m = 0; m < 4; ++m) in.weight[m] = cv[m] / sum;
    finish(in, w);
    return in;
  }
  Candidate best;
  if (outside[0]) keep_nearer(best, triangle(w, 1, 2, 3));
  if (outside[1]) keep_nearer(best, triangle(w, 0, 2, 3));
  if (outside[2]) keep_nearer(best, triangle(w, 0, 1, 3));
  if (outside[3]) keep_nearer(best, triangle(w, 0, 1, 2));
  return best;
}

Candidate least_norm(const Vec3* w, int count) {
  switch (count) {
  case 1:
    return vertex(w, 0);
  case 2:
    return segment(w, 0, 1);
  case 3:
    return triangle(w, 0, 1, 2);
  default:
    return tetrahedron(w);
  }
}

}  // namespace

Vec3 Simplex::point() const {
  Vec3 p = Vec3::Zero();
  for (int k = 0; k < count; ++k) p += weights[k] * vertices[k].w;
  return p;
}

Vec3 Simplex::point_a() const {
  Vec3 p = Vec3::Zero();
  for (int k = 0; k < count; ++k) p += weights[k] * vertices[k].a;
  return p;
}

Vec3 Simplex::point_b() const {
  Vec3 p = Vec3::Zero();
  for (int k = 0; k < count; ++k) p += weights[k] * vertices[k].b;
  return p;
}

Vec3 signed_volumes(Simplex& simplex) {
  assert(simplex.count >= 1 && simplex.count <= 4);
  Vec3 w[4] = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  for (int k = 0; k < simplex.count; ++k) w[k] = simplex.vertices[k].w;
  Candidate c = least_norm(w, simplex.count);
  // No candidate only if a norm was NaN (non-finite input): keep the newest vertex.
  if (c.count == 0) c = vertex(w, simplex.count - 1);
  // Indices increase, so moving vertex index[k] to k never overwrites one still to be moved.
  for (int k = 0; k < c.count; ++k) {
    simplex.vertices[k] = simplex.vertices[c.index[k]];
    simplex.weights[k] = c.weight[k];
  }
  for (int k = c.count; k < 4; ++k) simplex.weights[k] = 0.0;
  simplex.count = c.count;
  return c.point;
}

namespace detail {

Vec3 first_search_direction(const Vec3& d) {
  if (d.allFinite() && !d.isZero(0.0)) return -d;
  return Vec3(-1.0, 0.0, 0.0);
}

GjkIteration::GjkIteration(const SupportPoint& first, double relative_tolerance) :
    v_(first.w), scale2_(first.w.squaredNorm()), relative_tolerance_(relative_tolerance) {
  simplex_.vertices[0] = first;
  simplex_.weights[0] = 1.0;
  simplex_.count = 1;
  // The supports share a point: the sets touch there.
  if (v_.isZero(0.0)) overlap_ = done_ = true;
}

void GjkIteration::add(const SupportPoint& p) {
  assert(!done_ && simplex_.count <= 3);
  ++iterations_;
  const double vv = v_.squaredNorm();
  scale2_ = std::max(scale2_, p.w.squaredNorm());
  const double scale = std::sqrt(scale2_);
  // Duality gap: distance >= v·w / |v| = |v| − gap / |v|.
  const double gap = v_.dot(v_ - p.w);
  if (gap <= relative_tolerance_ * vv || gap <= kGapFloor * std::sqrt(vv) * scale) {
    done_ = true;
    return;
  }
  for (int k = 0; k < simplex_.count; ++k) {
    if (simplex_.vertices[k].w == p.w) {
      done_ = true;
      return;
    }
  }
  Simplex next = simplex_;
  next.vertices[next.count++] = p;
  const Vec3 v = signed_volumes(next);
  const double limit = kOverlapTolerance * scale;
  if (next.count == 4 || v.squaredNorm() <= limit * limit) {
    simplex_ = next;
    v_ = v;
    overlap_ = done_ = true;
    return;
  }
  // In exact arithmetic |v| decreases strictly while the gap test fails; if it does not, the
  // rounding of the sub-algorithm is all that is left: keep the better old simplex.
  if (v.squaredNorm() >= vv) {
    done_ = true;
    return;
  }
  simplex_ = next;
  v_ = v;
}

GjkResult GjkIteration::result(bool converged) const {
  GjkResult r;
  r.overlap = overlap_;
  r.distance = overlap_ ? 0.0 : v_.norm();
  r.point_a = simplex_.point_a();
  r.point_b = simplex_.point_b();
  r.iterations = iterations_;
  r.converged = converged;
  if (!overlap_)
    for (int k = 0; k < simplex_.count && r.feature_count < 3; ++k) {
      const Vec3& b = simplex_.vertices[std::size_t(k)].b;
      const auto end = r.feature_b.begin() + r.feature_count;
      if (std::find(r.feature_b.begin(), end, b) == end)
        r.feature_b[std::size_t(r.feature_count++)] = b;
    }
  return r;
}

}  // namespace detail

Vec3 PointSetSupport::operator()(const Vec3& d) const {
  assert(count >= 1);
  std::size_t best = 0;
  double best_value = d.dot(points[0]);
  for (std::size_t k = 1; k < count; ++k) {
    const double value = d.dot(points[k]);
    if (value > best_value) best = k, best_value = value;
  }
  return points[best];
}

Vec3 SegmentSupport::operator()(const Vec3& d) const { return d.dot(b - a) > 0.0 ? b : a; }

Vec3 CylinderSupport::operator()(const Vec3& d) const {
  const double along = d.dot(u);
  const Vec3 across = d - along * u;
  const double norm = across.norm();
  Vec3 s = c + (along >= 0.0 ? L : -L) * u;
  if (norm > 0.0) s += (R / norm) * across;
  return s;
}

}  // namespace granite::collision
