#include "granite/collision/mesh_contacts.hpp"

#include "granite/collision/segments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace granite::collision {

using body::EdgeKind;
using body::TrianglePoint;
using body::VertexKind;

namespace {

using Hit = MeshQueryScratch::Hit;

// The closest points of the triangles around a feature agree to within this many ε of the
// length they are computed from (the coordinates and the sphere's reach): the barycentric tests
// and projections take a few roundings each.
constexpr double kAgreement = 64.0 * std::numeric_limits<double>::epsilon();

MeshFeature feature_of(const TriangleMesh& mesh, const Hit& h) {
  if (h.region == TriangleRegion::face) return {MeshFeatureKind::face, h.triangle};
  const int k = local_index(h.region);
  if (is_edge(h.region)) return {MeshFeatureKind::edge, mesh.triangle_edge(h.triangle, k)};
  return {MeshFeatureKind::vertex, mesh.triangle(h.triangle)[std::size_t(k)]};
}

std::span<const std::int32_t> triangles_on(const TriangleMesh& mesh, const MeshFeature& f) {
  return f.kind == MeshFeatureKind::edge ? mesh.edge_triangles(f.index)
                                         : mesh.vertex_triangles(f.index);
}

bool is_flat(const TriangleMesh& mesh, const MeshFeature& f) {
  return f.kind == MeshFeatureKind::edge ? mesh.edge(f.index).kind == EdgeKind::flat
                                         : mesh.vertex_kind(f.index) == VertexKind::flat;
}

// hits are sorted by triangle.
const Hit* find(const std::vector<Hit>& hits, std::int32_t t) {
  const auto at = std::lower_bound(hits.begin(), hits.end(), t,
                                   [](const Hit& h, std::int32_t v) { return h.triangle < v; });
  return at != hits.end() && at->triangle == t ? &*at : nullptr;
}

// Whether hit h, in the region of edge or vertex f, gives f's contact: every triangle on f has
// its closest point where h has (f's Voronoi region: header, step 3), and no lower triangle
// among them names the same feature (it speaks for f).
bool speaks_for(const TriangleMesh& mesh, const std::vector<Hit>& hits, const Hit& h,
                const MeshFeature& f, double tolerance) {
  for (const std::int32_t t : triangles_on(mesh, f)) {
    if (t == h.triangle) continue;
    const Hit* other = find(hits, t);
    if (!other || (other->point - h.point).squaredNorm() > tolerance * tolerance) return false;
    if (t < h.triangle && feature_of(mesh, *other) == f) return false;
  }
  return true;
}

// A contact in the plane of triangle t: normal ±n_t towards the centre, the centre's projection.
// With `inside` (a convex body's point on its inner side), the normal is turned towards it
// instead, and the gap is negative where the centre lies across the plane from it.
ContactGeometry plane_contact(const TriangleMesh& mesh, std::int32_t t, const Vec3& on_plane,
                              const Vec3& centre, double radius, const Vec3* inside) {
  const Vec3& n = mesh.normal(t);
  const double s = n.dot(centre - on_plane);
  if (inside) {
    const bool front = n.dot(*inside - on_plane) >= 0.0;
    return {centre - s * n, front ? n : Vec3(-n), (front ? s : -s) - radius};
  }
  return {centre - s * n, s >= 0.0 ? n : Vec3(-n), std::abs(s) - radius};
}

ContactGeometry contact_at(const TriangleMesh& mesh, const Hit& h, const MeshFeature& f,
                           const Vec3& centre, double radius, const Vec3* inside) {
  if (f.kind == MeshFeatureKind::face || is_flat(mesh, f))
    return plane_contact(mesh, h.triangle, h.point, centre, radius, inside);
  if (h.distance == 0.0) {  // the centre on the edge or vertex: any normal; the front one
    const Vec3& n = mesh.normal(h.triangle);
    return {h.point, inside && n.dot(*inside - h.point) < 0.0 ? Vec3(-n) : n, -radius};
  }
  const Vec3 n = (centre - h.point) / h.distance;
  if (inside && n.dot(*inside - h.point) < 0.0)  // across the surface from the inside
    return {h.point, Vec3(-n), -h.distance - radius};
  return {h.point, n, h.distance - radius};
}

// Step 5: whether a and b are one contact.
bool same_contact(const ContactGeometry& a, const ContactGeometry& b, double radius,
                  double cos_flat, double flat_angle, double tolerance) {
  const double reach = flat_angle * (std::max(a.gap, b.gap) + radius) + tolerance;
  return a.normal.dot(b.normal) >= cos_flat && (a.point - b.point).squaredNorm() <= reach * reach;
}

// Step 1 for one candidate: a hit if its closest point is within reach.
void add_hit(const TriangleMesh& mesh, const Vec3& centre, double reach, std::int32_t t,
             std::vector<Hit>& hits) {
  const Vec3& a = mesh.corner(t, 0);
  if (std::abs(mesh.normal(t).dot(centre - a)) >= reach) return;  // its plane out of reach
  const TrianglePoint q =
      closest_point_on_triangle(centre, a, mesh.corner(t, 1), mesh.corner(t, 2));
  const double d2 = (centre - q.point).squaredNorm();
  if (d2 < reach * reach) hits.push_back({t, q.region, q.point, std::sqrt(d2)});
}

// How resolve takes a hit's contact: computed from a sphere's centre (`inside`: see
// plane_contact), or the one the hit points to in `carried` (an ellipsoid's, whose witness
// points agree to `agreement`).
struct Resolution {
  const Vec3* inside = nullptr;
  const std::vector<ContactGeometry>* carried = nullptr;
  double agreement = 0.0;  // 0: the rounding of the closest-point computations
};

// Steps 2–5 on the hits.
std::size_t resolve(const TriangleMesh& mesh, const Vec3& centre, double radius, double threshold,
                    std::vector<MeshContact>& out, std::vector<Hit>& hits,
                    const Resolution& how = {}) {
  const double reach = radius + threshold;
  std::sort(hits.begin(), hits.end(),
            [](const Hit& a, const Hit& b) { return a.triangle < b.triangle; });

  const double tolerance =
      how.agreement > 0.0 ? how.agreement : kAgreement * (mesh.length_scale() + reach);
  const double cos_flat = hits.size() > 1 ? std::cos(mesh.flat_angle()) : 1.0;
  const std::size_t first = out.size();
  for (const Hit& h : hits) {
    const MeshFeature f = feature_of(mesh, h);
    if (f.kind != MeshFeatureKind::face && !speaks_for(mesh, hits, h, f, tolerance)) continue;
    const ContactGeometry g = how.carried ? (*how.carried)[std::size_t(h.contact)]
                                          : contact_at(mesh, h, f, centre, radius, how.inside);
    if (!(g.gap < threshold)) continue;
    bool merged = false;
    for (std::size_t j = first; j < out.size() && !merged; ++j) {
      if (!same_contact(out[j].geometry, g, radius, cos_flat, mesh.flat_angle(), tolerance))
        continue;
      if (g.gap < out[j].geometry.gap) out[j] = {g, f, h.triangle};
      merged = true;
    }
    if (!merged) out.push_back({g, f, h.triangle});
  }
  return out.size() - first;
}

}  // namespace

