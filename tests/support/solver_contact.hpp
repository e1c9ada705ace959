#pragma once
// A solver contact between bodies 0 and 1 for the solver's unit tests: the frame from a unit
// normal (t and o as the setup forms them), a given Delassus block and lever arms, no gap.
#include "granite/solver/contact_setup.hpp"

namespace granite::test_support {

inline solver::SolverContact solver_contact(const Vec3& normal, const Mat3& A, const Vec3& r1,
                                            const Vec3& r2, double mu) {
  solver::SolverContact c{};
  c.set_frame(normal);
  c.A = A;
  c.reduction = contact::block_reduction(A);
  c.r1 = r1;
  c.r2 = r2;
  c.gap_term = 0.0;
  c.mu = mu;
  c.body1 = 0;
  c.body2 = 1;
  return c;
}

}  // namespace granite::test_support
