// The orientational order tensor (see include/granite/scenario/order_tensor.hpp).
#include "granite/scenario/order_tensor.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>

namespace granite::scenario {

std::vector<Vec3> long_axes(const body::ShapeTable& shapes) {
  std::vector<Vec3> axes(shapes.size(), Vec3::Zero());
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    const Mat3& I = shapes[body::ShapeIndex(s)].unit_mass.inertia;
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(I);  // ascending eigenvalues
    const Vec3 moments = eigen.eigenvalues();
    if (moments[0] < 0.95 * moments[1]) axes[s] = eigen.eigenvectors().col(0).normalized();
  }
  return axes;
}

Vec3 long_axis_of(const body::Particles& particles, std::size_t i, const std::vector<Vec3>& axes) {
  const body::ShapeIndex shape = particles.shape[i];
  if (shape == body::kSphere) return Vec3::Zero();
  return particles.orientation[i] * axes[std::size_t(shape)];
}

void OrderSums::add(double* sums, const Vec3& u) {
  sums[0] += u[0] * u[0];
  sums[1] += u[1] * u[1];
  sums[2] += u[2] * u[2];
  sums[3] += u[0] * u[1];
  sums[4] += u[0] * u[2];
  sums[5] += u[1] * u[2];
  sums[6] += 1.0;
}

Order order_of(const double* sums) {
  Order o;
  o.grains = sums[6];
  const double nan = std::nan("");
  if (!(o.grains > 0.0)) {
    o.S = nan;
    o.director = Vec3::Constant(nan);
    o.Q = Mat3::Constant(nan);
    return o;
  }
  Mat3 M;  // ⟨u uᵀ⟩
  M << sums[0], sums[3], sums[4], sums[3], sums[1], sums[5], sums[4], sums[5], sums[2];
  M /= o.grains;
  o.Q = 1.5 * M - 0.5 * Mat3::Identity();
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(o.Q);
  o.S = eigen.eigenvalues()[2];
  o.director = eigen.eigenvectors().col(2).normalized();
  // A sign convention for the director (u and −u are one axis): its largest component > 0.
  Eigen::Index k = 0;
  o.director.cwiseAbs().maxCoeff(&k);
  if (o.director[k] < 0.0) o.director = -o.director;
  return o;
}

}  // namespace granite::scenario