std::size_t sphere_mesh_contacts(const TriangleMesh& mesh, const Vec3& centre, double radius,
                                 double threshold, std::vector<MeshContact>& out,
                                 MeshQueryScratch& scratch) {
  scratch.hits.clear();
  const double reach = radius + threshold;
  mesh.triangles_near(centre, reach,
                      [&](std::int32_t t) { add_hit(mesh, centre, reach, t, scratch.hits); });
  return resolve(mesh, centre, radius, threshold, out, scratch.hits);
}

std::size_t sphere_mesh_contacts(const TriangleMesh& mesh, const Vec3& centre, double radius,
                                 double threshold, std::span<const std::int32_t> candidates,
                                 std::vector<MeshContact>& out, MeshQueryScratch& scratch) {
  scratch.hits.clear();
  const double reach = radius + threshold;
  for (const std::int32_t t : candidates) add_hit(mesh, centre, reach, t, scratch.hits);
  return resolve(mesh, centre, radius, threshold, out, scratch.hits);
}

std::size_t point_mesh_contacts(const TriangleMesh& mesh, const Vec3& x, const Vec3& inside,
                                double reach, double threshold, std::vector<MeshContact>& out,
                                MeshQueryScratch& scratch) {
  scratch.hits.clear();
  mesh.triangles_near(x, reach, [&](std::int32_t t) { add_hit(mesh, x, reach, t, scratch.hits); });
  return resolve(mesh, x, 0.0, threshold, out, scratch.hits, {.inside = &inside});
}

