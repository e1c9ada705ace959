// A convex polyhedron (a box, a convex shape) against a triangle mesh (see
// granite/collision/mesh_contacts.hpp, polyhedron_mesh_contacts): the contacts of two convex
// bodies touch at vertex–face, face–vertex or edge–edge pairs, and a mesh is convex wherever it
// can touch a convex body at one point, at its convex features.
#include "granite/collision/mesh_contacts.hpp"

#include "granite/collision/polyhedron_contacts.hpp"
#include "granite/collision/segments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace granite::collision {

namespace {

// Rounding allowance of the side tests, relative to the lengths they compare.
constexpr double kSideTolerance = 64.0 * std::numeric_limits<double>::epsilon();

// The placed polyhedron in the mesh's frame.
void into_mesh_frame(const PlacedPolyhedron& p, const body::Mesh& wall, PlacedPolyhedron& local) {
  local.shape = p.shape;
  local.size = p.size;
  local.centre = wall.to_mesh(p.centre);
  local.vertices.resize(p.vertices.size());
  for (std::size_t k = 0; k < p.vertices.size(); ++k)
    local.vertices[k] = wall.to_mesh(p.vertices[k]);
  const Quat back = wall.orientation.conjugate();
  local.normals.resize(p.normals.size());
  local.offsets.resize(p.normals.size());
  for (std::size_t f = 0; f < p.normals.size(); ++f) {
    local.normals[f] = back * p.normals[f];
    local.offsets[f] = local.normals[f].dot(local.vertices[std::size_t(p.shape->faces[f].loop[0])]);
  }
}

// Whether x's projection on face f of p lies within the face (its side planes).
bool over_face(const PlacedPolyhedron& p, std::size_t f, const Vec3& x, double tolerance) {
  const Vec3& n = p.normals[f];
  const std::vector<int>& loop = p.shape->faces[f].loop;
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const Vec3& a = p.vertices[std::size_t(loop[k])];
    const Vec3& b = p.vertices[std::size_t(loop[(k + 1) % loop.size()])];
    if (cross(Vec3(b - a), n).dot(x - a) > tolerance) return false;
  }
  return true;
}

// Face–vertex: mesh vertex v pressed into (or within threshold of) face f of p, the face of
// largest separation, v over it, and v's neighbours all farther out along the face's normal (v
// the mesh's point nearest the face there). Normal −n_f (from the mesh to p), point v.
void vertex_into_face(const TriangleMesh& mesh, std::int32_t v, const PlacedPolyhedron& p,
                      double threshold, double tolerance, std::vector<MeshContact>& out) {
  const Vec3& x = mesh.vertex(v);
  std::size_t face = 0;
  double separation = -std::numeric_limits<double>::infinity();
  for (std::size_t f = 0; f < p.normals.size(); ++f)
    if (const double s = p.normals[f].dot(x) - p.offsets[f]; s > separation) {
      separation = s;
      face = f;
    }
  if (separation > threshold || !over_face(p, face, x, tolerance)) return;
  const Vec3& n = p.normals[face];
  for (const std::int32_t t : mesh.vertex_triangles(v)) {
    if (t < 0) return;  // a neighbour outside this rank's part: not decidable here
    for (int k = 0; k < 3; ++k)
      if (const std::int32_t w = mesh.triangle(t)[std::size_t(k)];
          w != v && !(n.dot(mesh.vertex(w) - x) > tolerance))
        return;
  }
  out.push_back({{x, Vec3(-n), separation}, {MeshFeatureKind::vertex, v}, -1});
}

