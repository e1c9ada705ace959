#include "granite/collision/polyhedron_contacts.hpp"

#include "granite/collision/gjk.hpp"
#include "granite/collision/mesh_contacts.hpp"
#include "granite/collision/segments.hpp"
#include "granite/collision/separating_axes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace granite::collision {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// An axis must beat the preferred one (a face of body 2, then a face of body 1, then an edge
// pair) by this fraction of the two bodies' sizes to be chosen: two boxes resting face on face
// see the same separation, to rounding, on both faces and on the edge pairs crossing to their
// normal; without the bias the manifold's reference would flip between them from step to step.
// Choosing a face whose separation is lower by at most this much errs by as much in the gap.
constexpr double kAxisBias = 1e-9;
// Two flat bricks stacked with crossed edges have edge pairs whose axis lies along a face's
// normal to within their tilt, and such an axis often separates them a little more than the
// face does (the face's depth counts the part of the upper brick that hangs beyond the lower
// one). The edge pair's single contact at a crossing of two edges, where the face's manifold
// belongs, let the upper brick tip into the lower one: in a settled pile of 4 × 2 × 1 bricks,
// pairs overlapped by up to a fifth of the thickness (docs/shapes.md, manifolds). An edge pair's
// axis within kNearFaceCosine of the face's normal (1 − cos θ, θ < 0.1 rad) therefore gives way
// to the face's manifold when that holds the overlap: its least gap at most the edge pair's
// separation, less kEdgeDepthPreference of its depth (the margin of ODE's and Bullet's
// box–box tests, which prefer faces by a factor 1.05 on the depth).
constexpr double kNearFaceCosine = 5e-3;
constexpr double kEdgeDepthPreference = 0.05;
// A face's normal within this of the closest points' direction (1 − cos θ) and the closest
// point on its plane (to 1e-9 of the body's size): a capsule lies on that face.
constexpr double kFaceCosine = 1e-9;
// The solid cylinder is eroded by this fraction of the smaller of its radius, its half length
// and the polyhedron's size: the rims are rounded by as much, and penetrations up to that
// depth keep an exact normal (GJK measures the distance to the eroded solid).
constexpr double kCylinderMargin = 0.05;
// GJK stops with |v| within its relative tolerance (1e-12) of the distance; a lower bound of
// the distance is |v| less this much.
constexpr double kGjkRelativeError = 1e-9;
// Two points whose distance exceeds a separating axis' separation by at most this fraction of
// the bodies' sizes are their closest points (the accuracy GJK stops at).
constexpr double kCertified = 1e-12;

struct Point {
  Vec3 x;      // on the incident body
  double gap;  // its distance above the reference plane
};

// At most kManifoldPoints of `points` (moved to the front): the deepest, the farthest from it,
// and the two spanning the largest areas on either side of the line through those (areas
// signed about the normal n). Returns how many are kept.
std::size_t reduce(std::vector<Point>& points, const Vec3& n) {
  if (points.size() <= kManifoldPoints) return points.size();
  const auto by_gap = [](const Point& p, const Point& q) { return p.gap < q.gap; };
  std::iter_swap(points.begin(), std::min_element(points.begin(), points.end(), by_gap));
  const Vec3 x1 = points[0].x;
  std::iter_swap(points.begin() + 1, std::max_element(points.begin() + 1, points.end(),
                                                      [&](const auto& p, const auto& q) {
                                                        return (p.x - x1).squaredNorm() <
                                                               (q.x - x1).squaredNorm();
                                                      }));
  const Vec3 line = points[1].x - x1;
  const auto area = [&](const Point& p) { return cross(line, p.x - x1).dot(n); };
  const auto by_area = [&](const Point& p, const Point& q) { return area(p) < area(q); };
  std::iter_swap(points.begin() + 2, std::max_element(points.begin() + 2, points.end(), by_area));
  std::iter_swap(points.begin() + 3, std::min_element(points.begin() + 3, points.end(), by_area));
  return kManifoldPoints;
}

// The points of `points` (the incident side) as contacts on the reference plane n·x = d: with
// the reference on body 2, the normal is n and the witness point x's projection on the plane;
// on body 1, the normal is −n and the witness point x itself (on body 2).
std::size_t emit(std::vector<Point>& points, const Vec3& n, bool reference_is_body2,
                 ContactGeometry* out) {
  const std::size_t count = reduce(points, n);
  for (std::size_t k = 0; k < count; ++k) {
    const Point& p = points[k];
    out[k] = reference_is_body2 ? ContactGeometry{Vec3(p.x - p.gap * n), n, p.gap}
                                : ContactGeometry{p.x, Vec3(-n), p.gap};
  }
  return count;
}