namespace {

// The region of triangle t that q (a point on it) lies in: a barycentric coordinate below
// `tolerance` puts it on the opposite edge, two on the remaining corner.
TriangleRegion region_of(const TriangleMesh& mesh, std::int32_t t, const Vec3& q,
                         double tolerance) {
  const Vec3 &a = mesh.corner(t, 0), &b = mesh.corner(t, 1), &c = mesh.corner(t, 2);
  const Vec3 n = cross(Vec3(b - a), Vec3(c - a));
  const double area2 = n.squaredNorm();
  const double l[3] = {cross(Vec3(b - q), Vec3(c - q)).dot(n) / area2,
                       cross(Vec3(c - q), Vec3(a - q)).dot(n) / area2,
                       cross(Vec3(a - q), Vec3(b - q)).dot(n) / area2};
  const bool zero[3] = {l[0] <= tolerance, l[1] <= tolerance, l[2] <= tolerance};
  const int zeros = int(zero[0]) + int(zero[1]) + int(zero[2]);
  if (zeros == 0) return TriangleRegion::face;
  if (zeros == 1)  // opposite corner k: edge k + 1 (edge k runs from corner k to k + 1)
    return zero[0]   ? TriangleRegion::edge1
           : zero[1] ? TriangleRegion::edge2
                     : TriangleRegion::edge0;
  return !zero[0]   ? TriangleRegion::vertex0
         : !zero[1] ? TriangleRegion::vertex1
                    : TriangleRegion::vertex2;
}

// Ellipsoid e's contact with triangle t, if its gap is below threshold (see the header).
bool ellipsoid_triangle(const TriangleMesh& mesh, std::int32_t t, const PlacedEllipsoid& e,
                        double threshold, ContactGeometry& g) {
  const Vec3& a = mesh.corner(t, 0);
  const Vec3 n = mesh.normal(t).dot(e.centre - a) >= 0.0 ? mesh.normal(t) : Vec3(-mesh.normal(t));
  const Vec3 deepest = e.support(Vec3(-n));
  const double gap = n.dot(deepest - a);
  if (gap > threshold) return false;  // all of E beyond the triangle's plane
  const Vec3 foot = deepest - gap * n;
  if (closest_point_on_triangle(foot, a, mesh.corner(t, 1), mesh.corner(t, 2)).region ==
      TriangleRegion::face) {
    g = {foot, n, gap};
    return true;
  }
  const Vec3 corners[3] = {a, mesh.corner(t, 1), mesh.corner(t, 2)};
  return ellipsoid_convex(e, PointSetSupport{corners, 3}, 0.0,
                          Vec3((corners[0] + corners[1] + corners[2]) / 3.0), threshold, g);
}

}  // namespace

