// Recording a step's contacts for output (see include/granite/timestep/contact_record.hpp).
#include "granite/timestep/contact_record.hpp"

#include <algorithm>

namespace granite::timestep {

void record_contacts(const collision::ContactList& contacts, const std::vector<Vec3>& impulses,
                     const body::Particles& particles, double dt, ContactRecord& out,
                     const std::vector<double>* compatible, const solver::RollingBlocks* rolling) {
  const std::size_t m = std::min(contacts.size(), impulses.size());
  out = ContactRecord{};
  out.dt = dt;
  out.compatible = compatible != nullptr;
  if (compatible) out.compatible_impulse.assign(compatible->begin(), compatible->begin() + m);
  out.body1.reserve(m);
  for (std::size_t j = 0; j < m; ++j) {
    out.body1.push_back(particles.id[contacts.body1[j]]);
    out.body2.push_back(contacts.involves_global(j)
                            ? global_body_contact_id(contacts.global_index(j))
                            : particles.id[contacts.body2[j]]);
    out.point1.push_back(contacts.witness1(j));
    out.point2.push_back(contacts.witness2(j));
    out.normal.push_back(contacts.normal[j]);
    const Vec3& l = impulses[j];  // contact frame (n, t, o) -> world
    const Mat3 q = contacts.frame(j);
    out.impulse.push_back(l[0] * q.col(0) + l[1] * q.col(1) + l[2] * q.col(2));
    out.gap.push_back(contacts.gap[j]);
  }
  if (rolling == nullptr) return;
  out.rolling = true;
  out.torque.assign(m, Vec3::Zero());
  for (std::size_t k = 0; k < rolling->contacts.size(); ++k)
    if (const std::size_t j = rolling->contacts[k].contact; j < m)
      out.torque[j] = contacts.frame(j) * rolling->torques[k];
}

}  // namespace granite::timestep