// Sutherland–Hodgman: the part of polygon `in` with side·(x − p) <= 0, into `out`.
void clip(const std::vector<Vec3>& in, const Vec3& side, const Vec3& p, std::vector<Vec3>& out) {
  out.clear();
  for (std::size_t k = 0; k < in.size(); ++k) {
    const Vec3& x = in[k];
    const Vec3& y = in[(k + 1) % in.size()];
    const double fx = side.dot(x - p), fy = side.dot(y - p);
    if (fx <= 0.0) out.push_back(x);
    if ((fx < 0.0 && fy > 0.0) || (fx > 0.0 && fy < 0.0))
      out.push_back(x + fx / (fx - fy) * (y - x));
  }
}

// The outward normal of the side plane through the edge from p to q of a loop turning
// counter-clockwise about n: the polygon lies on the left of each edge.
Vec3 side_normal(const Vec3& p, const Vec3& q, const Vec3& n) { return cross(Vec3(q - p), n); }

// Face f of `ref` as the reference face: the incident face of `inc` clipped against its side
// planes, the points within threshold of its plane.
std::size_t face_contacts(const PlacedPolyhedron& ref, int f, const PlacedPolyhedron& inc,
                          bool reference_is_body2, double threshold, bool deepest_if_none,
                          ContactGeometry* out) {
  const Vec3& n = ref.normals[std::size_t(f)];
  const double d = ref.offsets[std::size_t(f)];
  std::size_t incident = 0;
  for (std::size_t k = 1; k < inc.normals.size(); ++k)
    if (inc.normals[k].dot(n) < inc.normals[incident].dot(n)) incident = k;
  thread_local std::vector<Vec3> polygon, clipped;
  polygon.clear();
  for (int v : inc.shape->faces[incident].loop) polygon.push_back(inc.vertices[std::size_t(v)]);
  const std::vector<int>& loop = ref.shape->faces[std::size_t(f)].loop;
  for (std::size_t k = 0; k < loop.size() && !polygon.empty(); ++k) {
    const Vec3& p = ref.vertices[std::size_t(loop[k])];
    const Vec3& q = ref.vertices[std::size_t(loop[(k + 1) % loop.size()])];
    clip(polygon, side_normal(p, q, n), p, clipped);
    std::swap(polygon, clipped);
  }
  thread_local std::vector<Point> points;
  points.clear();
  for (const Vec3& x : polygon)
    if (const double gap = n.dot(x) - d; gap <= threshold) points.push_back({x, gap});
  if (points.empty() && deepest_if_none) {  // the incident body's deepest vertex
    const auto deepest =
        std::min_element(inc.vertices.begin(), inc.vertices.end(),
                         [&](const Vec3& x, const Vec3& y) { return n.dot(x) < n.dot(y); });
    if (const double gap = n.dot(*deepest) - d; gap <= threshold) points.push_back({*deepest, gap});
  }
  return emit(points, n, reference_is_body2, out);
}

double least_gap(const ContactGeometry* contacts, std::size_t count) {
  double least = kInfinity;
  for (std::size_t k = 0; k < count; ++k) least = std::min(least, contacts[k].gap);
  return least;
}

struct Interval {
  double lo = kInfinity, hi = -kInfinity;
};
Interval project(const std::vector<Vec3>& points, const Vec3& axis) {
  Interval i;
  for (const Vec3& x : points) {
    const double s = axis.dot(x);
    i.lo = std::min(i.lo, s);
    i.hi = std::max(i.hi, s);
  }
  return i;
}

// The separation of interval a from interval b along an axis, with a on the side the axis
// points to if that separates more; flips the axis if a is better on the other side.
double separation(const Interval& a, const Interval& b, Vec3& axis) {
  const double plus = a.lo - b.hi, minus = b.lo - a.hi;
  if (plus >= minus) return plus;
  axis = -axis;
  return minus;
}

