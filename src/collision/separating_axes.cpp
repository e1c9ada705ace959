#include "granite/collision/separating_axes.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace granite::collision {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The least separation of `other`'s vertices from each face plane of `ref`; false as soon as
// one exceeds threshold (a separating plane), else the largest in `best` and its face.
bool face_axes(const PlacedPolyhedron& ref, const PlacedPolyhedron& other, double threshold,
               double& best, int& face) {
  best = -kInfinity;
  for (std::size_t f = 0; f < ref.normals.size(); ++f) {
    double least = kInfinity;
    for (const Vec3& v : other.vertices) least = std::min(least, ref.normals[f].dot(v));
    const double separation = least - ref.offsets[f];
    if (separation > threshold) {
      best = separation;
      return false;
    }
    if (separation > best) {
      best = separation;
      face = int(f);
    }
  }
  return true;
}

std::array<Vec3, 2> edge_ends(const PlacedPolyhedron& p, std::size_t e) {
  return {p.vertices[std::size_t(p.shape->edges[e][0])],
          p.vertices[std::size_t(p.shape->edges[e][1])]};
}

}  // namespace

bool general_axes(const PlacedPolyhedron& a, const PlacedPolyhedron& b, double threshold,
                  SeparatingAxes& out) {
  if (!face_axes(b, a, threshold, out.face_b, out.fb)) {
    out.apart = out.face_b;
    return false;
  }
  if (!face_axes(a, b, threshold, out.face_a, out.fa)) {
    out.apart = out.face_a;
    return false;
  }
  // Edge pairs: only those whose arcs on the Gauss map cross (they form a face of the
  // Minkowski difference A − B, the only edge pairs whose cross product can separate). A's
  // edge joins the faces of normals n1, n2 (its arc), B's those of m1, m2, negated for A − B.
  out.edge = -kInfinity;
  std::size_t ea = 0, eb = 0;
  struct Arc {
    Vec3 m1, m2, cross;  // B's edge: its faces' normals negated, m2 × m1
  };
  thread_local std::vector<Arc> arcs_b;
  arcs_b.resize(b.shape->edges.size());
  for (std::size_t j = 0; j < arcs_b.size(); ++j) {
    Arc& arc = arcs_b[j];
    arc.m1 = -b.normals[std::size_t(b.shape->edge_faces[j][0])];
    arc.m2 = -b.normals[std::size_t(b.shape->edge_faces[j][1])];
    arc.cross = cross(arc.m2, arc.m1);
  }
  for (std::size_t i = 0; i < a.shape->edges.size(); ++i) {
    const Vec3& n1 = a.normals[std::size_t(a.shape->edge_faces[i][0])];
    const Vec3& n2 = a.normals[std::size_t(a.shape->edge_faces[i][1])];
    const Vec3 arc_a = cross(n2, n1);
    const Vec3& pa = a.vertices[std::size_t(a.shape->edges[i][0])];
    for (std::size_t j = 0; j < arcs_b.size(); ++j) {
      const Arc& arc = arcs_b[j];
      const double cba = arc.m1.dot(arc_a), dba = arc.m2.dot(arc_a);
      if (!(cba * dba < 0.0)) continue;
      const double adc = n1.dot(arc.cross), bdc = n2.dot(arc.cross);
      if (!(adc * bdc < 0.0 && cba * bdc > 0.0)) continue;
      const Vec3& pb = b.vertices[std::size_t(b.shape->edges[j][0])];
      Vec3 axis = cross(Vec3(a.vertices[std::size_t(a.shape->edges[i][1])] - pa),
                        Vec3(b.vertices[std::size_t(b.shape->edges[j][1])] - pb));
      const double length = axis.norm();
      // Parallel edges: their axis is a face normal's, tested above.
      if (length < kParallelSine * (pa - a.vertices[std::size_t(a.shape->edges[i][1])]).norm() *
                       (pb - b.vertices[std::size_t(b.shape->edges[j][1])]).norm())
        continue;
      axis /= length;
      if (axis.dot(n1 + n2) < 0.0) axis = -axis;  // out of A: into the cone of its faces
      const double s = axis.dot(pb - pa);         // the gap from A's edge to B's
      if (s > threshold) {
        out.apart = s;
        return false;
      }
      if (s > out.edge) {
        out.edge = s;
        ea = i;
        eb = j;
        out.edge_normal = -axis;  // from B to A
      }
    }
  }
  if (out.edge > -kInfinity) {
    out.edge_a = edge_ends(a, ea);
    out.edge_b = edge_ends(b, eb);
  }
  return true;
}

