// Maximum-dissipation model minimised numerically by golden-section search, the approach of
// waLBerla pe (HCSITS, 20 iterations). Cross-check and speed baseline for the analytic solver.
//
// pe searches over α, the paper's parametrisation of the boundary γ(α) = r̄(α)(cos α, sin α)
// seen from the origin, on a heuristically narrowed interval. f_obj(α) can have two local minima
// on 𝓘 (paper Fig. 4); the academic problem of §4.1 is such a case and a golden-section search
// over α converges to the wrong one there (−0.414 instead of −0.634). So the same boundary is
// searched in a parametrisation where the objective is unimodal: by the direction ω in which
// the boundary is seen from the unconstrained minimum P = x0,to. The reduced objective is
// ½(x − P)ᵀÂ(x − P) + const, the feasible set K = {x : A_nn‖x‖ + μ a·x ≤ μ b_n} of the tangential
// plane is convex and P ∉ K, so for every level the directions from P into K ∩ {level set}
// form an interval, nested in the level: the first-hit objective F(ω) is quasiconvex and
// golden-section search finds the global minimum.
#include "granite/contact/conic_section.hpp"
#include "granite/contact/single_contact.hpp"

#include <cmath>
#include <numbers>

namespace granite::contact {
namespace {

// Golden-section ordering key: rays that hit K by their objective; rays that miss K rank
// behind every hit, ordered by their angular distance from the direction P → 0 (0 ∈ K), which
// keeps the extended function quasiconvex on (ω_PO − π, ω_PO + π).
struct Key {
  bool miss;
  double value;
  double t;  // ray parameter of the first boundary point (for hits)
  bool operator<(const Key& o) const { return miss != o.miss ? !miss : value < o.value; }
};

class ViewFromUnconstrainedMinimum {
public:
  explicit ViewFromUnconstrainedMinimum(const ReducedProblem& p)
      : p_(p), Pt_(p.x0[1]), Po_(p.x0[2]), L0_(p.bn - (p.Ant * Pt_ + p.Ano * Po_)),
        kappa_(p.Ann / p.mu), omega_PO_(std::atan2(-Po_, -Pt_)) {}

  double center() const { return omega_PO_; }

  // First boundary point of the ray P + t w, w = (cos ω, sin ω): the first root of the convex
  // φ(t) = κ‖P + t w‖ + t a·w − L0 (κ = A_nn/μ), φ(0) > 0 since P ∉ K. Newton from t = 0 on a
  // convex function converges monotonically from the left; φ' ≥ 0 before reaching zero means
  // the ray misses K. (Squaring to a quadratic in t would turn the root into a near-double
  // root of the squared equation for large μ, losing half the digits or the root itself.)
  Key evaluate(double omega) const {
    const double wc = std::cos(omega);
    const double ws = std::sin(omega);
    const double aw = p_.Ant * wc + p_.Ano * ws;
    const Key miss{true, std::abs(std::remainder(omega - omega_PO_, 2.0 * std::numbers::pi)), 0.0};
    double t = 0.0;
    bool hit = false;
    for (int it = 0; it < 60; ++it) {
      const double xt = Pt_ + t * wc;
      const double xo = Po_ + t * ws;
      const double norm = std::sqrt(xt * xt + xo * xo);
      const double phi = kappa_ * norm + t * aw - L0_;
      if (phi <= 0.0) {
        hit = true;
        break;
      }
      const double slope = (norm > 0.0 ? kappa_ * (xt * wc + xo * ws) / norm : kappa_) + aw;
      if (!(slope < 0.0)) {
        break;
      }
      const double step = -phi / slope;
      t += step;
      if (step <= 1e-15 * t) {
        hit = true;
        break;
      }
    }
    if (!hit) {
      return miss;
    }
    const double t_best = t;
    // The ray only parametrises the boundary; the point itself is taken as the exact boundary
    // point r̄(α) in its direction α from the origin, and ranked by its exact f_obj(α).
    double c;
    double s;
    direction(wc, ws, t_best, c, s);
    const double fr = p_.fr(c, s);
    if (!(fr > 0.0)) {
      return miss;
    }
    const double r = p_.mu * p_.bn / fr;
    return {false, r * (0.5 * r * p_.quad(c, s) - p_.lin(c, s)), t_best};
  }

  Vec3 impulse(double omega, double t) const {
    double c;
    double s;
    direction(std::cos(omega), std::sin(omega), t, c, s);
    return p_.boundary_impulse(p_.mu * p_.bn / p_.fr(c, s), c, s);
  }

private:
  // unit direction (from the origin) of the point P + t w
  void direction(double wc, double ws, double t, double& c, double& s) const {
    const double xt = Pt_ + t * wc;
    const double xo = Po_ + t * ws;
    const double r = std::sqrt(xt * xt + xo * xo);
    c = r > 0.0 ? xt / r : 1.0;
    s = r > 0.0 ? xo / r : 0.0;
  }

  const ReducedProblem& p_;
  double Pt_, Po_;
  double L0_;     // b_n − a·P = A_nn x0,n
  double kappa_;  // A_nn/μ
  double omega_PO_;
};

} // namespace

Impulse max_dissipation_golden_impulse(const Mat3& A, const Vec3& b, double mu, int iterations) {
  ReducedProblem p;
  Impulse result;
  if (structogram_prologue(A, b, mu, p, result)) {
    return result;
  }
  const ViewFromUnconstrainedMinimum view(p);
  constexpr double g = 0.61803398874989484820;  // 1/φ
  double lo = view.center() - std::numbers::pi;
  double hi = view.center() + std::numbers::pi;
  double w1 = hi - g * (hi - lo);
  double w2 = lo + g * (hi - lo);
  Key k1 = view.evaluate(w1);
  Key k2 = view.evaluate(w2);
  for (int it = 0; it < iterations; ++it) {
    if (k1 < k2) {
      hi = w2;
      w2 = w1;
      k2 = k1;
      w1 = hi - g * (hi - lo);
      k1 = view.evaluate(w1);
    } else {
      lo = w1;
      w1 = w2;
      k1 = k2;
      w2 = lo + g * (hi - lo);
      k2 = view.evaluate(w2);
    }
  }
  double omega = w1;
  Key best = k1;
  if (k2 < k1) {
    omega = w2;
    best = k2;
  }
  if (best.miss) {
    // too few iterations to find K at all: fall back to the straight line towards 0 ∈ K
    omega = view.center();
    best = view.evaluate(omega);
  }
  return {view.impulse(omega, best.t), ContactCase::sliding};
}

} // namespace granite::contact
