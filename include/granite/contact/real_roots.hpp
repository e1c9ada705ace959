#pragma once
// Real roots of a polynomial of low degree in an interval, by recursion on the derivative: the
// critical points split [lo, hi] into pieces on which the polynomial is monotone, and each piece
// with a sign change holds exactly one root, found by safeguarded Newton (bisection fallback).
// Robust where closed forms are not (vanishing leading coefficient, clustered roots); used by
// the CCP single-contact solver. Internal to the contact module; allocation-free.
#include <array>
#include <cstddef>

namespace granite::contact {

inline constexpr int kMaxRealRootsDegree = 4;

struct RealRoots {
  std::array<double, kMaxRealRootsDegree> value{};
  int count = 0;
};

/// The real roots in [lo, hi] of c[0] + c[1] x + ... + c[degree] x^degree (degree ≤ 4), in
/// increasing order. Leading coefficients that are zero lower the degree. A double root (a
/// critical point where the polynomial touches zero without changing sign) is returned when the
/// polynomial's value there is at rounding level. An identically zero polynomial has no roots.
RealRoots real_roots(const double* c, int degree, double lo, double hi);

/// A bound B with every real root in [−B, B] (Cauchy), for the nonzero-leading-term polynomial
/// left after trimming zero leading coefficients; 0 if the polynomial is constant.
double root_bound(const double* c, int degree);

}  // namespace granite::contact