// The edge of `p` in `family` farthest along `direction` (largest direction·(v0 + v1)).
std::array<Vec3, 2> extreme_edge(const PlacedPolyhedron& p, int family, const Vec3& direction) {
  double best = -kInfinity;
  std::array<Vec3, 2> edge{};
  for (std::size_t e = 0; e < p.shape->edges.size(); ++e) {
    if (p.shape->edge_family[e] != family) continue;
    const Vec3& v0 = p.vertices[std::size_t(p.shape->edges[e][0])];
    const Vec3& v1 = p.vertices[std::size_t(p.shape->edges[e][1])];
    if (const double s = direction.dot(v0 + v1); s > best) {
      best = s;
      edge = {v0, v1};
    }
  }
  return edge;
}

// The contact of segment 1 (body 1) and segment 2 (body 2) along normal n (from 2 to 1): the
// closest points of the two, the gap measured along n less r (body 1's rounding).
bool edge_contact(const std::array<Vec3, 2>& e1, const std::array<Vec3, 2>& e2, const Vec3& n,
                  double r, double threshold, ContactGeometry& out) {
  const Vec3 d1 = e1[1] - e1[0], d2 = e2[1] - e2[0];
  const auto [s, t] = closest_parameters(e1[0], d1, e2[0], d2);
  const Vec3 p1 = e1[0] + s * d1, p2 = e2[0] + t * d2;
  const double gap = n.dot(p1 - p2) - r;
  if (gap > threshold) return false;
  out = {p2, n, gap};
  return true;
}

// The segment from a to b (d = b − a, rounded by r) clipped against face f's side planes: its
// ends within threshold of the face (gap: height above the plane less r), up to two.
std::size_t clipped_segment(const Vec3& a, const Vec3& d, double r, const PlacedPolyhedron& p,
                            int f, double threshold, ContactGeometry out[2]) {
  const Vec3& n = p.normals[std::size_t(f)];
  const std::vector<int>& loop = p.shape->faces[std::size_t(f)].loop;
  double t0 = 0.0, t1 = 1.0;
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const Vec3& v = p.vertices[std::size_t(loop[k])];
    const Vec3 side = side_normal(v, p.vertices[std::size_t(loop[(k + 1) % loop.size()])], n);
    const double g0 = side.dot(a - v), gd = side.dot(d);  // side·(a + t d − v) <= 0
    if (gd == 0.0) {
      if (g0 > 0.0) return 0;
    } else if (gd > 0.0) {
      t1 = std::min(t1, -g0 / gd);
    } else {
      t0 = std::max(t0, -g0 / gd);
    }
  }
  if (t0 > t1) return 0;
  std::size_t count = 0;
  for (const double t : {t0, t1}) {
    const Vec3 x = a + t * d;
    const double height = n.dot(x) - p.offsets[std::size_t(f)];
    if (height - r <= threshold) out[count++] = {Vec3(x - height * n), n, height - r};
    if (t1 - t0 <= 1e-12 || d.isZero(0.0)) break;  // one point
  }
  return count;
}

int most_aligned_face(const PlacedPolyhedron& p, const Vec3& n) {
  std::size_t best = 0;
  for (std::size_t f = 1; f < p.normals.size(); ++f)
    if (p.normals[f].dot(n) > p.normals[best].dot(n)) best = f;
  return int(best);
}

const body::ConvexPolyhedron& unit_box() {
  static const body::ConvexPolyhedron box = body::box_polyhedron(Vec3::Ones());
  return box;
}

std::size_t half_space_contacts(const PlacedPolyhedron& p, const body::HalfSpace& plane,
                                double threshold, ContactGeometry* out) {
  thread_local std::vector<Point> points;
  points.clear();
  for (const Vec3& v : p.vertices)
    if (const double gap = plane.normal.dot(v - plane.point); gap <= threshold)
      points.push_back({v, gap});
  return emit(points, plane.normal, true, out);
}

std::size_t drum_contacts(const PlacedPolyhedron& p, const body::Cylinder& drum, double threshold,
                          ContactGeometry* out) {
  thread_local std::vector<ContactGeometry> found;
  found.clear();
  for (const Vec3& v : p.vertices) {
    ContactGeometry walls[3];
    found.insert(found.end(), walls,
                 walls + sphere_inside_cylinder(v, 0.0, drum, threshold, walls));
  }
  const std::size_t count = std::min(found.size(), kPolyhedronPrimitiveContacts);
  std::partial_sort(found.begin(), found.begin() + std::ptrdiff_t(count), found.end(),
                    [](const auto& g, const auto& h) { return g.gap < h.gap; });
  std::copy(found.begin(), found.begin() + std::ptrdiff_t(count), out);
  return count;
}

