// Particle storage: every operation on the arrays loops over the field table.
#include "granite/body/particles.hpp"

#include "granite/body/particle_fields.hpp"
#include "granite/core/error.hpp"

#include <algorithm>
#include <cstdint>
#include <numbers>
#include <string>
#include <type_traits>

namespace granite::body {

double sphere_mass(double density, double radius) {
  return density * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
}

Mat3 sphere_inertia(double mass, double radius) {
  return (0.4 * mass * radius * radius) * Mat3::Identity();
}

BodyId Particles::add(const ParticleInit& init) {
  ParticleInit row = init;
  row.id = init.id >= 0 ? init.id : next_id_;
  row.orientation = init.orientation.normalized();
  add_exact(row);
  return row.id;
}

void Particles::add_exact(const ParticleInit& row) {
  if (!(row.radius > 0.0))
    throw InputError("particle radius must be > 0 m, got " + std::to_string(row.radius));
  if (!(row.mass > 0.0))
    throw InputError("particle mass must be > 0 kg, got " + std::to_string(row.mass));
  for_each_particle_field(
      [&](const auto& field) { (this->*field.array).push_back(field.value(row)); });
  next_id_ = std::max(next_id_, row.id + 1);
}

namespace {
void check_material(const MaterialTable& materials, MaterialIndex mat) {
  if (mat >= materials.size())
    throw InputError("particle material index " + std::to_string(mat) + " is not defined (" +
                     std::to_string(materials.size()) + " materials)");
}
}  // namespace

BodyId Particles::add_sphere(const MaterialTable& materials, MaterialIndex mat, const Vec3& pos,
                             double r, const Vec3& vel, BodyId body, std::int32_t tag, bool fixed) {
  check_material(materials, mat);
  ParticleInit init;
  init.id = body;
  init.position = pos;
  init.velocity = vel;
  init.radius = r;
  init.mass = sphere_mass(materials[mat].density, r);
  init.body_inertia = sphere_inertia(init.mass, r);
  init.material = mat;
  init.group = tag;
  init.fixed = fixed ? 1 : 0;
  return add(init);
}

BodyId Particles::add_shaped(const MaterialTable& materials, const ShapeTable& shapes,
                             ShapeIndex shape, MaterialIndex mat, const Vec3& pos,
                             const Quat& orientation, const Vec3& vel, BodyId body,
                             std::int32_t tag, bool fixed) {
  check_material(materials, mat);
  if (shape < 0 || std::size_t(shape) >= shapes.size())
    throw InputError("particle shape index " + std::to_string(shape) + " is not defined (" +
                     std::to_string(shapes.size()) + " shapes)");
  const Shape& s = shapes[shape];
  const double density = materials[mat].density;
  ParticleInit init;
  init.id = body;
  init.position = pos;
  init.orientation = orientation;
  init.velocity = vel;
  init.radius = s.bounding_radius;
  init.shape = shape;
  init.mass = density * s.unit_mass.volume;
  init.body_inertia = density * s.unit_mass.inertia;
  init.material = mat;
  init.group = tag;
  init.fixed = fixed ? 1 : 0;
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

template <class T>
void gather(std::vector<T>& a, const std::vector<std::uint32_t>& order, std::vector<T>& scratch) {
  scratch.resize(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) scratch[k] = a[order[k]];
  std::copy(scratch.begin(), scratch.end(), a.begin());
}
}  // namespace

void Particles::permute(const std::vector<std::uint32_t>& order) {
  for_each_particle_field([&](const auto& field) {
    auto& a = this->*field.array;
    std::remove_reference_t<decltype(a)> scratch;
    gather(a, order, scratch);
  });
}

std::size_t Particles::remove_if(const std::function<bool(std::size_t)>& predicate) {
  const std::size_t n = size();
  std::vector<char> keep(n);
  std::size_t removed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    keep[i] = predicate(i) ? 0 : 1;
    removed += keep[i] ? 0 : 1;
  }
  if (removed == 0) return 0;
  for_each_particle_field([&](const auto& field) { compact(this->*field.array, keep); });
  return removed;
}

void Particles::append(const Particles& other) {
  for_each_particle_field([&](const auto& field) {
    auto& to = this->*field.array;
    const auto& from = other.*field.array;
    to.insert(to.end(), from.begin(), from.end());
  });
  next_id_ = std::max(next_id_, other.next_id_);
}

void Particles::truncate(std::size_t n) {
  for_each_particle_field([&](const auto& field) { (this->*field.array).resize(n); });
}

void Particles::clear() {
  for_each_particle_field([&](const auto& field) { (this->*field.array).clear(); });
}

void Particles::shrink_to_fit() {
  for_each_particle_field([&](const auto& field) { (this->*field.array).shrink_to_fit(); });
}

void Particles::reserve(std::size_t n) {
  for_each_particle_field([&](const auto& field) { (this->*field.array).reserve(n); });
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
  return R * inverse_body_inertia(i) * R.transpose();
}

double Particles::rotational_energy(std::size_t i) const {
  // ½ ωᵀ R I0 Rᵀ ω = ½ ω_bᵀ I0 ω_b with ω_b = Rᵀω: one rotation instead of forming R I0 Rᵀ.
  const Vec3 wb = orientation[i].conjugate() * angular_velocity[i];
  return 0.5 * wb.dot(body_inertia[i] * wb);
}

double Particles::kinetic_energy(std::size_t i) const {
  return 0.5 * mass[i] * velocity[i].squaredNorm() + rotational_energy(i);
}

double Particles::total_kinetic_energy() const {
  double e = 0.0;
  for (std::size_t i = 0; i < size(); ++i) e += kinetic_energy(i);
  return e;
}

}  // namespace granite::body
