#pragma once
// A rotation uniform over SO(3) (Haar measure): the unit quaternion of four independent standard
// normal draws, which is uniform on the 3-sphere. For the narrow-phase tests' random scenes.
#include "granite/core/types.hpp"

#include <random>

namespace granite::test_support {

template <class Rng>
Quat random_quaternion(Rng& rng) {
  std::normal_distribution<double> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
}

template <class Rng>
Mat3 random_rotation_matrix(Rng& rng) {
  return random_quaternion(rng).toRotationMatrix();
}

}  // namespace granite::test_support
