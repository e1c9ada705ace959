#include "granite/body/polyhedron.hpp"

#include "granite/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>
#include <memory>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace granite::body {

namespace {

// The face's outward unit normal by Newell's method (exact for a planar loop, robust for a
// nearly planar one) and its offset, the largest n·v of its vertices.
void set_plane(const std::vector<Vec3>& vertices, PolyhedronFace& face) {
  Vec3 n = Vec3::Zero();
  for (std::size_t k = 0; k < face.loop.size(); ++k) {
    const Vec3& p = vertices[std::size_t(face.loop[k])];
    const Vec3& q = vertices[std::size_t(face.loop[(k + 1) % face.loop.size()])];
    n += cross(p, q);
  }
  face.normal = n.normalized();
  face.offset = -std::numeric_limits<double>::infinity();
  for (int v : face.loop)
    face.offset = std::max(face.offset, face.normal.dot(vertices[std::size_t(v)]));
}

// Edges from the faces' loops (each shared by two faces, listed once) and their directions,
// one per family of parallel edges (|sin| below 1e-9).
// Each edge's two faces: the one walking it from its lower vertex to its higher, then the other.
void set_edges(ConvexPolyhedron& p) {
  std::map<std::pair<int, int>, std::size_t> index;
  for (std::size_t f = 0; f < p.faces.size(); ++f) {
    const std::vector<int>& loop = p.faces[f].loop;
    for (std::size_t k = 0; k < loop.size(); ++k) {
      const int a = loop[k], b = loop[(k + 1) % loop.size()];
      if (a > b) continue;  // the other face walks it from b to a
      index[{a, b}] = p.edges.size();
      p.edges.push_back({a, b});
      p.edge_faces.push_back({int(f), -1});
    }
  }
  for (std::size_t f = 0; f < p.faces.size(); ++f) {
    const std::vector<int>& loop = p.faces[f].loop;
    for (std::size_t k = 0; k < loop.size(); ++k) {
      const int a = loop[k], b = loop[(k + 1) % loop.size()];
      if (a > b) p.edge_faces[index.at({b, a})][1] = int(f);
    }
  }
  for (const auto& [a, b] : p.edges) {
    const Vec3 d = (p.vertices[std::size_t(b)] - p.vertices[std::size_t(a)]).normalized();
    const auto family = std::find_if(p.edge_directions.begin(), p.edge_directions.end(),
                                     [&](const Vec3& e) { return cross(e, d).norm() < 1e-9; });
    p.edge_family.push_back(int(family - p.edge_directions.begin()));
    if (family == p.edge_directions.end()) p.edge_directions.push_back(d);
  }
}

struct QhullRun {
  qhT qh;
  FILE* err = nullptr;
  QhullRun() {
    err = std::fopen("/dev/null", "w");
    qh_zero(&qh, err);
  }
  ~QhullRun() {
    qh_freeqhull(&qh, !qh_ALL);
    int curlong = 0, totlong = 0;
    qh_memfreeshort(&qh, &curlong, &totlong);
    if (err) std::fclose(err);
  }
};

}  // namespace

ConvexPolyhedron box_polyhedron(const Vec3& h) {
  ConvexPolyhedron p;
  for (int k = 0; k < 8; ++k)  // vertex k: bit 0 the sign of x, bit 1 of y, bit 2 of z
    p.vertices.emplace_back((k & 1 ? 1 : -1) * h[0], (k & 2 ? 1 : -1) * h[1],
                            (k & 4 ? 1 : -1) * h[2]);
  // Counter-clockwise seen from outside: -x, +x, -y, +y, -z, +z.
  const int loops[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& loop : loops) {
    PolyhedronFace f;
    f.loop.assign(loop, loop + 4);
    set_plane(p.vertices, f);
    p.faces.push_back(std::move(f));
  }
  set_edges(p);
  p.box_half_extents = h;
  return p;
}

