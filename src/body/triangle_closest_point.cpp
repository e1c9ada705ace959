#include "granite/body/triangle_closest_point.hpp"

#include <algorithm>

namespace granite::body {

namespace {

TriangleRegion vertex_region(int k) { return TriangleRegion(int(TriangleRegion::vertex0) + k); }
TriangleRegion edge_region(int k) { return TriangleRegion(int(TriangleRegion::edge0) + k); }

// A degenerate triangle (collinear corners): the nearest of the three edges' clamped
// projections; a clamped parameter of 0 or 1 is a corner.
TrianglePoint closest_on_edges(const Vec3& x, const Vec3* corner[3]) {
  TrianglePoint best{Vec3::Zero(), TriangleRegion::vertex0};
  double best_d2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    const Vec3& p = *corner[k];
    const Vec3 d = *corner[(k + 1) % 3] - p;
    const double dd = d.squaredNorm();
    const double t = dd > 0.0 ? std::clamp((x - p).dot(d) / dd, 0.0, 1.0) : 0.0;
    const Vec3 q = t == 1.0 ? *corner[(k + 1) % 3] : Vec3(p + t * d);
    const double d2 = (x - q).squaredNorm();
    if (k > 0 && d2 >= best_d2) continue;
    best_d2 = d2;
    best.point = q;
    best.region = t == 0.0   ? vertex_region(k)
                  : t == 1.0 ? vertex_region((k + 1) % 3)
                             : edge_region(k);
  }
  return best;
}

}  // namespace

// The Voronoi regions of the triangle's features tested in turn with the two dot products
// s = (b − a)·(x − a), t = (c − a)·(x − a) and the Gram entries of u = b − a, w = c − a
// (Ericson §5.1.5). At corner b, (b − a)·(x − b) = s − u·u and (c − a)·(x − b) = t − u·w; at
// corner c, s − u·w and t − w·w. A corner's region is where x projects before both its edges'
// starts; an edge's where x projects within the edge and, by the sign of the barycentric
// weight of the opposite corner (a 2×2 minor of these products), outside the triangle across
// that edge; the rest is the face, with barycentric weights from the three minors. Every
// denominator is a squared edge length or the Gram determinant |u × w|² of a non-degenerate
// triangle.
TrianglePoint closest_point_on_triangle(const Vec3& x, const Vec3& a, const Vec3& b,
                                        const Vec3& c) {
  const Vec3 u = b - a, w = c - a, ax = x - a;
  const double uu = u.squaredNorm(), ww = w.squaredNorm(), uw = u.dot(w);
  if (!(uu * ww - uw * uw > 0.0)) {
    const Vec3* corner[3] = {&a, &b, &c};
    return closest_on_edges(x, corner);
  }
  const double s1 = u.dot(ax), t1 = w.dot(ax);  // at a
  if (s1 <= 0.0 && t1 <= 0.0) return {a, TriangleRegion::vertex0};
  const double s2 = s1 - uu, t2 = t1 - uw;  // at b
  if (s2 >= 0.0 && t2 <= s2) return {b, TriangleRegion::vertex1};
  const double wc = s1 * t2 - s2 * t1;  // c's weight (× the determinant)
  if (wc <= 0.0 && s1 >= 0.0 && s2 <= 0.0) return {a + (s1 / uu) * u, TriangleRegion::edge0};
  const double s3 = s1 - uw, t3 = t1 - ww;  // at c
  if (t3 >= 0.0 && s3 <= t3) return {c, TriangleRegion::vertex2};
  const double wb = s3 * t1 - s1 * t3;  // b's weight
  if (wb <= 0.0 && t1 >= 0.0 && t3 <= 0.0) return {a + (t1 / ww) * w, TriangleRegion::edge2};
  const double wa = s2 * t3 - s3 * t2;  // a's weight
  if (wa <= 0.0 && t2 - s2 >= 0.0 && s3 - t3 >= 0.0) {
    const double along = (t2 - s2) / ((t2 - s2) + (s3 - t3));
    return {b + along * (c - b), TriangleRegion::edge1};
  }
  const double sum = wa + wb + wc;
  return {a + (wb / sum) * u + (wc / sum) * w, TriangleRegion::face};
}

}  // namespace granite::body
