#include "granite/collision/contact.hpp"

#include <cmath>

namespace granite::collision {

void ContactList::clear() {
  for_each_array(*this, [](auto& a) { a.clear(); });
}

void ContactList::push_back(BodyIndex b1, BodyIndex b2, const Vec3& p, const Vec3& n,
                            double gap_value, double mu) {
  Vec3 t, o;
  tangent_frame(n, t, o);
  body1.push_back(b1);
  body2.push_back(b2);
  point.push_back(p);
  normal.push_back(n);
  tangent.push_back(t);
  bitangent.push_back(o);
  gap.push_back(gap_value);
  friction.push_back(mu);
}

void tangent_frame(const Vec3& n, Vec3& t, Vec3& o) {
  // The branch-free basis of Duff et al., "Building an orthonormal basis, revisited" (JCGT 6(1),
  // 2017): one division, no square root; with σ = sign(n_z) and a = −1/(σ + n_z)
  // (|σ + n_z| ≥ 1), t = (1 + σ a n_x², σ a n_x n_y, −σ n_x), o = (a n_x n_y, σ + a n_y², −n_y).
  // The per-contact detection made the former cross product with the least aligned axis (a
  // branch, a square root and a division) 4 % of a channel_small run.
  const double sigma = std::copysign(1.0, n.z());
  const double a = -1.0 / (sigma + n.z());
  const double b = n.x() * n.y() * a;
  t = Vec3(1.0 + sigma * n.x() * n.x() * a, sigma * b, -sigma * n.x());
  o = Vec3(b, sigma + n.y() * n.y() * a, -n.y());
}

}  // namespace granite::collision
