#pragma once
// Distance between two convex sets A and B given by their support functions: the
// Gilbert–Johnson–Keerthi algorithm (GJK, IEEE J. Robotics and Automation 4(2), 1988) with the
// signed-volumes sub-algorithm of Montanari, Petrinic & Barbieri (ACM Trans. Graph. 36(3),
// 2017) in place of Johnson's, and exact witness points.
//
// GJK looks for the point v of least norm of the Minkowski difference A − B = {a − b}: its norm
// is the distance and v = a − b for a closest pair (a, b). It keeps a simplex of 1–4 support
// points w_i = s_A(−v) − s_B(v) of A − B and v = the point of least norm of their hull. Each
// iteration adds the support point w of A − B in the direction −v and reduces the simplex to
// the smallest sub-simplex whose hull holds the new point of least norm; |v| decreases
// strictly. v·w / |v| is a lower bound of the distance (the plane through w normal to v
// supports A − B), |v| an upper bound: their difference, the duality gap, is the stopping test.
// The witness points are the same convex combination of the simplex vertices' points of A and
// of B (each support point of A − B keeps the a and b it came from).
//
// Tolerances (see gjk.cpp for the reasoning). L is the scale of the problem: the largest |w| of
// the support points seen (|w| <= diam(A) + diam(B) + distance); v, a combination of them,
// carries a rounding of a few ε L (ε = 2.2e-16):
// - stop when |v|² − v·w <= relative_tolerance |v|²: then |v| − distance <= relative_tolerance
//   |v|; or when |v|² − v·w <= 16 ε |v| L, twice the rounding bound of that expression:
//   |v| − distance <= 16 ε L (sets that touch, whose gap never gets relatively small, end
//   there or by the overlap test); or when w is already a vertex of the simplex, or when the
//   new |v| is not below the old one (rounding stops the progress; the old, better simplex is
//   kept). Polytopes usually end exactly (the gap is 0 on the closest face); smooth sets
//   converge linearly (about a halving of |v| − distance per iteration), so that
//   relative_tolerance = 1e-12 takes 30–80 iterations for balls: raise max_iterations or the
//   tolerance for them;
// - overlap: the origin is inside the tetrahedron of four support points, or |v| <= 64 ε L
//   (the origin is on a lower-dimensional simplex, to within a few times v's rounding).
// Accuracy: the distance is within relative_tolerance·distance + O(ε L) of the true one when
// the gap test ends the iteration. The direction of v is only good to ~ε L / |v|, and when the
// distance is tiny against L and A − B is thinner than that tilt times L near the closest
// point (two crossing needles of aspect 1e8 a nanometre apart, say), the supports it selects
// can be wrong: the iteration then ends on a repeated vertex with an error up to O(ε L² /
// distance). Witness points are as accurate as v, except on degenerate (sliver) closest
// faces, where they are not unique to begin with.
#include "granite/core/types.hpp"

#include <array>
#include <cstddef>

namespace granite::collision {

struct GjkResult {
  /// The sets intersect (the distance is 0 to within the overlap tolerance 64 ε L above).
  bool overlap = false;
  /// |point_a − point_b| when !overlap (computed as |v| from the support points' differences,
  /// which keeps its relative accuracy for sets far from the origin; it equals |point_a −
  /// point_b| up to the rounding of those points' coordinates). 0 when overlap.
  double distance = 0.0;
  /// The closest points, on A and on B (when !overlap). When overlap, each is (up to the
  /// overlap tolerance) a point of A ∩ B, not a penetration witness.
  Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();
  /// Support points of A − B evaluated (each a call of both supports), the first included.
  int iterations = 0;
  /// false if the iteration cap was hit; the result is then the best found.
  bool converged = true;
  /// B's distinct points in the final simplex (when !overlap): the feature of B whose hull
  /// holds point_b (1: a vertex, 2: an edge's ends, 3: points of a face).
  std::array<Vec3, 3> feature_b{};
  int feature_count = 0;
};

/// One support vertex of the Minkowski difference A − B: w = a − b, with a, b kept for witness
/// points.
struct SupportPoint {
  Vec3 w, a, b;
};

/// A simplex of 1–4 support points and the barycentric weights (>= 0, summing to 1) of the point
/// of least norm of their hull, once signed_volumes has reduced it.
struct Simplex {
  std::array<SupportPoint, 4> vertices;
  std::array<double, 4> weights{};
  int count = 0;

