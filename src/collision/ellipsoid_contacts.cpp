#include "granite/collision/ellipsoid_contacts.hpp"

#include "granite/collision/mesh_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

namespace granite::collision {

double ellipsoid_margin(const Vec3& semi_axes) {
  const double c = semi_axes.minCoeff(), a = semi_axes.maxCoeff();
  return 0.5 * c * c / a;
}

PlacedEllipsoid::PlacedEllipsoid(const Vec3& x, const Mat3& R, const Vec3& axes) :
    centre(x), rotation(R), semi_axes(axes), margin(ellipsoid_margin(axes)),
    shape(R * axes.cwiseProduct(axes).asDiagonal() * R.transpose()) {}

Mat3 PlacedEllipsoid::support_hessian(const Vec3& n) const {
  const Vec3 Mn = shape * n;
  const double h = std::sqrt(n.dot(Mn));
  return shape / h - Mn * Mn.transpose() / (h * h * h);
}

namespace detail {

bool polish_normal(const PlacedEllipsoid& e, const GjkResult& g, double margin_b,
                   const PlacedEllipsoid* other, Vec3& n) {
  const Vec3 n0 = n;
  Vec3 edge = Vec3::Zero();  // the feature's direction n is kept normal to
  if (other == nullptr) {
    if (g.feature_count == 3) return false;  // no face from a simplex: the caller's face test
    if (g.feature_count == 2) {
      edge = (g.feature_b[1] - g.feature_b[0]).normalized();
      n = (n - n.dot(edge) * edge).normalized();
    }
  }
  for (int k = 0; k < 16; ++k) {
    // ∇g = s_B(n) − s_E(−n), ∇²g = H_E + H_B (g = h_E(−n) + h_B(n) = −σ).
    const Vec3 p_b = other != nullptr ? other->support(n) : Vec3(g.feature_b[0] + margin_b * n);
    const Vec3 grad = p_b - e.support(Vec3(-n));
    Mat3 hess = e.support_hessian(n);
    hess += other != nullptr ? other->support_hessian(n)
                             : Mat3(margin_b * (Mat3::Identity() - n * n.transpose()));
    const double curvature_shift = n.dot(grad);
    Vec3 step = Vec3::Zero();
    if (edge.isZero(0.0)) {  // T: two unit vectors normal to n
      Eigen::Matrix<double, 3, 2> T;
      T.col(0) = n.unitOrthogonal();
      T.col(1) = cross(n, T.col(0));
      Eigen::Matrix2d H = T.transpose() * hess * T;
      H.diagonal().array() -= curvature_shift;
      if (!(H.determinant() > 0.0) || !(H.trace() > 0.0)) return false;  // not a maximum of σ
      step = -(T * (H.inverse() * (T.transpose() * grad)));
    } else {  // T: the unit vector normal to n and to the edge
      const Vec3 t = cross(n, edge).normalized();
      const double H = t.dot(hess * t) - curvature_shift;
      if (!(H > 0.0)) return false;
      step = -(t.dot(grad) / H) * t;
    }
    n = (n + step).normalized();
    if (!edge.isZero(0.0)) n = (n - n.dot(edge) * edge).normalized();
    if (step.norm() <= 1e-12) return n.dot(n0) > 0.5;
  }
  return false;
}

ContactGeometry contact_along(const PlacedEllipsoid& e, const Vec3& n, const Vec3& on_b) {
  return {on_b, n, n.dot(e.support(Vec3(-n)) - on_b)};
}

bool feature_contact(const PlacedEllipsoid& e, const GjkResult& g, double margin_b, const Vec3& n,
                     ContactGeometry& out) {
  const Vec3 p_e = e.support(Vec3(-n));
  const Vec3& q = g.feature_b[0];
  const double gap = n.dot(p_e - q) - margin_b;
  const Vec3 on_core = p_e - (gap + margin_b) * n;  // on the feature's plane through q
  // on_core must lie on the feature: q itself, or the edge between q and the second point.
  const double scale = e.size() + (q - e.centre).norm() + margin_b;
  Vec3 off = on_core - q;
  if (g.feature_count == 2) {
    const Vec3 d = g.feature_b[1] - q;
    const double t = off.dot(d) / d.squaredNorm();
    if (t < -1e-12 || t > 1.0 + 1e-12) return false;
    off -= t * d;
  }
  if (off.norm() > 1e-9 * scale) return false;
  out = {Vec3(on_core + margin_b * n), n, gap};
  return true;
}

Vec3 fallback_normal(const PlacedEllipsoid& e, const Vec3& centre_b) {
  const Vec3 d = e.centre - centre_b;
  const double norm = d.norm();
  return norm > 0.0 ? Vec3(d / norm) : Vec3(Vec3::UnitZ());
}

ContactGeometry closest_points_contact(const PlacedEllipsoid& e, const GjkResult& g,
                                       double margin_b) {
  const Vec3 n = (g.point_a - g.point_b) / g.distance;
  return {Vec3(g.point_b + margin_b * n), n, g.distance - e.margin - margin_b};
}

}  // namespace detail

namespace {

bool half_space_contact(const PlacedEllipsoid& e, const body::HalfSpace& plane, double threshold,
                        ContactGeometry& out) {
  const Vec3 deepest = e.support(Vec3(-plane.normal));
  const double gap = plane.normal.dot(deepest - plane.point);
  if (gap > threshold) return false;
  out = {Vec3(deepest - gap * plane.normal), plane.normal, gap};
  return true;
}

// The caps: E's support point along ±u, its height against the cap at L; the mantle: the point
// of E farthest from the axis, by the monotone ascent of the header.
std::size_t drum_contacts(const PlacedEllipsoid& e, const body::Cylinder& drum, double threshold,
                          ContactGeometry* out) {
  const Vec3& u = drum.axis;
  std::size_t count = 0;
  for (const double side : {1.0, -1.0}) {
    const Vec3 p = e.support(Vec3(side * u));
    const double gap = drum.half_length - side * u.dot(p - drum.center);
    if (gap <= threshold) out[count++] = {Vec3(p + gap * side * u), Vec3(-side * u), gap};
  }
  const auto across = [&](const Vec3& x) {
    const Vec3 r = x - drum.center;
    return Vec3(r - u.dot(r) * u);
  };
  // w(θ) = cos θ e1 + sin θ e2 across the axis; φ(θ) = h_E(w) − w·c is the reach along w.
  // A few monotone ascent steps from the centre's direction, then Newton's method on φ:
  // φ' = (s_E(w) − c)·w', φ'' = w'ᵀ H_E(w) w' − (s_E(w) − c)·w (w'' = −w).
  Vec3 w = across(e.centre);
  if (!(w.norm() > 1e-12 * e.size())) w = u.unitOrthogonal();
  w.normalize();
  for (int k = 0; k < 4; ++k) {
    const Vec3 r = across(e.support(w));
    if (!(r.norm() > 0.0)) break;
    w = r.normalized();
  }
  const auto reach_along = [&](const Vec3& v) { return v.dot(e.support(v) - drum.center); };
  double reach = reach_along(w);
  for (int k = 0; k < 20; ++k) {
    const Vec3 w_prime = cross(u, w);  // dw/dθ
    const Vec3 arm = e.support(w) - drum.center;
    const double slope = arm.dot(w_prime);
    const double bend = w_prime.dot(e.support_hessian(w) * w_prime) - arm.dot(w);
    if (!(bend < 0.0)) break;  // not near a maximum: keep the ascent's direction
    double step = std::clamp(-slope / bend, -0.5, 0.5);
    const auto turned = [&](double angle) {
      return Vec3((std::cos(angle) * w + std::sin(angle) * w_prime).normalized());
    };
    if (std::abs(step) <= 1e-6) {  // within Newton's quadratic reach, where rounding hides φ's rise
      w = turned(step);
      reach = reach_along(w);
      if (std::abs(step) <= 1e-13) break;
      continue;
    }
    Vec3 next = turned(step);
    for (int half = 0; half < 30 && reach_along(next) < reach; ++half) next = turned(step *= 0.5);
    const double next_reach = reach_along(next);
    if (next_reach < reach) break;  // no step raises φ
    w = next;
    reach = next_reach;
  }
  const Vec3 p = e.support(w);
  const double gap = drum.radius - reach;
  if (gap <= threshold) {
    const double height = std::clamp(u.dot(p - drum.center), -drum.half_length, drum.half_length);
    out[count++] = {Vec3(drum.center + height * u + drum.radius * w), Vec3(-w), gap};
  }
  return count;
}

}  // namespace

std::size_t ellipsoid_polyhedron(const PlacedEllipsoid& e, const PlacedPolyhedron& p,
                                 double threshold, ContactGeometry& out) {
  const auto face = [&](const Vec3& normal, ContactGeometry& exact) {
    int best = -1;
    double alignment = 1.0 - kFaceAlignment;
    for (std::size_t f = 0; f < p.normals.size(); ++f)
      if (const double c = p.normals[f].dot(normal); c > alignment) alignment = c, best = int(f);
    if (best < 0) return false;
    const Vec3& n = p.normals[std::size_t(best)];
    const Vec3 p_e = e.support(Vec3(-n));
    const double gap = n.dot(p_e) - p.offsets[std::size_t(best)];
    const Vec3 on_face = p_e - gap * n;
    const double tolerance = 1e-12 * (p.size + e.size() + (p.centre - e.centre).norm());
    for (std::size_t f = 0; f < p.normals.size(); ++f)
      if (f != std::size_t(best) && p.normals[f].dot(on_face) - p.offsets[f] > tolerance)
        return false;
    exact = {on_face, n, gap};
    return true;
  };
  return ellipsoid_convex(e, PointSetSupport{p.vertices.data(), p.vertices.size()}, 0.0, p.centre,
                          threshold, out, nullptr, true, face)
             ? 1
             : 0;
}

std::size_t ellipsoid_primitive(const PlacedEllipsoid& e, const body::Primitive& primitive,
                                double threshold,
                                ContactGeometry out[kEllipsoidPrimitiveContacts]) {
  if (const auto* plane = std::get_if<body::HalfSpace>(&primitive))
    return half_space_contact(e, *plane, threshold, out[0]) ? 1 : 0;
  if (const auto* box = std::get_if<body::Box>(&primitive)) {
    thread_local PlacedPolyhedron placed;
    placed.place(*box);
    return ellipsoid_polyhedron(e, placed, threshold, out[0]);
  }
  if (const auto* wall = std::get_if<body::Mesh>(&primitive))
    return ellipsoid_mesh(e, *wall, threshold, out, kEllipsoidPrimitiveContacts);
  const auto& c = std::get<body::Cylinder>(primitive);
  if (c.inside) return drum_contacts(e, c, threshold, out);
  return ellipsoid_convex(e, CylinderSupport{c.center, c.axis, c.radius, c.half_length}, 0.0,
                          c.center, threshold, out[0], nullptr, false)
             ? 1
             : 0;
}

std::size_t ellipsoid_global(const PlacedEllipsoid& e, const body::GlobalBody& body,
                             double threshold, ContactGeometry* out, std::size_t capacity) {
  return union_contacts<kEllipsoidPrimitiveContacts>(
      body, 1e-9 * e.size(), out, capacity, [&](std::size_t k, ContactGeometry* found) {
        return ellipsoid_primitive(e, body.parts[k], threshold, found);
      });
}

}  // namespace granite::collision
