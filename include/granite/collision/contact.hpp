#pragma once
// The contacts found by detection, stored as arrays indexed by contact j.
//
// body1[j] is a particle index. body2[j] is a particle index when < num_particles, and the
// global body (body2[j] - num_particles) otherwise. The normal n points from body 2 to body 1
// so that a positive normal impulse pushes body 1 away from body 2. gap[j] is the signed gap
// ξ (negative = penetration). (n, t, o) is a right-handed orthonormal contact frame.
// point[j] is the witness point on body 2's surface; body 1's witness point, on its own
// surface, is point[j] + ξ n (witness1). Each body's lever arm is measured from its own
// witness point; for a touching pair (ξ = 0) the two coincide.
#include "granite/core/types.hpp"

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
  std::vector<Vec3> tangent;    // t
  std::vector<Vec3> bitangent;  // o = n × t
  std::vector<double> gap;
  std::vector<double> friction;  // μ of the pair

  std::size_t size() const { return body1.size(); }
  bool involves_global(std::size_t j) const { return body2[j] >= num_particles; }
  std::size_t global_index(std::size_t j) const { return body2[j] - num_particles; }
  /// The witness points on body 1's and body 2's surfaces.
  Vec3 witness1(std::size_t j) const { return point[j] + gap[j] * normal[j]; }
  const Vec3& witness2(std::size_t j) const { return point[j]; }
  /// Keeps only the contacts j with keep(j) true, preserving their order; returns how many
  /// were dropped. (Used to keep the contacts a process is responsible for.)
  template <class Keep>
  std::size_t retain(Keep&& keep);
  /// Empties the list but keeps the capacity (no per-step reallocation).
  void clear();
  void push_back(BodyIndex b1, BodyIndex b2, const Vec3& p, const Vec3& n, double gap_value,
                 double mu);
};

/// Calls f(array) for every per-contact array of `contacts` (const or not): the one list of
/// them, from which retain() and clear() are generated. Inline, so as fast as writing them out.
template <class List, class F>
void for_each_array(List& contacts, F&& f) {
  f(contacts.body1);
  f(contacts.body2);
  f(contacts.point);
  f(contacts.normal);
  f(contacts.tangent);
  f(contacts.bitangent);
  f(contacts.gap);
  f(contacts.friction);
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

/// Right-handed orthonormal tangent pair for a unit normal: t ⊥ n, o = n × t (Duff et al. 2017,
/// branch-free; for n = ±z, t = x). Deterministic (depends only on n).
void tangent_frame(const Vec3& n, Vec3& t, Vec3& o);

}  // namespace granite::collision