std::size_t solid_cylinder_contact(const PlacedPolyhedron& p, const body::Cylinder& c,
                                   double threshold, ContactGeometry* out) {
  const double margin = kCylinderMargin * std::min({c.radius, c.half_length, p.size});
  const CylinderSupport eroded{c.center, c.axis, c.radius - margin, c.half_length - margin};
  const GjkResult g = gjk_distance(PointSetSupport{p.vertices.data(), p.vertices.size()}, eroded,
                                   Vec3(p.centre - c.center));
  if (!g.overlap && g.distance > 0.0) {
    if (g.distance - margin > threshold) return 0;
    const Vec3 n = (g.point_a - g.point_b) / g.distance;
    out[0] = {Vec3(g.point_b + margin * n), n, g.distance - margin};
    return 1;
  }
  // Deeper than the margin: the deepest vertex's contact as a point's.
  ContactGeometry deepest{Vec3::Zero(), Vec3::UnitZ(), kInfinity};
  for (const Vec3& v : p.vertices) {
    ContactGeometry h;
    if (sphere_cylinder(v, 0.0, c, kInfinity, h) && h.gap < deepest.gap) deepest = h;
  }
  if (deepest.gap > threshold) return 0;
  out[0] = deepest;
  return 1;
}

// The vertices' bounding box.
void bound(const std::vector<Vec3>& vertices, Vec3& lo, Vec3& hi) {
  lo = hi = vertices.front();
  for (const Vec3& v : vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
}

}  // namespace

void PlacedPolyhedron::place(const body::ConvexPolyhedron& polyhedron, const Vec3& x,
                             const Mat3& rotation) {
  shape = &polyhedron;
  centre = x;
  half_extents = polyhedron.box_half_extents;
  axes = rotation;
  size = 0.0;
  vertices.resize(polyhedron.vertices.size());
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    vertices[k] = x + rotation * polyhedron.vertices[k];
    size = std::max(size, polyhedron.vertices[k].norm());
  }
  bound(vertices, lo, hi);
  normals.resize(polyhedron.faces.size());
  offsets.resize(polyhedron.faces.size());
  for (std::size_t f = 0; f < normals.size(); ++f) {
    normals[f] = rotation * polyhedron.faces[f].normal;
    offsets[f] = polyhedron.faces[f].offset + normals[f].dot(x);
  }
  edge_directions.resize(polyhedron.edge_directions.size());
  for (std::size_t e = 0; e < edge_directions.size(); ++e)
    edge_directions[e] = rotation * polyhedron.edge_directions[e];
}

void PlacedPolyhedron::place(const body::Box& box) {
  const body::ConvexPolyhedron& unit = unit_box();
  const Mat3 rotation = box.orientation.toRotationMatrix();
  shape = &unit;
  centre = box.center;
  half_extents = box.half_extents;
  axes = rotation;
  size = box.half_extents.norm();
  vertices.resize(unit.vertices.size());
  for (std::size_t k = 0; k < vertices.size(); ++k)
    vertices[k] = box.center + rotation * unit.vertices[k].cwiseProduct(box.half_extents);
  bound(vertices, lo, hi);
  normals.resize(unit.faces.size());
  offsets.resize(unit.faces.size());
  for (std::size_t f = 0; f < normals.size(); ++f) {
    normals[f] = rotation * unit.faces[f].normal;
    offsets[f] = normals[f].dot(vertices[std::size_t(unit.faces[f].loop[0])]);
  }
  edge_directions.resize(unit.edge_directions.size());
  for (std::size_t e = 0; e < edge_directions.size(); ++e)
    edge_directions[e] = rotation * unit.edge_directions[e];
}