  /// Σ weights_i w_i, Σ weights_i a_i, Σ weights_i b_i over the count vertices.
  Vec3 point() const;
  Vec3 point_a() const;
  Vec3 point_b() const;
};

/// The simplex sub-algorithm (signed volumes): the point of least norm in the hull of the
/// simplex's count (1–4) vertices. Reduces the simplex to the smallest sub-simplex whose hull
/// holds it (vertices kept in their order; count 4 stays only if the origin is strictly inside
/// the tetrahedron), writes its barycentric weights and returns the point: simplex.point() up
/// to rounding, but for a triangle computed as the origin's projection on its plane, which
/// stays accurate (~ε max|w|) on a sliver triangle, where the weights are only good to
/// ~ε / sin(least angle).
/// The barycentric coordinates of the origin's projection are ratios of signed volumes (of
/// signed areas in the coordinate plane where the triangle's projection is largest, for a
/// triangle); the sub-simplices searched are only the facets whose coordinate has the wrong
/// sign, so that no Johnson-style backup procedure is needed. Degenerate (collinear, coplanar,
/// repeated) vertices are handled: their zero volume searches every facet.
Vec3 signed_volumes(Simplex& simplex);

namespace detail {

/// gjk_distance's iteration, everything but the calls to the supports (non-template, in
/// gjk.cpp).
class GjkIteration {
public:
  /// Starts from the first support point (an overlap at once if its w is 0).
  GjkIteration(const SupportPoint& first, double relative_tolerance);
  bool done() const { return done_; }
  int iterations() const { return iterations_; }
  /// The current point of least norm; the next support point is s_{A−B}(−v).
  const Vec3& v() const { return v_; }
  /// One iteration with the support point w = s_{A−B}(−v()): the stopping tests, else the new
  /// simplex.
  void add(const SupportPoint& w);
  /// The result so far; converged = false if the iteration was cut short.
  GjkResult result(bool converged) const;

private:
  Simplex simplex_;
  Vec3 v_;
  double scale2_;  // L²: the largest |w|² seen
  double relative_tolerance_;
  int iterations_ = 1;
  bool done_ = false, overlap_ = false;
};

/// The direction of the first support point of A − B: −d, or −x if d is zero or not finite.
Vec3 first_search_direction(const Vec3& d);

}  // namespace detail

/// Distance between the convex sets A and B. support_a(d) returns a point of A maximising d·x
/// (d is not necessarily a unit vector, never zero); the same for support_b. initial_direction
/// is a guess of the direction of point_a − point_b, e.g. the difference of the sets' centres
/// (the first support point is taken against it; any nonzero vector works, a zero one is
/// replaced by the x axis). relative_tolerance: the stopping test on the duality gap above
/// (the relative error of the distance, up to rounding: see Accuracy); max_iterations: the cap
/// on support evaluations.
template <class SupportA, class SupportB>
GjkResult gjk_distance(const SupportA& support_a, const SupportB& support_b,
                       const Vec3& initial_direction, double relative_tolerance = 1e-12,
                       int max_iterations = 64) {
  // s_{A−B}(d) = s_A(d) − s_B(−d).
  const auto support = [&](const Vec3& d) {
    SupportPoint p;
    p.a = support_a(d);
    p.b = support_b(Vec3(-d));
    p.w = p.a - p.b;
    return p;
  };
  detail::GjkIteration gjk(support(detail::first_search_direction(initial_direction)),
                           relative_tolerance);
  while (!gjk.done()) {
    if (gjk.iterations() >= max_iterations) return gjk.result(false);
    gjk.add(support(Vec3(-gjk.v())));
  }
  return gjk.result(true);
}

/// Support of the convex hull of a finite point set (brute force over the points; the first
/// maximiser). count >= 1.
struct PointSetSupport {
  const Vec3* points;
  std::size_t count;
  Vec3 operator()(const Vec3& d) const;
};

/// Support of a segment [a, b] (a point when a == b; a when d ⟂ b − a).
struct SegmentSupport {
  Vec3 a, b;
  Vec3 operator()(const Vec3& d) const;
};

/// Support of a solid cylinder (centre c, unit axis u, radius R, half length L): c ± L u on the
/// side of d, plus R along d's part across the axis.
struct CylinderSupport {
  Vec3 c, u;
  double R, L;
  Vec3 operator()(const Vec3& d) const;
};

}  // namespace granite::collision
