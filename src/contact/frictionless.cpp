// Frictionless inelastic contact: only the normal impulse, Signorini on the normal velocity.
#include "granite/contact/single_contact.hpp"

namespace granite::contact {

Impulse frictionless_impulse(const Mat3& A, const Vec3& b, double /*mu*/) {
  // a_nᵀx − b_n ≥ 0 ⊥ x_n ≥ 0 with x_to = 0: x_n = max(0, b_n)/A_nn.
  if (b[0] <= 0.0) {
    return {Vec3::Zero(), ContactCase::separating};
  }
  return {Vec3(b[0] / A(0, 0), 0.0, 0.0), ContactCase::frictionless};
}

}  // namespace granite::contact