std::size_t polyhedron_polyhedron(const PlacedPolyhedron& a, const PlacedPolyhedron& b,
                                  double threshold, ContactGeometry out[kManifoldPoints],
                                  double* apart) {
  double unused;
  double& bound = apart != nullptr ? *apart : unused;
  bound = std::numeric_limits<double>::quiet_NaN();
  // The world axes first: bounding boxes apart by more than threshold (3 comparisons; most
  // pairs of a pile's neighbour list whose bounding spheres overlap end here).
  if (((a.lo - b.hi).array() > threshold).any() || ((b.lo - a.hi).array() > threshold).any()) {
    bound = std::max((a.lo - b.hi).maxCoeff(), (b.lo - a.hi).maxCoeff());
    return 0;
  }
  SeparatingAxes axes;
  if (!(a.is_box() && b.is_box() ? box_axes(a, b, threshold, axes)
                                 : general_axes(a, b, threshold, axes))) {
    bound = axes.apart;
    return 0;
  }
  const double bias = kAxisBias * (a.size + b.size);
  const bool on_a = axes.face_a > axes.face_b + bias;
  const double face = on_a ? axes.face_a : axes.face_b;
  const Vec3& face_normal =
      on_a ? a.normals[std::size_t(axes.fa)] : b.normals[std::size_t(axes.fb)];
  // Apart: the exact closest points (GJK), for an edge axis (the edge pair whose axis
  // separates most need not hold the closest features) and for a face whose clipped incident
  // face has no point within threshold (the closest features are edges or vertices beside it).
  const auto closest = [&](std::size_t& count, const Vec3& guess) {
    const GjkResult g = gjk_distance(PointSetSupport{a.vertices.data(), a.vertices.size()},
                                     PointSetSupport{b.vertices.data(), b.vertices.size()}, guess);
    if (g.overlap || !(g.distance > 0.0)) return false;
    count = 0;
    if (g.distance <= threshold)
      out[count++] = {g.point_b, Vec3((g.point_a - g.point_b) / g.distance), g.distance};
    else if (g.converged)
      bound = g.distance * (1.0 - kGjkRelativeError);  // |v| is within 1e-12 of the distance
    return true;
  };
  // Apart along an edge axis, the closest points of the two edges are the bodies' when they
  // are as far apart as the axis separates the bodies (a pair of points bounds the distance
  // from above, an axis from below): that certificate spares GJK (to its accuracy, 1e-12).
  const auto certified_edges = [&](std::size_t& count) {
    const Vec3 d1 = axes.edge_a[1] - axes.edge_a[0], d2 = axes.edge_b[1] - axes.edge_b[0];
    const auto [s, t] = closest_parameters(axes.edge_a[0], d1, axes.edge_b[0], d2);
    const Vec3 pa = axes.edge_a[0] + s * d1, pb = axes.edge_b[0] + t * d2;
    const double distance = (pa - pb).norm();
    if (!(distance > 0.0 && distance - axes.edge <= kCertified * (a.size + b.size))) return false;
    count = 0;
    if (distance <= threshold)
      out[count++] = {pb, Vec3((pa - pb) / distance), distance};
    else
      bound = axes.edge;
    return true;
  };
  // Every axis negative: no plane separates them, they overlap (GJK would find as much, at
  // the cost of a full run).
  const bool overlap = std::max({axes.face_a, axes.face_b, axes.edge}) < 0.0;
  std::size_t count = 0;
  const auto edge_pair = [&] {
    if (!overlap && certified_edges(count)) return count;
    if (!overlap && closest(count, axes.edge_normal)) return count;
    // Overlapping: the closest points of the two edges.
    return edge_contact(axes.edge_a, axes.edge_b, axes.edge_normal, 0.0, threshold, out[0])
               ? std::size_t{1}
               : std::size_t{0};
  };
  const auto manifold = [&](bool deepest_if_none) {
    return on_a ? face_contacts(a, axes.fa, b, false, threshold, deepest_if_none, out)
                : face_contacts(b, axes.fb, a, true, threshold, deepest_if_none, out);
  };
  if (axes.edge > face + bias) {
    if (std::abs(face_normal.dot(axes.edge_normal)) > 1.0 - kNearFaceCosine &&
        (count = manifold(false)) > 0 &&
        least_gap(out, count) <= axes.edge + kEdgeDepthPreference * std::max(0.0, -axes.edge))
      return count;
    return edge_pair();
  }
  if ((count = manifold(false)) > 0) return count;
  if (!overlap && closest(count, on_a ? Vec3(-face_normal) : face_normal)) return count;
  return manifold(true);  // overlapping at a face's rim: the incident body's deepest vertex
}

