// Real roots of low-degree polynomials (see include/granite/contact/real_roots.hpp).
#include "granite/contact/real_roots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace granite::contact {
namespace {

double evaluate(const double* c, int degree, double x) {
  double v = c[degree];
  for (int k = degree - 1; k >= 0; --k) v = v * x + c[k];
  return v;
}

// Σ |c_k| |x|^k: the size of the rounding error of evaluate() is ~eps times this.
double magnitude(const double* c, int degree, double x) {
  double v = std::fabs(c[degree]);
  for (int k = degree - 1; k >= 0; --k) v = v * std::fabs(x) + std::fabs(c[k]);
  return v;
}

int trimmed_degree(const double* c, int degree) {
  double scale = 0.0;
  for (int k = 0; k <= degree; ++k) scale = std::max(scale, std::fabs(c[k]));
  while (degree > 0 && std::fabs(c[degree]) <= 1e-14 * scale) --degree;
  return degree;
}

// The one root in [a, b] of a polynomial monotone there with f(a)·f(b) ≤ 0.
double monotone_root(const double* c, const double* dc, int degree, double a, double b) {
  double fa = evaluate(c, degree, a);
  if (fa == 0.0) return a;
  double x = 0.5 * (a + b);
  for (int it = 0; it < 200; ++it) {
    const double fx = evaluate(c, degree, x);
    if (fx == 0.0) return x;
    if ((fx < 0.0) == (fa < 0.0)) {
      a = x;
      fa = fx;
    } else {
      b = x;
    }
    const double d = evaluate(dc, degree - 1, x);
    double next = d != 0.0 ? x - fx / d : 0.5 * (a + b);
    if (!(next > a && next < b)) next = 0.5 * (a + b);  // Newton left the bracket: bisect
    if (std::fabs(next - x) <= 4.0 * std::numeric_limits<double>::epsilon() * std::fabs(x) ||
        b - a <= 4.0 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(a), 1e-300))
      return next;
    x = next;
  }
  return x;
}

}  // namespace

double root_bound(const double* c, int degree) {
  degree = trimmed_degree(c, degree);
  if (degree == 0) return 0.0;
  double m = 0.0;
  for (int k = 0; k < degree; ++k) m = std::max(m, std::fabs(c[k] / c[degree]));
  return 1.0 + m;
}

RealRoots real_roots(const double* c, int degree, double lo, double hi) {
  RealRoots roots;
  degree = trimmed_degree(c, std::min(degree, kMaxRealRootsDegree));
  if (degree == 0 || !(lo <= hi)) return roots;
  double dc[kMaxRealRootsDegree];
  for (int k = 1; k <= degree; ++k) dc[k - 1] = k * c[k];
  // Pieces of monotonicity: [lo, critical points..., hi].
  double ends[kMaxRealRootsDegree + 1];
  int n_ends = 0;
  ends[n_ends++] = lo;
  if (degree > 1) {
    const RealRoots critical = real_roots(dc, degree - 1, lo, hi);
    for (int i = 0; i < critical.count; ++i) ends[n_ends++] = critical.value[i];
  }
  ends[n_ends++] = hi;
  const auto add = [&](double x) {
    if (roots.count > 0 && x == roots.value[roots.count - 1]) return;
    if (roots.count < kMaxRealRootsDegree) roots.value[roots.count++] = x;
  };
  for (int i = 0; i + 1 < n_ends; ++i) {
    const double a = ends[i], b = ends[i + 1];
    const double fa = evaluate(c, degree, a), fb = evaluate(c, degree, b);
    const bool touches = i > 0 && std::fabs(fa) <= 64.0 * std::numeric_limits<double>::epsilon() *
                                                       magnitude(c, degree, a);
    if (touches) add(a);  // a critical point at rounding level: a double root
    if ((fa < 0.0) != (fb < 0.0) || fb == 0.0) add(monotone_root(c, dc, degree, a, b));
  }
  return roots;
}

}  // namespace granite::contact
