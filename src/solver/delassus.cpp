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

namespace {

// One body's rotational part of Eq. (2) in the contact frame, added to A:
// −Qᵀ[r]× I⁻¹ [r]× Q = Jᵀ I⁻¹ J with J = [r]× Q = [r × n, r × t, r × o] (as [r]×ᵀ = −[r]×).
void add_rotational(const Mat3& frame, const Mat3& inverse_inertia, const Vec3& r, Mat3& A) {
  Mat3 J;
  for (int k = 0; k < 3; ++k) J.col(k) = cross(r, frame.col(k));
  A.noalias() += J.transpose() * (inverse_inertia * J);
}

}  // namespace

Mat3 delassus_diagonal(const Mat3& frame, double inverse_mass1, const Mat3& inverse_inertia1,
                       const Vec3& r1, double inverse_mass2, const Mat3& inverse_inertia2,
                       const Vec3& r2) {
  // Eq. (2): Q_jᵀ (Σ m⁻¹E − [r]× I⁻¹ [r]×) Q_j, with QᵀQ = E; a body with zero inverse
  // inertia (a global body) adds no rotational part.
  Mat3 A = (inverse_mass1 + inverse_mass2) * Mat3::Identity();
  if (!inverse_inertia1.isZero(0.0)) add_rotational(frame, inverse_inertia1, r1, A);
  if (!inverse_inertia2.isZero(0.0)) add_rotational(frame, inverse_inertia2, r2, A);
  return A;
}

}  // namespace granite::solver
