#include "granite/solver/delassus.hpp"

namespace granite::solver {

Mat3 cross_matrix(const Vec3& r) {
  Mat3 m;
  m << 0.0, -r.z(), r.y(),  //
      r.z(), 0.0, -r.x(),   //
      -r.y(), r.x(), 0.0;
  return m;
}

Mat3 body_delassus(double inverse_mass, const Mat3& inverse_inertia, const Vec3& r) {
  const Mat3 rx = cross_matrix(r);
  return inverse_mass * Mat3::Identity() - rx * inverse_inertia * rx;  // Eq. (2)
}

Mat3 delassus_diagonal(const Mat3& frame, double inverse_mass1, const Mat3& inverse_inertia1,
                       const Vec3& r1, double inverse_mass2, const Mat3& inverse_inertia2,
                       const Vec3& r2) {
  const Mat3 world = body_delassus(inverse_mass1, inverse_inertia1, r1) +
                     body_delassus(inverse_mass2, inverse_inertia2, r2);
  return frame.transpose() * world * frame;  // Eq. (2): Q_jᵀ (...) Q_j
}

}  // namespace granite::solver
