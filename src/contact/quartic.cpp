// Closed-form quartic roots and the real roots of degree-two trigonometric polynomials
// (paper §3.2: Eq. 8 turned into a quartic in y = e^{iα}).
#include "granite/contact/quartic.hpp"

#include <algorithm>
#include <cmath>

namespace granite::contact {
namespace {

inline Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
inline Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
inline Complex operator-(Complex a) { return {-a.re, -a.im}; }
inline Complex operator*(Complex a, Complex b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
inline Complex operator*(double k, Complex a) { return {k * a.re, k * a.im}; }
inline double norm2(Complex a) { return a.re * a.re + a.im * a.im; }
inline double abs(Complex a) { return std::sqrt(norm2(a)); }
inline Complex inverse(Complex a) {
  const double d = 1.0 / norm2(a);
  return {a.re * d, -a.im * d};
}
inline Complex operator/(Complex a, Complex b) { return a * inverse(b); }

// Principal square root, cancellation-free in both half-planes.
inline Complex sqrt(Complex z) {
  const double r = abs(z);
  if (r == 0.0) {
    return {0.0, 0.0};
  }
  const double t = std::sqrt(0.5 * (r + std::abs(z.re)));
  if (z.re >= 0.0) {
    return {t, z.im / (2.0 * t)};
  }
  return {std::abs(z.im) / (2.0 * t), std::copysign(t, z.im)};
}

// Principal cube root.
inline Complex cbrt(Complex z) {
  const double r = abs(z);
  if (r == 0.0) {
    return {0.0, 0.0};
  }
  const double m = std::cbrt(r);
  const double phi = std::atan2(z.im, z.re) / 3.0;
  return {m * std::cos(phi), m * std::sin(phi)};
}

// Both roots of z² + beta z + gamma = 0 without cancellation.
inline void quadratic_roots(Complex beta, Complex gamma, Complex& z1, Complex& z2) {
  const Complex d = sqrt(beta * beta - 4.0 * gamma);
  // choose the sign that adds magnitudes: Re(conj(beta)·d) ≥ 0 → −beta − d
  const bool minus = beta.re * d.re + beta.im * d.im >= 0.0;
  z1 = 0.5 * (minus ? -beta - d : -beta + d);
  z2 = norm2(z1) > 0.0 ? gamma / z1 : -beta - z1;
}

}  // namespace

void quartic_roots(const Complex a[5], Complex roots[4]) {
  // Monic form y⁴ + B y³ + C y² + D y + E, then y = z − B/4 gives z⁴ + p z² + q z + r.
  const Complex inv4 = inverse(a[4]);
  const Complex B = a[3] * inv4;
  const Complex C = a[2] * inv4;
  const Complex D = a[1] * inv4;
  const Complex E = a[0] * inv4;
  const Complex B2 = B * B;
  const Complex p = C - 0.375 * B2;
  const Complex q = D - 0.5 * (B * C) + 0.125 * (B2 * B);
  const Complex r = E - 0.25 * (B * D) + 0.0625 * (B2 * C) - (3.0 / 256.0) * (B2 * B2);
  const Complex shift = -0.25 * B;

  // Ferrari: (z² + s)² = m z² − q z + (s² − r) with m = 2s − p is a perfect square iff s solves
  // the resolvent cubic s³ − (p/2)s² − r s + (pr/2 − q²/8) = 0. With s = t + p/6 it reads
  // t³ + P t + Q = 0 (Cardano). Of its three roots we take the one with the largest |m|, which
  // keeps q/(2√m) below well-conditioned.
  const Complex p2 = p * p;
  const Complex P = -r - (1.0 / 12.0) * p2;
  const Complex Q = (-1.0 / 108.0) * (p2 * p) + (1.0 / 3.0) * (p * r) - 0.125 * (q * q);
  const Complex sd = sqrt(0.25 * (Q * Q) + (1.0 / 27.0) * (P * P * P));
  const Complex w1 = -0.5 * Q + sd;
  const Complex w2 = -0.5 * Q - sd;
  const Complex u0 = cbrt(norm2(w1) >= norm2(w2) ? w1 : w2);

  constexpr double kHalfSqrt3 = 0.86602540378443864676;
  const Complex omega[3] = {{1.0, 0.0}, {-0.5, kHalfSqrt3}, {-0.5, -kHalfSqrt3}};
  Complex s_best{};
  Complex m_best{};
  double m_best_norm = -1.0;
  for (const Complex& w : omega) {
    const Complex u = w * u0;
    const Complex t = norm2(u) > 0.0 ? u - (1.0 / 3.0) * (P / u) : Complex{};
    const Complex s = t + (1.0 / 6.0) * p;
    const Complex m = 2.0 * s - p;
    if (norm2(m) > m_best_norm) {
      m_best_norm = norm2(m);
      s_best = s;
      m_best = m;
    }
  }

  const double scale = abs(p) + std::sqrt(abs(r)) + 1e-300;
  Complex z[4];
  if (std::sqrt(m_best_norm) <= 1e-14 * scale) {
    // All resolvent roots give m ≈ 0: then q ≈ 0 and the quartic is biquadratic in z.
    Complex w_a;
    Complex w_b;
    quadratic_roots(p, r, w_a, w_b);
    z[0] = sqrt(w_a);
    z[1] = -z[0];
    z[2] = sqrt(w_b);
    z[3] = -z[2];
  } else {
    const Complex sm = sqrt(m_best);
    const Complex h = 0.5 * (q / sm);
    quadratic_roots(-sm, s_best + h, z[0], z[1]);
    quadratic_roots(sm, s_best - h, z[2], z[3]);
  }
  for (int i = 0; i < 4; ++i) {
    roots[i] = z[i] + shift;
  }
}

namespace {

// Relative size of the degree-two part below which T is solved as degree one. Ferrari's monic
// quartic carries coefficients ~|k1/k2| and loses accuracy like their square for the unit-modulus
// roots (at |k2/k1| ~ 1e-6 they come out off the circle by more than kUnitTolerance); below
// this threshold the degree-one roots are within ~|k2/k1| of the true ones instead, which the
// Newton polishing removes in two or three steps.
constexpr double kDegreeDrop = 1e-3;
// Accept roots with | |y| − 1 | below this; off-circle pairs of a generic T are much further out,
// and an extra candidate only costs one objective evaluation.
constexpr double kUnitTolerance = 0.05;

// Safeguarded Newton on T(α), stepping along the circle: u ← (u + δ u⊥)/‖u + δ u⊥‖ turns u by
// atan(δ), which keeps the quadratic convergence of Newton for small δ. A Newton step below
// kQuadratic ends the iteration: it is taken without evaluating T at its end (the safeguard
// needs that value only for larger steps), and leaves an error |T''/(2T')|·δ² < 1e-14·|T''/T'|,
// what the next step would be. Returns true then (or when T vanished, or when no halved step
// improves T and the Newton step is below kConverged: u is a root to rounding). Only near a
// double root (|T''/T'| large) is the root less accurate than kConverged; the objective is
// stationary along the boundary there and changes by the square of that error.
constexpr double kConverged = 1e-12;
constexpr double kQuadratic = 1e-7;
// trig_poly_newton_root's half-angle steps: at most 0.25 (about 0.5 rad of α, polish's clamp),
// and a root at most tan(β/2) = 3 from the start (β within ±143°; beyond, the caller searches
// every root).
constexpr double kMaxHalfTurn = 0.25;
constexpr double kMaxT = 3.0;

// u turned by atan(δ): (u + δ u⊥)/√(1 + δ²). For |δ| < 2⁻⁶ (the steps near a root) the
// factor is its series 1 − δ²/2 + 3δ⁴/8 − 5δ⁶/16 + 35δ⁸/128, whose remainder 63δ¹⁰/256 < 3e-19
// is below rounding: four multiply-adds instead of the root and the division on the critical
// path of every Newton step.
inline void turn(double c, double s, double delta, double& nc, double& ns) {
  const double d2 = delta * delta;
  const double inv = d2 < 0x1p-12
                         ? 1.0 + d2 * (-0.5 + d2 * (0.375 + d2 * (-0.3125 + d2 * 0.2734375)))
                         : 1.0 / std::sqrt(1.0 + d2);
  nc = (c - delta * s) * inv;
  ns = (s + delta * c) * inv;
}

bool polish(const TrigPoly2& T, double& c, double& s, int iterations) {
  double value = T.value(c, s);
  for (int it = 0; it < iterations && value != 0.0; ++it) {
    const double slope = T.derivative(c, s);
    if (slope == 0.0) {
      return false;
    }
    double delta = -value / slope;
    if (std::abs(delta) < kQuadratic) {
      // A step this small is in Newton's quadratic regime: it lands within |T''/(2T')|·δ² of
      // the root, so it is taken without evaluating T there. (The typical sliding sphere
      // contact: x0,to's direction is the root to rounding.)
      turn(c, s, delta, c, s);
      return true;
    }
    delta = std::clamp(delta, -0.5, 0.5);
    bool improved = false;
    for (int halving = 0; halving < 3; ++halving) {
      double nc, ns;
      turn(c, s, delta, nc, ns);
      const double nvalue = T.value(nc, ns);
      if (std::abs(nvalue) < std::abs(value)) {
        c = nc;
        s = ns;
        value = nvalue;
        improved = true;
        break;
      }
      delta *= 0.5;
    }
    if (!improved) {
      return std::abs(value / slope) < kConverged;  // at rounding level already
    }
  }
  return value == 0.0;  // every step taken was at least kQuadratic / 4
}

}  // namespace

int trig_poly_unit_roots(const TrigPoly2& T, double c[4], double s[4]) {
  const double m1 = std::sqrt(T.k1c * T.k1c + T.k1s * T.k1s);
  const double m2 = std::sqrt(T.k2c * T.k2c + T.k2s * T.k2s);
  const double size = std::max({std::abs(T.k0), m1, m2});
  int n = 0;
  if (size == 0.0) {
    // T ≡ 0: every direction is a root; offer four spread-out candidates.
    const double cs[4][2] = {{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}};
    for (const auto& d : cs) {
      c[n] = d[0];
      s[n] = d[1];
      ++n;
    }
    return n;
  }
  if (m2 > kDegreeDrop * size) {
    const double k = 1.0 / size;  // coefficients of order one: no overflow in B⁴, P³ …
    const Complex a[5] = {{T.k2c * k, T.k2s * k},
                          {T.k1c * k, T.k1s * k},
                          {2.0 * T.k0 * k, 0.0},
                          {T.k1c * k, -T.k1s * k},
                          {T.k2c * k, -T.k2s * k}};
    Complex y[4];
    quartic_roots(a, y);
    for (const Complex& root : y) {
      const double rho = abs(root);
      if (std::isfinite(rho) && std::abs(rho - 1.0) <= kUnitTolerance) {
        c[n] = root.re / rho;
        s[n] = root.im / rho;
        ++n;
      }
    }
  } else if (m1 > 0.0) {
    // Degree one: k0 + m1 cos(α − φ) = 0, φ = atan2(k1s, k1c) → α = φ ± acos(−k0/m1).
    const double ratio = -T.k0 / m1;
    if (std::abs(ratio) <= 1.0 + kUnitTolerance) {
      const double ca = std::clamp(ratio, -1.0, 1.0);
      const double sa = std::sqrt(std::max(0.0, 1.0 - ca * ca));
      const double pc = T.k1c / m1;
      const double ps = T.k1s / m1;
      c[0] = pc * ca - ps * sa;
      s[0] = ps * ca + pc * sa;
      c[1] = pc * ca + ps * sa;
      s[1] = ps * ca - pc * sa;
      n = 2;
    }
  }
  for (int i = 0; i < n; ++i) {
    polish(T, c[i], s[i], 6);
  }
  return n;
}

bool trig_poly_newton_root(const TrigPoly2& T, double& c, double& s, int iterations) {
  // T(α0 + β) in the start's frame u0 = (c, s): k1 turned by −α0, k2 by −2α0. With
  // t = tan(β/2), cos β = (1 − t²)/(1 + t²), sin β = 2t/(1 + t²), and (1 + t²)² T is the quartic
  // P(t) = Σ a_k t^k below, whose real roots are T's: Newton on it needs no root or division
  // but the step's, and the start is t = 0.
  const double c2 = c * c - s * s, s2 = 2.0 * c * s;
  const double k1c = T.k1c * c + T.k1s * s, k1s = T.k1s * c - T.k1c * s;
  const double k2c = T.k2c * c2 + T.k2s * s2, k2s = T.k2s * c2 - T.k2c * s2;
  const double a0 = T.k0 + k1c + k2c, a1 = 2.0 * k1s + 4.0 * k2s, a2 = 2.0 * T.k0 - 6.0 * k2c,
               a3 = 2.0 * k1s - 4.0 * k2s, a4 = T.k0 - k1c + k2c;
  const auto P = [&](double t) { return a0 + t * (a1 + t * (a2 + t * (a3 + t * a4))); };
  const auto dP = [&](double t) { return a1 + t * (2.0 * a2 + t * (3.0 * a3 + t * (4.0 * a4))); };
  // The slope at a trial point is evaluated beside its value (two independent Horner chains,
  // one chain's latency), so an accepted step starts the next with both.
  double t = 0.0, value = a0, slope = a1;
  bool converged = value == 0.0;
  for (int it = 0; it < iterations && !converged; ++it) {
    if (slope == 0.0) return false;
    // The first step is Halley's, δ = −2PP'/(2P'² − PP''), whose P''(0) = 2a2 comes with the
    // coefficients (cubic convergence for a multiply more; later steps would need a third
    // Horner chain, which costs more than it saves: docs/shapes.md). It is taken when it
    // scales Newton's step by a factor in (0, 2), a0 a2 < a1²/2; else Newton's.
    const double delta =
        it == 0 && 2.0 * a0 * a2 < a1 * a1 ? -a0 * a1 / (a1 * a1 - a0 * a2) : -value / slope;
    if (std::abs(delta) < kQuadratic) {  // dβ = 2 dt/(1 + t²): quadratic regime, as in polish
      t += delta;
      converged = true;
      break;
    }
    double step = std::clamp(delta, -kMaxHalfTurn, kMaxHalfTurn);
    bool improved = false;
    for (int halving = 0; halving < 3; ++halving) {
      const double nt = t + step;
      const double nvalue = P(nt), nslope = dP(nt);
      // |T| = |P|/(1 + t²)²: the safeguard compares T, as polish does.
      const double w = 1.0 + t * t, nw = 1.0 + nt * nt;
      if (std::abs(nvalue) * (w * w) < std::abs(value) * (nw * nw)) {
        t = nt;
        value = nvalue;
        slope = nslope;
        improved = true;
        break;
      }
      step *= 0.5;
    }
    if (!improved) {
      converged = std::abs(value / slope) < kConverged;
      if (!converged) return false;
    }
    converged = converged || value == 0.0;
  }
  if (!converged || !(std::abs(t) <= kMaxT)) return false;
  const double w = 1.0 / (1.0 + t * t);
  const double cb = (1.0 - t * t) * w, sb = 2.0 * t * w;
  const double nc = c * cb - s * sb, ns = s * cb + c * sb;
  c = nc;
  s = ns;
  return true;
}

}  // namespace granite::contact
