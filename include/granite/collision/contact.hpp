#pragma once
// The contacts found by detection, stored as arrays indexed by contact j.
//
// body1[j] is a particle index. body2[j] is a particle index when < num_particles, and the
// global body (body2[j] - num_particles) otherwise. The normal n points from body 2 to body 1
// so that a positive normal impulse pushes body 1 away from body 2. gap[j] is the signed gap
// ξ (negative = penetration). The right-handed orthonormal contact frame (n, t, o) follows
// from n alone (tangent_frame; frame(j)): it is not stored.
// point[j] is the witness point on body 2's surface; body 1's witness point, on its own
// surface, is point[j] + ξ n (witness1). Each body's lever arm is measured from its own
// witness point; for a touching pair (ξ = 0) the two coincide. The pair's friction μ is its
// bodies' materials' (MaterialTable::pair_friction), which the solver's setup takes.
#include "granite/core/types.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace granite::collision {

using BodyIndex = std::uint32_t;

struct ContactList {
  std::size_t num_particles = 0;  // the particle count at detection time (see body2)

  std::vector<BodyIndex> body1;
  std::vector<BodyIndex> body2;
  std::vector<Vec3> point;  // witness point on body 2's surface
  std::vector<Vec3> normal;
  std::vector<double> gap;

  std::size_t size() const { return body1.size(); }
  bool involves_global(std::size_t j) const { return body2[j] >= num_particles; }
  std::size_t global_index(std::size_t j) const { return body2[j] - num_particles; }
  /// The witness points on body 1's and body 2's surfaces.
  Vec3 witness1(std::size_t j) const { return point[j] + gap[j] * normal[j]; }
  const Vec3& witness2(std::size_t j) const { return point[j]; }
  /// The contact frame Q = [n t o] (tangent_frame of normal[j]).
  Mat3 frame(std::size_t j) const;
  /// Keeps only the contacts j with keep(j) true, preserving their order; returns how many
  /// were dropped. (Used to keep the contacts a process is responsible for.)
  template <class Keep>
  std::size_t retain(Keep&& keep);
  /// Empties the list but keeps the capacity (no per-step reallocation).
  void clear();
  void push_back(BodyIndex b1, BodyIndex b2, const Vec3& p, const Vec3& n, double gap_value);
};

/// Calls f(array) for every per-contact array of `contacts` (const or not): the one list of
/// them, from which retain() and clear() are generated. Inline, so as fast as writing them out.
template <class List, class F>
void for_each_array(List& contacts, F&& f) {
  f(contacts.body1);
  f(contacts.body2);
  f(contacts.point);
  f(contacts.normal);
  f(contacts.gap);
}

template <class Keep>
std::size_t ContactList::retain(Keep&& keep) {
  const std::size_t m = size();
  std::size_t w = 0;
  for (std::size_t j = 0; j < m; ++j) {
    if (!keep(j)) continue;
    if (w != j) for_each_array(*this, [&](auto& a) { a[w] = a[j]; });
    ++w;
  }
  for_each_array(*this, [&](auto& a) { a.resize(w); });
  return m - w;
}

// The branch-free basis of Duff et al., "Building an orthonormal basis, revisited" (JCGT 6(1),
// 2017): one division, no square root; with σ = sign(n_z) and a = −1/(σ + n_z)
// (|σ + n_z| ≥ 1), t = (1 + σ a n_x², σ a n_x n_y, −σ n_x), o = (a n_x n_y, σ + a n_y², −n_y).
// It replaced the cross product with the least aligned axis (a branch, a square root and a
// division), which the per-contact detection made costly (docs/performance.md).
/// The basis's coefficient a = −1/(σ + n_z): with n it fixes t and o (the solver's contacts
/// keep n and a instead of the frame's nine entries).
inline double tangent_coefficient(const Vec3& n) {
  return -1.0 / (std::copysign(1.0, n.z()) + n.z());
}
/// t and o from n and its tangent_coefficient: products only, no division.
inline void tangent_frame(const Vec3& n, double a, Vec3& t, Vec3& o) {
  const double sigma = std::copysign(1.0, n.z());
  const double b = n.x() * n.y() * a;
  t = Vec3(1.0 + sigma * n.x() * n.x() * a, sigma * b, -sigma * n.x());
  o = Vec3(b, sigma + n.y() * n.y() * a, -n.y());
}
/// Right-handed orthonormal tangent pair for a unit normal: t ⊥ n, o = n × t (Duff et al. 2017,
/// branch-free; for n = ±z, t = x). Deterministic (depends only on n).
inline void tangent_frame(const Vec3& n, Vec3& t, Vec3& o) {
  tangent_frame(n, tangent_coefficient(n), t, o);
}
/// Q = [n t o] from n and its tangent_coefficient.
inline Mat3 contact_frame(const Vec3& n, double a) {
  Mat3 q;
  q.col(0) = n;
  Vec3 t, o;
  tangent_frame(n, a, t, o);
  q.col(1) = t;
  q.col(2) = o;
  return q;
}

// Inline: the narrow phase adds every contact of every step here.
inline void ContactList::push_back(BodyIndex b1, BodyIndex b2, const Vec3& p, const Vec3& n,
                                   double gap_value) {
  // Grown by a quarter, not doubled: the list is kept at its largest size over the run.
  if (body1.size() == body1.capacity()) {
    const std::size_t more = body1.size() + body1.size() / 4 + 16;
    for_each_array(*this, [&](auto& a) { a.reserve(more); });
  }
  body1.push_back(b1);
  body2.push_back(b2);
  point.push_back(p);
  normal.push_back(n);
  gap.push_back(gap_value);
}

// Inline: the setup forms every contact's frame once per step (storing t and o at detection
// instead moves 48 bytes per contact twice more through memory; docs/performance.md).
inline Mat3 ContactList::frame(std::size_t j) const {
  return contact_frame(normal[j], tangent_coefficient(normal[j]));
}

}  // namespace granite::collision