// Edge–edge: edge e of p against mesh edge m, crossing (closest points interior to both), the
// axis e × m separating p (all its vertices on the far side of its edge) from the mesh edge's
// triangles (their corners on the near side).
void edge_across_edge(const TriangleMesh& mesh, std::int32_t m, const PlacedPolyhedron& p,
                      std::size_t e, double threshold, double reach, double tolerance,
                      std::vector<MeshContact>& out) {
  const Vec3& pa = p.vertices[std::size_t(p.shape->edges[e][0])];
  const Vec3 pd = p.vertices[std::size_t(p.shape->edges[e][1])] - pa;
  const body::MeshEdge& edge = mesh.edge(m);
  const Vec3& ma = mesh.vertex(edge.vertices[0]);
  const Vec3 md = mesh.vertex(edge.vertices[1]) - ma;
  Vec3 axis = cross(pd, md);
  const double length = axis.norm();
  if (length <= kMeshParallelSine * pd.norm() * md.norm()) return;
  axis /= length;
  const auto [s, t] = closest_parameters(pa, pd, ma, md);
  if (s <= kMeshEndFraction || s >= 1.0 - kMeshEndFraction || t <= kMeshEndFraction ||
      t >= 1.0 - kMeshEndFraction)
    return;
  const Vec3 on_p = pa + s * pd, on_mesh = ma + t * md;
  if ((on_p - on_mesh).squaredNorm() > reach * reach) return;
  if (axis.dot(p.centre - on_mesh) < 0.0) axis = -axis;  // from the mesh towards p
  for (const Vec3& x : p.vertices)
    if (axis.dot(x - on_p) < -tolerance) return;
  for (const std::int32_t tri : mesh.edge_triangles(m)) {
    if (tri < 0) return;  // a triangle outside this rank's part: not decidable here
    for (int k = 0; k < 3; ++k)
      if (axis.dot(mesh.corner(tri, k) - on_mesh) > tolerance) return;
  }
  const double gap = axis.dot(on_p - on_mesh);
  if (gap <= threshold) out.push_back({{on_mesh, axis, gap}, {MeshFeatureKind::edge, m}, -1});
}

}  // namespace

std::size_t polyhedron_mesh_contacts(const TriangleMesh& mesh, const PlacedPolyhedron& p,
                                     double threshold, std::vector<MeshContact>& out,
                                     MeshQueryScratch& scratch) {
  const std::size_t first = out.size();
  // How deep a pressed vertex or edge is still seen: the polyhedron's inradius about its centre.
  double depth = std::numeric_limits<double>::infinity();
  for (std::size_t f = 0; f < p.normals.size(); ++f)
    depth = std::min(depth, p.offsets[f] - p.normals[f].dot(p.centre));
  const double reach = threshold + std::max(depth, 0.0);
  const double tolerance = kSideTolerance * (mesh.length_scale() + p.size);
  // Vertex–face (and vertex–edge, vertex–vertex): each vertex as a point (the mesh's feature rule).
  for (const Vec3& x : p.vertices)
    point_mesh_contacts(mesh, x, p.centre, reach, threshold, out, scratch);
  // The mesh's convex features near p: its vertices into p's faces, its edges across p's edges.
  body::Aabb box;
  for (const Vec3& x : p.vertices) box.grow(x);
  box.lo.array() -= reach;
  box.hi.array() += reach;
  convex_features_near(mesh, box, true, scratch);
  for (const std::int32_t v : scratch.vertices)
    vertex_into_face(mesh, v, p, threshold, tolerance, out);
  for (const std::int32_t m : scratch.edges)
    for (std::size_t e = 0; e < p.shape->edges.size(); ++e)
      edge_across_edge(mesh, m, p, e, threshold, reach, tolerance, out);
  return out.size() - first;
}

std::size_t polyhedron_mesh(const PlacedPolyhedron& p, const body::Mesh& wall, double threshold,
                            ContactGeometry* out, std::size_t capacity) {
  thread_local PlacedPolyhedron local;
  thread_local std::vector<MeshContact> found;
  thread_local MeshQueryScratch scratch;
  into_mesh_frame(p, wall, local);
  found.clear();
  polyhedron_mesh_contacts(*wall.mesh, local, threshold, found, scratch);
  return placed_contacts(wall, found, out, capacity);
}

}  // namespace granite::collision
