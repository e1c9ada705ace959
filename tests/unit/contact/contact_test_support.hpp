#pragma once
// Shared helpers of the contact tests: the paper's problems, an independent brute-force
// minimiser of the single-contact problem, a feasibility measure and random problem classes.
#include "granite/contact/single_contact.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace granite::contact::testing {

struct Problem {
  Mat3 A;
  Vec3 b;
  double mu;
};

/// Paper §4.1: six point masses on the axes hitting a plane; frame t = n × e_x, o = n × t, not
/// normalised (that is how Table 1 is reproduced, see DESIGN.md).
inline Problem academic_problem() {
  const double dx = 10.0, dy = 1.0, dz = 1.0;
  const double mx = 0.03, my = 65.0, mz = 50.0;
  const Vec3 ex = Vec3::UnitX();
  const Vec3 n = Vec3(0.25, 0.36, -0.9).normalized();
  const Vec3 t = n.cross(ex);
  const Vec3 o = n.cross(t);
  Mat3 Q;
  Q.col(0) = n;
  Q.col(1) = t;
  Q.col(2) = o;
  const Vec3 I_diag = 2.0 * Vec3(my * dy * dy + mz * dz * dz, mx * dx * dx + mz * dz * dz,
                                 mx * dx * dx + my * dy * dy);
  Mat3 ex_cross;
  ex_cross << 0, 0, 0, 0, 0, -1, 0, 1, 0;
  const Mat3 W = Mat3::Identity() / (2.0 * (mx + my + mz)) -
                 dx * dx * ex_cross * I_diag.cwiseInverse().asDiagonal() * ex_cross;
  return {Q.transpose() * W * Q, Q.transpose() * Vec3(0.06, 0.7, 0.23), 3.7};
}

/// Paper §4.2 (Painlevé), written in the (n, t, o) frame with m_a = 1.
inline Problem painleve_problem(double theta0, double v0, double mu) {
  const double s = std::sin(theta0);
  const double c = std::cos(theta0);
  Mat3 A;
  A << 1 + 3 * c * c, -3 * s * c, 0,  //
      -3 * s * c, 1 + 3 * s * s, 0,   //
      0, 0, 1 + 3 * (c * c - s * s) * (c * c - s * s);
  return {A, Vec3(0.0, v0, 0.0), mu};
}

inline double objective_of(const Problem& p, const Vec3& x) { return objective(p.A, p.b, x); }

/// Independent reference: the minimum over {0 if b_n ≤ 0} ∪ {x0 = A⁻¹b if in the cone} ∪ the
/// conic section. The conic section is parametrised directly in 3D: for a direction angle θ in
/// the tangential plane, points of the plane a_nᵀx = b_n are x(ρ) = base + ρ v(θ) with
/// base = (b_n/A_nn, 0, 0) and v = (−(A_nt cos θ + A_no sin θ)/A_nn, cos θ, sin θ); the cone
/// ρ ≤ μ x_n(ρ) bounds ρ (or not), and the quadratic objective along the segment is minimised
/// exactly. The resulting function of θ is sampled densely (uniformly plus geometrically towards
/// the direction where the bound vanishes — the far end of a near-parabola) and the best
/// samples are refined by golden-section search to machine precision.
struct Reference {
  Vec3 x;
  double f;
};

class BruteForce {
public:
  explicit BruteForce(const Problem& p) : p_(p) {}

