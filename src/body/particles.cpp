#include "granite/body/particles.hpp"

#include "granite/core/error.hpp"

#include <algorithm>
#include <numbers>
#include <string>

namespace granite::body {

double sphere_mass(double density, double radius) {
  return density * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
}

Mat3 sphere_inertia(double mass, double radius) {
  return (0.4 * mass * radius * radius) * Mat3::Identity();
}

BodyId Particles::add(const ParticleInit& init) {
  if (!(init.radius > 0.0))
    throw InputError("particle radius must be > 0 m, got " + std::to_string(init.radius));
  if (!(init.mass > 0.0))
    throw InputError("particle mass must be > 0 kg, got " + std::to_string(init.mass));
  const BodyId body = init.id >= 0 ? init.id : next_id_;
  next_id_ = std::max(next_id_, body + 1);
  id.push_back(body);
  position.push_back(init.position);
  orientation.push_back(init.orientation.normalized());
  velocity.push_back(init.velocity);
  angular_velocity.push_back(init.angular_velocity);
  force.push_back(Vec3::Zero());
  torque.push_back(Vec3::Zero());
  mass.push_back(init.mass);
  inverse_mass.push_back(1.0 / init.mass);
  body_inertia.push_back(init.body_inertia);
  inverse_body_inertia.push_back(init.body_inertia.inverse());
  radius.push_back(init.radius);
  material.push_back(init.material);
  return body;
}

BodyId Particles::add_sphere(const MaterialTable& materials, MaterialIndex mat, const Vec3& pos,
                             double r, const Vec3& vel, BodyId body) {
  if (mat >= materials.size())
    throw InputError("particle material index " + std::to_string(mat) + " is not defined (" +
                     std::to_string(materials.size()) + " materials)");
  ParticleInit init;
  init.id = body;
  init.position = pos;
  init.velocity = vel;
  init.radius = r;
  init.mass = sphere_mass(materials[mat].density, r);
  init.body_inertia = sphere_inertia(init.mass, r);
  init.material = mat;
  return add(init);
}

namespace {
template <class T>
void compact(std::vector<T>& a, const std::vector<char>& keep) {
  std::size_t w = 0;
  for (std::size_t r = 0; r < a.size(); ++r)
    if (keep[r]) {
      if (w != r) a[w] = a[r];
      ++w;
    }
  a.resize(w);
}
}  // namespace

std::size_t Particles::remove_if(const std::function<bool(std::size_t)>& predicate) {
  const std::size_t n = size();
  std::vector<char> keep(n);
  std::size_t removed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    keep[i] = predicate(i) ? 0 : 1;
    removed += keep[i] ? 0 : 1;
  }
  if (removed == 0) return 0;
  compact(id, keep);
  compact(position, keep);
  compact(orientation, keep);
  compact(velocity, keep);
  compact(angular_velocity, keep);
  compact(force, keep);
  compact(torque, keep);
  compact(mass, keep);
  compact(inverse_mass, keep);
  compact(body_inertia, keep);
  compact(inverse_body_inertia, keep);
  compact(radius, keep);
  compact(material, keep);
  return removed;
}

void Particles::clear() {
  remove_if([](std::size_t) { return true; });
}

void Particles::reserve(std::size_t n) {
  id.reserve(n);
  position.reserve(n);
  orientation.reserve(n);
  velocity.reserve(n);
  angular_velocity.reserve(n);
  force.reserve(n);
  torque.reserve(n);
  mass.reserve(n);
  inverse_mass.reserve(n);
  body_inertia.reserve(n);
  inverse_body_inertia.reserve(n);
  radius.reserve(n);
  material.reserve(n);
}

std::ptrdiff_t Particles::find(BodyId body) const {
  const auto it = std::find(id.begin(), id.end(), body);
  return it == id.end() ? -1 : std::ptrdiff_t(it - id.begin());
}

double Particles::max_radius() const {
  double r = 0.0;
  for (double x : radius) r = std::max(r, x);
  return r;
}

Mat3 Particles::world_inertia(std::size_t i) const {
  const Mat3 R = orientation[i].toRotationMatrix();
  return R * body_inertia[i] * R.transpose();
}

Mat3 Particles::world_inverse_inertia(std::size_t i) const {
  const Mat3 R = orientation[i].toRotationMatrix();
  return R * inverse_body_inertia[i] * R.transpose();
}

double Particles::kinetic_energy(std::size_t i) const {
  const Vec3& w = angular_velocity[i];
  return 0.5 * mass[i] * velocity[i].squaredNorm() + 0.5 * w.dot(world_inertia(i) * w);
}

double Particles::total_kinetic_energy() const {
  double e = 0.0;
  for (std::size_t i = 0; i < size(); ++i) e += kinetic_energy(i);
  return e;
}

}  // namespace granite::body
