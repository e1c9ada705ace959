#include "granite/parallel/body_record.hpp"

namespace granite::parallel {

namespace {
std::array<double, 3> raw(const Vec3& v) { return {v[0], v[1], v[2]}; }
Vec3 vec(const std::array<double, 3>& a) { return {a[0], a[1], a[2]}; }
}  // namespace

BodyRecord pack(const body::Particles& p, std::size_t i, const Vec3& shift) {
  BodyRecord r;
  r.id = p.id[i];
  r.position = raw(p.position[i] + shift);
  const Quat& q = p.orientation[i];
  r.orientation = {q.w(), q.x(), q.y(), q.z()};
  r.velocity = raw(p.velocity[i]);
  r.angular_velocity = raw(p.angular_velocity[i]);
  r.force = raw(p.force[i]);
  r.torque = raw(p.torque[i]);
  r.mass = p.mass[i];
  Eigen::Map<Mat3>(r.body_inertia.data()) = p.body_inertia[i];
  r.radius = p.radius[i];
  r.material = p.material[i];
  return r;
}

void unpack(const BodyRecord& r, body::Particles& particles) {
  body::ParticleInit init;
  init.id = r.id;
  init.position = vec(r.position);
  init.velocity = vec(r.velocity);
  init.angular_velocity = vec(r.angular_velocity);
  init.radius = r.radius;
  init.mass = r.mass;
  init.body_inertia = Eigen::Map<const Mat3>(r.body_inertia.data());
  init.material = r.material;
  particles.add(init);
  // Bit-exact copy of the orientation (add() renormalises).
  particles.orientation.back() =
      Quat(r.orientation[0], r.orientation[1], r.orientation[2], r.orientation[3]);
  particles.force.back() = vec(r.force);
  particles.torque.back() = vec(r.torque);
}

}  // namespace granite::parallel
