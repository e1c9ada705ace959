#pragma once
// Real roots of trigonometric polynomials of degree two, found as the unit-modulus roots of a
// quartic in y = e^{iα} (paper §3.2, the step after Eq. 8). Used by the analytic maximum-
// dissipation solver (Eq. 8) and by the Coulomb-solution enumeration. Internal to the contact
// module; allocation-free.

namespace granite::contact {

/// Minimal complex number: std::complex's operator* calls __muldc3 (inf/NaN recovery), which
/// costs more than the whole quartic here, and we never see inf/NaN coefficients.
struct Complex {
  double re = 0.0;
  double im = 0.0;
};

/// The four roots of a[4] y⁴ + a[3] y³ + a[2] y² + a[1] y + a[0] (a[4] ≠ 0), closed form
/// (Ferrari, resolvent-cubic root chosen for stability, cancellation-free quadratic formula).
/// The roots are accurate to ~eps·max|a[k]/a[4]| for simple roots; callers polish them.
void quartic_roots(const Complex a[5], Complex roots[4]);

/// T(α) = k0 + k1c cos α + k1s sin α + k2c cos 2α + k2s sin 2α, evaluated at u = (cos α, sin α).
struct TrigPoly2 {
  double k0 = 0.0;
  double k1c = 0.0;
  double k1s = 0.0;
  double k2c = 0.0;
  double k2s = 0.0;

  double value(double c, double s) const {
    return k0 + k1c * c + k1s * s + k2c * (c * c - s * s) + k2s * (2.0 * c * s);
  }
  /// dT/dα
  double derivative(double c, double s) const {
    return k1s * c - k1c * s + 2.0 * (k2s * (c * c - s * s) - k2c * (2.0 * c * s));
  }
};

/// At most four directions u = (c[i], s[i]) (unit vectors) at which T has a real root α.
/// The quartic 2y²T = (k2c − i k2s) y⁴ + (k1c − i k1s) y³ + 2k0 y² + (k1c + i k1s) y + (k2c + i k2s)
/// is self-inversive: its roots are y and 1/ȳ pairs, real α ⇔ |y| = 1. Robustness:
///  * roots with | |y| − 1 | below a generous tolerance are accepted (a double root on the unit
///    circle is split by rounding into a pair at distance ~sqrt(eps) from it), so near-tangent
///    root pairs are returned as candidates rather than lost;
///  * every accepted direction is polished by safeguarded Newton steps on T(α) itself
///    (rotating u, no trigonometric calls), so the closed form only needs to land in the basin;
///  * when the degree-two part is negligible (|k2| ≪ |k1|, |k0|: e.g. isotropic tangential
///    compliance, where Ferrari's monic division would blow up) the degree-one equation is
///    solved in closed form instead and the same Newton polishing adds the small k2 back.
/// The result may contain near-roots (where |T| touches but does not cross zero); callers must
/// treat all directions as candidates and decide by their objective.
int trig_poly_unit_roots(const TrigPoly2& T, double c[4], double s[4]);

/// Safeguarded Newton from the unit direction u = (c, s) for at most `iterations` steps, on T's
/// quartic in t = tan(β/2), β the turn from u ((1 + t²)² T(α + β): the same roots, no root or
/// normalisation per step). True if it converged (a last step below 1e-7, taken, or T at
/// rounding level) within ±143° of the start: u is then a root to about 1e-14 rad.
bool trig_poly_newton_root(const TrigPoly2& T, double& c, double& s, int iterations);

}  // namespace granite::contact