std::size_t capsule_polyhedron(const Vec3& a, const Vec3& b, double r, const PlacedPolyhedron& p,
                               double threshold, ContactGeometry out[2]) {
  const Vec3 d = b - a;
  const GjkResult g =
      gjk_distance(SegmentSupport{a, b}, PointSetSupport{p.vertices.data(), p.vertices.size()},
                   Vec3(0.5 * (a + b) - p.centre));
  if (!g.overlap && g.distance > 0.0) {
    if (g.distance - r > threshold) return 0;
    const Vec3 n = (g.point_a - g.point_b) / g.distance;
    const int f = most_aligned_face(p, n);
    const Vec3& nf = p.normals[std::size_t(f)];
    if (!d.isZero(0.0) && nf.dot(n) > 1.0 - kFaceCosine &&
        std::abs(nf.dot(g.point_b) - p.offsets[std::size_t(f)]) <= 1e-9 * p.size)
      if (const std::size_t count = clipped_segment(a, d, r, p, f, threshold, out)) return count;
    out[0] = {g.point_b, n, g.distance - r};
    return 1;
  }
  // The segment reaches into the polyhedron: separating axes, the faces' and the segment
  // crossed with the edge directions (oriented from the polyhedron to the segment).
  double face = -kInfinity;
  int f = -1;
  for (std::size_t k = 0; k < p.normals.size(); ++k) {
    const double s = std::min(p.normals[k].dot(a), p.normals[k].dot(b)) - p.offsets[k];
    if (s > face) {
      face = s;
      f = int(k);
    }
  }
  double edge = -kInfinity;
  int family = -1;
  Vec3 edge_normal = Vec3::Zero();
  for (std::size_t e = 0; e < p.edge_directions.size(); ++e) {
    Vec3 axis = cross(d, p.edge_directions[e]);
    const double length = axis.norm();
    if (length < kParallelSine * d.norm()) continue;
    axis /= length;
    const Interval segment{std::min(axis.dot(a), axis.dot(b)), std::max(axis.dot(a), axis.dot(b))};
    const double s = separation(segment, project(p.vertices, axis), axis);
    if (s > edge) {
      edge = s;
      family = int(e);
      edge_normal = axis;
    }
  }
  if (face - r > threshold && edge - r > threshold) return 0;
  if (edge > face + kAxisBias * (p.size + d.norm() + r))
    return edge_contact({a, b}, extreme_edge(p, family, edge_normal), edge_normal, r, threshold,
                        out[0])
               ? 1
               : 0;
  if (const std::size_t count = clipped_segment(a, d, r, p, f, threshold, out)) return count;
  // The segment's deeper end, if it lies beyond the face's rim.
  const Vec3& n = p.normals[std::size_t(f)];
  const Vec3 x = n.dot(a) <= n.dot(b) ? a : b;
  const double height = n.dot(x) - p.offsets[std::size_t(f)];
  if (height - r > threshold) return 0;
  out[0] = {Vec3(x - height * n), n, height - r};
  return 1;
}

std::size_t polyhedron_primitive(const PlacedPolyhedron& p, const body::Primitive& primitive,
                                 double threshold,
                                 ContactGeometry out[kPolyhedronPrimitiveContacts]) {
  if (const auto* plane = std::get_if<body::HalfSpace>(&primitive))
    return half_space_contacts(p, *plane, threshold, out);
  if (const auto* box = std::get_if<body::Box>(&primitive)) {
    thread_local PlacedPolyhedron placed;
    placed.place(*box);
    return polyhedron_polyhedron(p, placed, threshold, out);
  }
  if (const auto* wall = std::get_if<body::Mesh>(&primitive))
    return polyhedron_mesh(p, *wall, threshold, out, kPolyhedronPrimitiveContacts);
  const auto& cylinder = std::get<body::Cylinder>(primitive);
  return cylinder.inside ? drum_contacts(p, cylinder, threshold, out)
                         : solid_cylinder_contact(p, cylinder, threshold, out);
}

std::size_t polyhedron_global(const PlacedPolyhedron& p, const body::GlobalBody& body,
                              double threshold, ContactGeometry* out, std::size_t capacity) {
  return union_contacts<kPolyhedronPrimitiveContacts>(
      body, 1e-9 * p.size, out, capacity, [&](std::size_t k, ContactGeometry* found) {
        return polyhedron_primitive(p, body.parts[k], threshold, found);
      });
}

}  // namespace granite::collision