  Reference minimum() const {
    const Vec3 zero = Vec3::Zero();
    if (p_.b[0] < 0.0) {
      return {zero, 0.0};
    }
    const Vec3 x0 = p_.A.ldlt().solve(p_.b);
    if (x0[0] >= 0.0 && std::hypot(x0[1], x0[2]) <= p_.mu * x0[0]) {
      return {x0, objective_of(p_, x0)};
    }
    // samples
    const int n_uniform = 720;
    std::vector<double> thetas;
    thetas.reserve(n_uniform + 800);
    for (int k = 0; k < n_uniform; ++k) {
      thetas.push_back(2.0 * std::numbers::pi * k / n_uniform);
    }
    const double pole = std::atan2(-p_.A(0, 2), -p_.A(0, 1));
    for (int j = 4; j <= 45 * 8; ++j) {
      const double d = std::exp2(-j / 8.0);
      thetas.push_back(pole + d);
      thetas.push_back(pole - d);
    }
    thetas.push_back(pole);
    for (double& t : thetas) {
      t = std::remainder(t, 2.0 * std::numbers::pi);
    }
    std::sort(thetas.begin(), thetas.end());
    // Where the cone stops bounding ρ (the asymptotes of a hyperbola, the rays of a degenerate
    // conic section for b_n = 0) the best point can sit in a sliver next to the crossing:
    // locate every sign change of the bound's denominator by bisection and sample both sides.
    const std::size_t n_samples = thetas.size();
    for (std::size_t k = 0; k < n_samples; ++k) {
      double lo = thetas[k];
      double hi = k + 1 < n_samples ? thetas[k + 1] : thetas[0] + 2.0 * std::numbers::pi;
      const bool lo_bounded = denominator(lo) > 0.0;
      if (lo_bounded == (denominator(hi) > 0.0)) {
        continue;
      }
      for (int it = 0; it < 200 && hi - lo > 0.0; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) {
          break;
        }
        ((denominator(mid) > 0.0) == lo_bounded ? lo : hi) = mid;
      }
      thetas.push_back(std::remainder(lo, 2.0 * std::numbers::pi));
      thetas.push_back(std::remainder(hi, 2.0 * std::numbers::pi));
    }
    std::sort(thetas.begin(), thetas.end());
    const std::size_t m = thetas.size();
    std::vector<double> values(m);
    for (std::size_t k = 0; k < m; ++k) {
      values[k] = along(thetas[k]).second;
    }
    // local minima of the sampled (periodic) sequence, best first
    std::vector<std::pair<double, std::size_t>> minima;
    for (std::size_t k = 0; k < m; ++k) {
      const double prev = values[(k + m - 1) % m];
      const double next = values[(k + 1) % m];
      if (values[k] <= prev && values[k] <= next) {
        minima.emplace_back(values[k], k);
      }
    }
    std::sort(minima.begin(), minima.end());
    Reference best{along_point(thetas[minima.front().second]), minima.front().first};
    const std::size_t refine = std::min<std::size_t>(minima.size(), 4);
    for (std::size_t i = 0; i < refine; ++i) {
      const std::size_t k = minima[i].second;
      double lo = thetas[(k + m - 1) % m];
      double hi = thetas[(k + 1) % m];
      if (lo > thetas[k]) {
        lo -= 2.0 * std::numbers::pi;
      }
      if (hi < thetas[k]) {
        hi += 2.0 * std::numbers::pi;
      }
      const double theta = golden(lo, hi);
      const auto [x, f] = along(theta);
      if (f < best.f) {
        best = {x, f};
      }
    }
    return best;
  }

  /// 1 − μ v_n(θ): the cone bounds ρ along θ iff this is positive.
  double denominator(double theta) const {
    return 1.0 + p_.mu * (p_.A(0, 1) * std::cos(theta) + p_.A(0, 2) * std::sin(theta)) / p_.A(0, 0);
  }

  /// Best feasible point of the conic section in the direction θ and its objective.
  std::pair<Vec3, double> along(double theta) const {
    const Mat3& A = p_.A;
    const Vec3& b = p_.b;
    const double c = std::cos(theta);
    const double s = std::sin(theta);
    const Vec3 base(b[0] / A(0, 0), 0.0, 0.0);
    const Vec3 v(-(A(0, 1) * c + A(0, 2) * s) / A(0, 0), c, s);
    // cone: ρ ≤ μ (b_n/A_nn + ρ v_n)  ⇔  ρ (1 − μ v_n) ≤ μ b_n/A_nn
    const double den = denominator(theta);
    const double rho_max =
        den > 0.0 ? p_.mu * base[0] / den : std::numeric_limits<double>::infinity();
    const double g = v.dot(A * base - b);
    const double h = v.dot(A * v);
    const double rho = std::clamp(-g / h, 0.0, rho_max);
    const Vec3 x = base + rho * v;
    return {x, objective_of(p_, x)};
  }