bool box_axes(const PlacedPolyhedron& a, const PlacedPolyhedron& b, double threshold,
              SeparatingAxes& out) {
  // The boxes' axes: the normals of their + faces (box_polyhedron: faces -x, +x, -y, +y, -z, +z).
  const Vec3 u[3] = {a.axes.col(0), a.axes.col(1), a.axes.col(2)};
  const Vec3 v[3] = {b.axes.col(0), b.axes.col(1), b.axes.col(2)};
  const Vec3& h = a.half_extents;
  const Vec3& g = b.half_extents;
  const Vec3 t = a.centre - b.centre;  // from b to a
  double C[3][3], c[3][3];             // C = Aᵀ B, C_ij = u_i·v_j, and c = |C|
  // b's faces: a's least height over the face facing it, |t·v_j| − g_j − Σ_i h_i |C_ij| (C's
  // column j made here: a pair apart mostly stops at the first columns).
  out.face_b = -kInfinity;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      C[i][j] = u[i].dot(v[j]);
      c[i][j] = std::abs(C[i][j]);
    }
    const double tj = t.dot(v[j]);
    const double s = std::abs(tj) - g[j] - (h[0] * c[0][j] + h[1] * c[1][j] + h[2] * c[2][j]);
    if (s > threshold) {
      out.apart = s;
      return false;
    }
    if (s > out.face_b) {
      out.face_b = s;
      out.fb = 2 * j + (tj > 0.0 ? 1 : 0);  // +v_j faces a if a lies that way
    }
  }
  // a's faces: b's least height, |t·u_i| − h_i − Σ_j g_j |C_ij|; b lies along −t from a.
  out.face_a = -kInfinity;
  double T[3];  // t in a's frame
  for (int i = 0; i < 3; ++i) {
    T[i] = t.dot(u[i]);
    const double s = std::abs(T[i]) - h[i] - (g[0] * c[i][0] + g[1] * c[i][1] + g[2] * c[i][2]);
    if (s > threshold) {
      out.apart = s;
      return false;
    }
    if (s > out.face_a) {
      out.face_a = s;
      out.fa = 2 * i + (T[i] < 0.0 ? 1 : 0);
    }
  }
  // Edge pairs: with v_j = Σ_k C_kj u_k (a right-handed), u_i × v_j = C_{i1 j} u_{i2} −
  // C_{i2 j} u_{i1} for (i, i1, i2) cyclic, of squared length C_{i1 j}² + C_{i2 j}² (no
  // cancellation for nearly parallel edges, unlike 1 − C_ij²). The projected radii are
  // h_{i1}|C_{i2 j}| + h_{i2}|C_{i1 j}| and g_{j1}|C_{i j2}| + g_{j2}|C_{i j1}|, so the
  // separation is s = m/ℓ with m = |t·(u_i × v_j)| − those radii and ℓ the length. The nine
  // are compared without a root or a division (they cost most of the test): s > threshold ⇔
  // m > 0 and m² > threshold² ℓ² (for threshold ≥ 0), and m/ℓ > m'/ℓ' by the signs of m, m' and m² ℓ'² ≷ m'² ℓ².
  int ei = -1, ej = -1;
  double best_m = 0.0, best_l2 = 1.0, edge_sign = 1.0;
  const auto beats = [&](double m, double l2) {
    if (ei < 0) return true;
    if ((m >= 0.0) != (best_m >= 0.0)) return m >= 0.0;
    const double lhs = m * m * best_l2, rhs = best_m * best_m * l2;
    return m >= 0.0 ? lhs > rhs : lhs < rhs;
  };
  const double threshold2 = threshold * threshold;
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double l2 = C[i1][j] * C[i1][j] + C[i2][j] * C[i2][j];
      if (l2 < kParallelSine * kParallelSine) continue;  // parallel edges: a face normal's axis
      const double ta = C[i1][j] * T[i2] - C[i2][j] * T[i1];
      const double m =
          std::abs(ta) - h[i1] * c[i2][j] - h[i2] * c[i1][j] - g[j1] * c[i][j2] - g[j2] * c[i][j1];
      const bool beyond = threshold >= 0.0 ? m > 0.0 && m * m > threshold2 * l2
                                           : m > 0.0 || m * m < threshold2 * l2;
      if (beyond) {
        out.apart = m / std::sqrt(l2);
        return false;
      }
      if (beats(m, l2)) {
        best_m = m;
        best_l2 = l2;
        ei = i;
        ej = j;
        edge_sign = ta >= 0.0 ? 1.0 : -1.0;
      }
    }
  }
  out.edge = ei < 0 ? -kInfinity : best_m / std::sqrt(best_l2);
  if (ei < 0) return true;
  out.edge_normal = (edge_sign * cross(u[ei], v[ej])).normalized();  // from b to a
  // The edges that give it: a's edge along u_i farthest towards b (along −n), b's along v_j
  // farthest towards a (along n).
  const Vec3& n = out.edge_normal;
  Vec3 ca = a.centre, cb = b.centre;
  for (int k = 0; k < 3; ++k) {
    if (k != ei) ca += (u[k].dot(n) > 0.0 ? -h[k] : h[k]) * u[k];
    if (k != ej) cb += (v[k].dot(n) > 0.0 ? g[k] : -g[k]) * v[k];
  }
  out.edge_a = {Vec3(ca - h[ei] * u[ei]), Vec3(ca + h[ei] * u[ei])};
  out.edge_b = {Vec3(cb - g[ej] * v[ej]), Vec3(cb + g[ej] * v[ej])};
  return true;
}

}  // namespace granite::collision
