#include "granite/body/global_body.hpp"

#include "granite/body/triangle_mesh.hpp"
#include "granite/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace granite::body {

namespace {

double box_signed_distance(const Box& box, const Vec3& x) {
  const Vec3 local = box.orientation.conjugate() * (x - box.center);
  const Vec3 q = local.cwiseAbs() - box.half_extents;
  const double outside = q.cwiseMax(0.0).norm();
  const double inside = std::min(q.maxCoeff(), 0.0);
  return outside + inside;
}

double cylinder_signed_distance(const Cylinder& c, const Vec3& x) {
  const Vec3 d = x - c.center;
  const double h = d.dot(c.axis);
  const double rho = (d - h * c.axis).norm();
  const double qr = rho - c.radius, qh = std::abs(h) - c.half_length;
  const double outside = std::hypot(std::max(qr, 0.0), std::max(qh, 0.0));
  const double distance = outside + std::min(std::max(qr, qh), 0.0);
  return c.inside ? -distance : distance;
}

void validate(Primitive& p) {
  if (const PrimitiveProblem problem = primitive_problem(p))
    throw InputError(problem.key + ": " + problem.expectation);
  if (auto* h = std::get_if<HalfSpace>(&p)) {
    h->normal /= h->normal.norm();
  } else if (auto* b = std::get_if<Box>(&p)) {
    b->orientation.normalize();
  } else if (auto* c = std::get_if<Cylinder>(&p)) {
    c->axis /= c->axis.norm();
  } else {
    std::get<Mesh>(p).orientation.normalize();
  }
}

}  // namespace

PrimitiveProblem primitive_problem(const Primitive& p) {
  if (const auto* h = std::get_if<HalfSpace>(&p)) {
    if (!(h->normal.norm() > 0.0)) return {"normal", "expected a non-zero vector"};
  } else if (const auto* b = std::get_if<Box>(&p)) {
    if (!(b->half_extents.minCoeff() > 0.0)) return {"half_extents", "expected each > 0 m"};
    if (!(b->orientation.norm() > 0.0)) return {"orientation", "axis: expected a non-zero vector"};
  } else if (const auto* c = std::get_if<Cylinder>(&p)) {
    if (!(c->axis.norm() > 0.0)) return {"axis", "expected a non-zero vector"};
    if (!(c->radius > 0.0)) return {"radius", "expected > 0 m"};
    if (!(c->half_length > 0.0)) return {"half_length", "expected > 0 m"};
  } else if (const auto* m = std::get_if<Mesh>(&p)) {
    if (!m->mesh) return {"file", "expected a triangle mesh"};
    if (!(m->orientation.norm() > 0.0)) return {"orientation", "axis: expected a non-zero vector"};
  }
  return {};
}

double signed_distance(const Primitive& primitive, const Vec3& x, double bound) {
  if (const auto* h = std::get_if<HalfSpace>(&primitive)) return (x - h->point).dot(h->normal);
  if (const auto* b = std::get_if<Box>(&primitive)) return box_signed_distance(*b, x);
  if (const auto* m = std::get_if<Mesh>(&primitive)) return m->mesh->distance(m->to_mesh(x), bound);
  return cylinder_signed_distance(std::get<Cylinder>(primitive), x);
}

bool translated_copy(const Primitive& now, const Primitive& then, Vec3& d) {
  if (now.index() != then.index()) return false;
  d = anchor(now) - anchor(then);
  if (const auto* h = std::get_if<HalfSpace>(&now))
    return h->normal == std::get<HalfSpace>(then).normal;
  if (const auto* x = std::get_if<Box>(&now)) {
    const auto& y = std::get<Box>(then);
    return x->half_extents == y.half_extents && x->orientation.coeffs() == y.orientation.coeffs();
  }
  if (const auto* x = std::get_if<Mesh>(&now)) {
    const auto& y = std::get<Mesh>(then);
    return x->mesh == y.mesh && x->orientation.coeffs() == y.orientation.coeffs();
  }
  const auto& x = std::get<Cylinder>(now);
  const auto& y = std::get<Cylinder>(then);
  return x.axis == y.axis && x.radius == y.radius && x.half_length == y.half_length &&
         x.inside == y.inside;
}

Vec3& anchor(Primitive& primitive) {
  return std::visit(
      [](auto& p) -> Vec3& {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, HalfSpace>)
          return p.point;
        else if constexpr (std::is_same_v<P, Mesh>)
          return p.position;
        else
          return p.center;
      },
      primitive);
}

const Vec3& anchor(const Primitive& primitive) { return anchor(const_cast<Primitive&>(primitive)); }

void translate(Primitive& primitive, const Vec3& d) { anchor(primitive) += d; }

void rotate(Primitive& primitive, const Quat& q, const Vec3& about) {
  Vec3& a = anchor(primitive);
  a = about + q * (a - about);
  if (auto* h = std::get_if<HalfSpace>(&primitive)) {
    h->normal = q * h->normal;
  } else if (auto* b = std::get_if<Box>(&primitive)) {
    b->orientation = (q * b->orientation).normalized();
  } else if (auto* c = std::get_if<Cylinder>(&primitive)) {
    c->axis = q * c->axis;
  } else {
    auto& m = std::get<Mesh>(primitive);
    m.orientation = (q * m.orientation).normalized();
  }
}

std::vector<double> GlobalBodies::anchors() const {
  std::vector<double> out;
  for (const GlobalBody& body : bodies_)
    for (const Primitive& part : body.parts) {
      const Vec3& a = anchor(part);
      out.insert(out.end(), {a[0], a[1], a[2]});
    }
  return out;
}

void GlobalBodies::set_anchors(const std::vector<double>& anchors) {
  std::size_t k = 0;
  for (GlobalBody& body : bodies_)
    for (Primitive& part : body.parts) {
      if (k + 3 > anchors.size())
        throw InputError("checkpoint: fewer global-body positions than the configuration has");
      anchor(part) = Vec3(anchors[k], anchors[k + 1], anchors[k + 2]);
      k += 3;
    }
  if (k != anchors.size())
    throw InputError("checkpoint: more global-body positions than the configuration has");
}

std::size_t GlobalBodies::add(GlobalBody body) {
  if (body.parts.empty()) throw InputError("a global body needs at least one primitive");
  for (auto& p : body.parts) validate(p);
  bodies_.push_back(std::move(body));
  return bodies_.size() - 1;
}

std::size_t GlobalBodies::add(const Primitive& primitive, MaterialIndex material,
                              const Vec3& velocity) {
  GlobalBody body;
  body.parts.push_back(primitive);
  body.material = material;
  body.velocity = velocity;
  return add(std::move(body));
}

void GlobalBodies::move(std::size_t i, const Vec3& d) {
  for (auto& p : bodies_[i].parts) translate(p, d);
  bodies_[i].rotation_center += d;
}

void GlobalBodies::advance(double dt) {
  for (auto& b : bodies_) {
    const double angle = dt * b.angular_velocity.norm();
    if (angle > 0.0) {
      const Quat q(Eigen::AngleAxisd(angle, b.angular_velocity.normalized()));
      for (auto& p : b.parts) rotate(p, q, b.rotation_center);
    }
    if (b.velocity != Vec3::Zero()) {
      for (auto& p : b.parts) translate(p, dt * b.velocity);
      b.rotation_center += dt * b.velocity;
    }
  }
}

}  // namespace granite::body