private:
  Vec3 along_point(double theta) const { return along(theta).first; }

  double golden(double lo, double hi) const {
    constexpr double g = 0.61803398874989484820;
    double x1 = hi - g * (hi - lo);
    double x2 = lo + g * (hi - lo);
    double f1 = along(x1).second;
    double f2 = along(x2).second;
    for (int it = 0; it < 90 && hi - lo > 1e-17; ++it) {
      if (f1 < f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - g * (hi - lo);
        f1 = along(x1).second;
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + g * (hi - lo);
        f2 = along(x2).second;
      }
    }
    return f1 < f2 ? x1 : x2;
  }

  Problem p_;
};

inline Reference brute_force_minimum(const Problem& p) { return BruteForce(p).minimum(); }

/// Largest relative violation of the constraints of §3.2 by x: the cone, x_n ≥ 0, the discrete
/// Signorini condition a_nᵀx − b_n ≥ 0, its complementarity with x_n, and the pressure condition
/// a_nᵀx ≥ 0. Each is measured relative to the magnitude of the terms it is computed from.
inline double feasibility_violation(const Problem& p, const Vec3& x) {
  const double tiny = 1e-300;
  const double nto = std::hypot(x[1], x[2]);
  const double xn = x[0];
  const double cone = (nto - p.mu * xn) / std::max(nto + p.mu * std::abs(xn), tiny);
  const double xnorm = std::max(x.norm(), tiny);
  const double gap = p.A.row(0).dot(x) - p.b[0];
  const double gap_scale = std::max(std::abs(p.A(0, 0) * x[0]) + std::abs(p.A(0, 1) * x[1]) +
                                        std::abs(p.A(0, 2) * x[2]) + std::abs(p.b[0]),
                                    tiny);
  const double pressure = -(p.A.row(0).dot(x)) / gap_scale;
  const double complementarity = std::min(std::abs(xn) / xnorm, std::abs(gap) / gap_scale);
  return std::max({cone, -xn / xnorm, -gap / gap_scale, complementarity, pressure, 0.0});
}

/// Relative objective difference, relative to max(|f_ref|, floor): floor is a small fraction of
/// the unconstrained energy scale ½ bᵀA⁻¹b so that exact zeros compare sensibly.
inline double objective_error(const Problem& p, double f, double f_ref) {
  const double energy = 0.5 * std::abs(p.b.dot(p.A.ldlt().solve(p.b)));
  const double scale = std::max({std::abs(f_ref), 1e-6 * energy, 1e-300});
  return (f - f_ref) / scale;
}

// ---------------------------------------------------------------------------------------------
// Random problem classes (seeded)

enum class ProblemClass {
  well_conditioned,
  ill_conditioned,
  near_parabolic,
  bn_zero,
  mu_zero,
  mu_huge,
  extreme_scales,
  nearly_isotropic,  // sphere-like contacts: A_nt = A_no ≈ 0, A_tt ≈ A_oo (degree drop in Eq. 8)
};
inline constexpr ProblemClass kAllClasses[] = {
    ProblemClass::well_conditioned, ProblemClass::ill_conditioned, ProblemClass::near_parabolic,
    ProblemClass::bn_zero,          ProblemClass::mu_zero,         ProblemClass::mu_huge,
    ProblemClass::extreme_scales,   ProblemClass::nearly_isotropic};