ConvexPolyhedron convex_hull(const std::vector<Vec3>& points, const std::string& what) {
  if (points.size() < 4)
    throw InputError(what + ": a convex shape needs at least 4 vertices, got " +
                     std::to_string(points.size()));
  double extent = 0.0;
  for (const Vec3& x : points) {
    if (!x.allFinite()) throw InputError(what + ": a vertex is not finite");
    extent = std::max(extent, (x - points.front()).norm());
  }
  std::vector<coordT> coords;
  for (const Vec3& x : points) coords.insert(coords.end(), {x[0], x[1], x[2]});
  QhullRun run;
  qhT* qh = &run.qh;
  char options[] = "qhull";  // 3-d facets: coplanar ones merged by default ('C-0')
  const int code =
      qh_new_qhull(qh, 3, int(points.size()), coords.data(), False, options, nullptr, run.err);
  if (code != 0)
    throw InputError(what + ": the vertices span no volume (Qhull: all on a plane or a line)");
  // Qhull's point index of each hull vertex becomes a new index into the kept vertices.
  ConvexPolyhedron p;
  std::vector<int> index(points.size(), -1);
  facetT* facet;
  FORALLfacets {
    setT* ordered = qh_facet3vertex(qh, facet);
    PolyhedronFace f;
    vertexT *vertex, **vertexp;
    FOREACHvertex_(ordered) {
      const int id = qh_pointid(qh, vertex->point);
      if (index[std::size_t(id)] < 0) {
        index[std::size_t(id)] = int(p.vertices.size());
        p.vertices.push_back(points[std::size_t(id)]);
      }
      f.loop.push_back(index[std::size_t(id)]);
    }
    qh_settempfree(qh, &ordered);
    // Qhull's order may be either way round: make it counter-clockwise about the outward normal.
    set_plane(p.vertices, f);
    if (f.normal.dot(Vec3(facet->normal[0], facet->normal[1], facet->normal[2])) < 0.0) {
      std::reverse(f.loop.begin(), f.loop.end());
      set_plane(p.vertices, f);
    }
    p.faces.push_back(std::move(f));
  }
  if (polyhedron_mass_properties(p).volume <= 1e-9 * extent * extent * extent)
    throw InputError(what + ": the vertices span no volume (all on a plane or a line)");
  set_edges(p);
  return p;
}

// Divergence theorem: the solid is the union of the tetrahedra (p, a, b, c) of the fan
// triangles (v0, vk, vk+1) of every face with a reference point p inside. With a' = a − p, ...,
// D = a'·(b'×c'): volume D/6, first moment D/24 (a'+b'+c'), and second moment (covariance)
// C = D/120 (a'a'ᵀ + b'b'ᵀ + c'c'ᵀ + s sᵀ), s = a'+b'+c' (Blow & Binstock 2004). About the
// centroid x̄: C − V x̄x̄ᵀ, and the inertia tensor I = tr(C) 1 − C.
MassProperties polyhedron_mass_properties(const ConvexPolyhedron& poly) {
  Vec3 p = Vec3::Zero();
  for (const Vec3& v : poly.vertices) p += v;
  p /= double(poly.vertices.size());
  double volume = 0.0;
  Vec3 moment = Vec3::Zero();
  Mat3 c = Mat3::Zero();
  for (const PolyhedronFace& f : poly.faces) {
    const Vec3 a = poly.vertices[std::size_t(f.loop[0])] - p;
    for (std::size_t k = 1; k + 1 < f.loop.size(); ++k) {
      const Vec3 b = poly.vertices[std::size_t(f.loop[k])] - p;
      const Vec3 d = poly.vertices[std::size_t(f.loop[k + 1])] - p;
      const double det = a.dot(cross(b, d));
      const Vec3 s = a + b + d;
      volume += det / 6.0;
      moment += det / 24.0 * s;
      c += det / 120.0 *
           (a * a.transpose() + b * b.transpose() + d * d.transpose() + s * s.transpose());
    }
  }
  MassProperties m;
  m.volume = volume;
  const Vec3 centre = moment / volume;
  c -= volume * centre * centre.transpose();
  m.inertia = c.trace() * Mat3::Identity() - c;
  m.centroid = p + centre;
  return m;
}

void shift_origin(ConvexPolyhedron& poly, const Vec3& shift) {
  for (Vec3& v : poly.vertices) v -= shift;
  for (PolyhedronFace& f : poly.faces) f.offset -= f.normal.dot(shift);
  if (!shift.isZero(0.0)) poly.box_half_extents = Vec3::Zero();  // no longer about the origin
}

double bounding_radius(const ConvexPolyhedron& poly) {
  double r = 0.0;
  for (const Vec3& v : poly.vertices) r = std::max(r, v.norm());
  return r;
}

}  // namespace granite::body