std::size_t ellipsoid_mesh_contacts(const TriangleMesh& mesh, const PlacedEllipsoid& e,
                                    double threshold, std::vector<MeshContact>& out,
                                    MeshQueryScratch& scratch) {
  scratch.hits.clear();
  scratch.contacts.clear();
  constexpr double kWitness = 1e-9;  // relative agreement of GJK's polished witness points
  mesh.triangles_near(e.centre, e.size() + threshold, [&](std::int32_t t) {
    ContactGeometry g;
    if (!ellipsoid_triangle(mesh, t, e, threshold, g)) return;
    scratch.hits.push_back({t, region_of(mesh, t, g.point, kWitness), g.point, 0.0,
                            std::int32_t(scratch.contacts.size())});
    scratch.contacts.push_back(g);
  });
  return resolve(mesh, e.centre, 0.0, threshold, out, scratch.hits,
                 {.carried = &scratch.contacts, .agreement = kWitness * e.size()});
}

std::vector<MeshContact> sphere_mesh_contacts(const TriangleMesh& mesh, const Vec3& centre,
                                              double radius, double threshold) {
  std::vector<MeshContact> out;
  MeshQueryScratch scratch;
  sphere_mesh_contacts(mesh, centre, radius, threshold, out, scratch);
  return out;
}

