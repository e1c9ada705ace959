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
  // Cross n with the coordinate axis it is least aligned with: |n × e| >= sqrt(2/3).
  const Vec3 a = n.cwiseAbs();
  Vec3 e = Vec3::Zero();
  if (a.x() <= a.y() && a.x() <= a.z())
    e.x() = 1.0;
  else if (a.y() <= a.z())
    e.y() = 1.0;
  else
    e.z() = 1.0;
  t = cross(n, e);
  t /= std::sqrt(t.squaredNorm());
  o = cross(n, t);
}

}  // namespace granite::collision