inline std::string class_name(ProblemClass c) {
  switch (c) {
  case ProblemClass::well_conditioned:
    return "well_conditioned";
  case ProblemClass::ill_conditioned:
    return "ill_conditioned";
  case ProblemClass::near_parabolic:
    return "near_parabolic";
  case ProblemClass::bn_zero:
    return "bn_zero";
  case ProblemClass::mu_zero:
    return "mu_zero";
  case ProblemClass::mu_huge:
    return "mu_huge";
  case ProblemClass::extreme_scales:
    return "extreme_scales";
  case ProblemClass::nearly_isotropic:
    return "nearly_isotropic";
  }
  return "?";
}

class ProblemGenerator {
public:
  explicit ProblemGenerator(unsigned seed) : rng_(seed) {}

  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  double log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  double normal() { return std::normal_distribution<double>(0.0, 1.0)(rng_); }

  Mat3 rotation() {
    Eigen::Quaterniond q(normal(), normal(), normal(), normal());
    q.normalize();
    return q.toRotationMatrix();
  }
  /// SPD matrix with eigenvalues log-uniform in [lo, hi] and random eigenvectors.
  Mat3 spd(double lo, double hi) {
    const Mat3 R = rotation();
    const Vec3 d(log_uniform(lo, hi), log_uniform(lo, hi), log_uniform(lo, hi));
    Mat3 A = R * d.asDiagonal() * R.transpose();
    return 0.5 * (A + A.transpose());
  }
  /// b with a positive normal component most of the time (closed, approaching contacts).
  Vec3 rhs() {
    Vec3 b(normal(), normal(), normal());
    if (uniform(0.0, 1.0) < 0.9) {
      b[0] = std::abs(b[0]);
    }
    return b;
  }

  Problem next(ProblemClass c) {
    switch (c) {
    case ProblemClass::well_conditioned:
      return {spd(0.3, 3.0), rhs(), log_uniform(0.05, 5.0)};
    case ProblemClass::ill_conditioned:
      return {spd(1e-7, 1.0), rhs(), log_uniform(0.05, 5.0)};
    case ProblemClass::near_parabolic: {
      // μ such that A_nn = μ‖(A_nt, A_no)‖ (1 + δ): the conic section is nearly a parabola
      const Mat3 A = spd(0.05, 3.0);
      const double na = std::hypot(A(0, 1), A(0, 2));
      const double delta = (uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0) * log_uniform(1e-13, 1e-2);
      Vec3 b = rhs();
      b[0] = std::abs(b[0]);
      return {A, b, A(0, 0) / na * (1.0 + delta)};
    }
    case ProblemClass::bn_zero: {
      Vec3 b = rhs();
      b[0] = 0.0;
      return {spd(0.1, 3.0), b, log_uniform(0.05, 20.0)};
    }
    case ProblemClass::mu_zero:
      return {spd(0.1, 3.0), rhs(), 0.0};
    case ProblemClass::mu_huge:
      return {spd(0.1, 3.0), rhs(), log_uniform(1e3, 1e9)};
    case ProblemClass::extreme_scales: {
      const double sa = std::pow(10.0, uniform(-12.0, 12.0));
      const double sb = std::pow(10.0, uniform(-12.0, 12.0));
      return {sa * spd(0.1, 3.0), sb * rhs(), log_uniform(0.05, 5.0)};
    }
    case ProblemClass::nearly_isotropic: {
      // sphere-like: A = diag(α, β, β) in the contact frame, perturbed by relative noise
      const double alpha = log_uniform(0.2, 5.0);
      const double beta = alpha * log_uniform(1.0, 4.0);
      const double noise = uniform(0.0, 1.0) < 0.2 ? 0.0 : log_uniform(1e-16, 1e-3);
      Mat3 E;
      E << normal(), normal(), normal(), 0, normal(), normal(), 0, 0, normal();
      E = 0.5 * (E + E.transpose()).eval();
      const Mat3 A = Vec3(alpha, beta, beta).asDiagonal().toDenseMatrix() + noise * beta * E;
      return {A, rhs(), log_uniform(0.05, 5.0)};
    }
    }
    return {Mat3::Identity(), Vec3::Ones(), 1.0};
  }

private:
  std::mt19937_64 rng_;
};

}  // namespace granite::contact::testing