void convex_features_near(const TriangleMesh& mesh, const body::Aabb& box, bool vertices,
                          MeshQueryScratch& scratch) {
  const auto bends_away = [](EdgeKind kind) {
    return kind == EdgeKind::convex || kind == EdgeKind::boundary || kind == EdgeKind::non_manifold;
  };
  const auto may_poke = [](VertexKind kind) {
    return kind != VertexKind::flat && kind != VertexKind::concave && kind != VertexKind::isolated;
  };
  scratch.edges.clear();
  scratch.vertices.clear();
  mesh.triangles_near(box, [&](std::int32_t t) {
    for (int k = 0; k < 3; ++k) {
      if (const std::int32_t e = mesh.triangle_edge(t, k); bends_away(mesh.edge(e).kind))
        scratch.edges.push_back(e);
      if (const std::int32_t v = mesh.triangle(t)[std::size_t(k)];
          vertices && may_poke(mesh.vertex_kind(v)))
        scratch.vertices.push_back(v);
    }
  });
  for (auto* list : {&scratch.edges, &scratch.vertices}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
}

namespace {

// Two contacts of one feature whose spheres' centres are closer than this fraction of the reach
// are one.
constexpr double kSamePoint = 1e-9;

}  // namespace

std::size_t capsule_mesh_contacts(const TriangleMesh& mesh, const Vec3& a, const Vec3& b, double r,
                                  double threshold, std::vector<MeshContact>& out,
                                  MeshQueryScratch& scratch) {
  const std::size_t first = out.size();
  sphere_mesh_contacts(mesh, a, r, threshold, out, scratch);
  const Vec3 d = b - a;
  const double length2 = d.squaredNorm();
  if (length2 == 0.0) return out.size() - first;  // a sphere
  sphere_mesh_contacts(mesh, b, r, threshold, out, scratch);
  // The interior: the edges within reach that may hold a minimum, each once.
  const double reach = r + threshold;
  body::Aabb box;
  box.grow(a);
  box.grow(b);
  box.lo.array() -= reach;
  box.hi.array() += reach;
  convex_features_near(mesh, box, false, scratch);
  std::vector<MeshContact>& found = scratch.found;
  for (const std::int32_t e : scratch.edges) {
    const body::MeshEdge& edge = mesh.edge(e);
    const Vec3& u = mesh.vertex(edge.vertices[0]);
    const Vec3 w = mesh.vertex(edge.vertices[1]) - u;
    if (cross(d, w).squaredNorm() <=
        kMeshParallelSine * kMeshParallelSine * length2 * w.squaredNorm())
      continue;
    const auto [s, t] = closest_parameters(a, d, u, w);
    if (s <= kMeshEndFraction || s >= 1.0 - kMeshEndFraction) continue;
    const Vec3 p = a + s * d;
    if ((p - (u + t * w)).squaredNorm() >= reach * reach) continue;
    // The sphere at p: its contact at this edge (or the vertex the closest point is clamped
    // to) is the capsule's, if the feature rule gives p to it.
    const MeshFeature feature = t <= 0.0   ? MeshFeature{MeshFeatureKind::vertex, edge.vertices[0]}
                                : t >= 1.0 ? MeshFeature{MeshFeatureKind::vertex, edge.vertices[1]}
                                           : MeshFeature{MeshFeatureKind::edge, e};
    found.clear();
    sphere_mesh_contacts(mesh, p, r, threshold, found, scratch);
    for (const MeshContact& c : found) {
      if (c.feature != feature) continue;
      // Each interior minimum once (two edges clamped to their common vertex find it twice);
      // an end sphere's contact with the same feature is another sphere's, and stays.
      const auto centre = [r](const ContactGeometry& g) {
        return g.point + (g.gap + r) * g.normal;
      };
      const bool repeated =
          std::any_of(out.begin() + std::ptrdiff_t(first), out.end(), [&](const MeshContact& o) {
            return o.feature == feature && (centre(o.geometry) - p).squaredNorm() <=
                                               kSamePoint * kSamePoint * reach * reach;
          });
      if (!repeated) out.push_back(c);
    }
  }
  return out.size() - first;
}

std::size_t placed_contacts(const body::Mesh& wall, const std::vector<MeshContact>& found,
                            ContactGeometry* out, std::size_t capacity) {
  const std::size_t n = std::min(capacity, found.size());
  for (std::size_t c = 0; c < n; ++c) {
    const ContactGeometry& g = found[c].geometry;
    out[c] = {wall.to_world(g.point), wall.orientation * g.normal, g.gap};
  }
  return n;
}

namespace {

// The contacts `query(found, scratch)` finds in the mesh's frame, placed (world frame), the
// first `capacity` of them.
template <class Query>
std::size_t placed_contacts(const body::Mesh& wall, ContactGeometry* out, std::size_t capacity,
                            const Query& query) {
  thread_local std::vector<MeshContact> found;
  thread_local MeshQueryScratch scratch;
  found.clear();
  query(found, scratch);
  return placed_contacts(wall, found, out, capacity);
}

}  // namespace

std::size_t sphere_mesh(const Vec3& centre, double radius, const body::Mesh& wall, double threshold,
                        ContactGeometry* out, std::size_t capacity) {
  return placed_contacts(wall, out, capacity, [&](auto& found, auto& scratch) {
    return sphere_mesh_contacts(*wall.mesh, wall.to_mesh(centre), radius, threshold, found,
                                scratch);
  });
}

std::size_t sphere_mesh(const Vec3& centre, double radius, const body::Mesh& wall, double threshold,
                        std::span<const std::int32_t> candidates, ContactGeometry* out,
                        std::size_t capacity) {
  return placed_contacts(wall, out, capacity, [&](auto& found, auto& scratch) {
    return sphere_mesh_contacts(*wall.mesh, wall.to_mesh(centre), radius, threshold, candidates,
                                found, scratch);
  });
}

std::size_t ellipsoid_mesh(const PlacedEllipsoid& e, const body::Mesh& wall, double threshold,
                           ContactGeometry* out, std::size_t capacity) {
  const PlacedEllipsoid local(wall.to_mesh(e.centre),
                              wall.orientation.conjugate().toRotationMatrix() * e.rotation,
                              e.semi_axes);
  return placed_contacts(wall, out, capacity, [&](auto& found, auto& scratch) {
    return ellipsoid_mesh_contacts(*wall.mesh, local, threshold, found, scratch);
  });
}

std::size_t capsule_mesh(const Vec3& a, const Vec3& b, double r, const body::Mesh& wall,
                         double threshold, ContactGeometry* out, std::size_t capacity) {
  return placed_contacts(wall, out, capacity, [&](auto& found, auto& scratch) {
    return capsule_mesh_contacts(*wall.mesh, wall.to_mesh(a), wall.to_mesh(b), r, threshold, found,
                                 scratch);
  });
}

}  // namespace granite::collision
