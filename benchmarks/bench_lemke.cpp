// Lemke's method (contact/lemke.hpp): time and pivots against the LCP size. The LCPs are the
// polyhedral-friction LCPs of nc coupled contacts, N = [[GᵀWG, E], [μ, −Eᵀ, 0]] with
// W a random SPD Delassus-like matrix of size 3 nc and k = 8 (size nc (k + 2), the global LCP's
// structure), and random approaching velocities (μ = 0.5).
// Prints a table: contacts, size, pivots, milliseconds, status.
#include "granite/contact/lemke.hpp"
#include "granite/contact/polyhedral.hpp"

#include <chrono>
#include <cstdio>
#include <random>

int main() {
  using namespace granite::contact;
  std::mt19937 rng(16);
  std::normal_distribution<double> g;
  const int k = 8;
  std::printf("%8s %6s %8s %12s  %s\n", "contacts", "size", "pivots", "ms", "status");
  for (const int nc : {1, 2, 5, 10, 20, 50, 100}) {
    const int n3 = 3 * nc, m = nc * (k + 2);
    Eigen::MatrixXd B(n3, n3);
    for (int i = 0; i < n3; ++i)
      for (int j = 0; j < n3; ++j) B(i, j) = g(rng);
    const Eigen::MatrixXd W = B * B.transpose() / n3 + Eigen::MatrixXd::Identity(n3, n3);
    // G maps z_c = (x_n, β, λ) of contact c to its impulse; E the λ couplings.
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(n3, nc * (k + 1));
    for (int c = 0; c < nc; ++c) {
      G(3 * c, c * (k + 1)) = 1.0;
      for (int j = 0; j < k; ++j)
        G.block(3 * c + 1, c * (k + 1) + 1 + j, 2, 1) = friction_direction(j, k);
    }
    const Eigen::MatrixXd GWG = G.transpose() * W * G;
    Eigen::MatrixXd N = Eigen::MatrixXd::Zero(m, m);
    Eigen::VectorXd q = Eigen::VectorXd::Zero(m);
    Eigen::VectorXd v(n3);
    for (int i = 0; i < n3; ++i) v[i] = g(rng);
    for (int c = 0; c < nc; ++c) v[3 * c] = -std::abs(v[3 * c]) - 0.5;  // approaching
    const Eigen::VectorXd Gv = G.transpose() * v;
    auto idx = [&](int c, int i) { return c * (k + 2) + i; };  // i = 0..k+1 within contact c
    for (int c = 0; c < nc; ++c) {
      for (int d = 0; d < nc; ++d)
        for (int i = 0; i <= k; ++i)
          for (int j = 0; j <= k; ++j)
            N(idx(c, i), idx(d, j)) = GWG(c * (k + 1) + i, d * (k + 1) + j);
      for (int j = 1; j <= k; ++j) {
        N(idx(c, j), idx(c, k + 1)) = 1.0;
        N(idx(c, k + 1), idx(c, j)) = -1.0;
      }
      N(idx(c, k + 1), idx(c, 0)) = 0.5;  // μ
      for (int i = 0; i <= k; ++i) q[idx(c, i)] = Gv[c * (k + 1) + i];
    }
    Lemke lemke;
    Eigen::VectorXd z;
    const auto t0 = std::chrono::steady_clock::now();
    const LemkeResult r = lemke.solve(N, q, z);
    const double ms =
        1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%8d %6d %8d %12.3f  %s (error %.1e)\n", nc, m, r.pivots, ms,
                std::string(lemke_status_name(r.status)).c_str(), r.error);
  }
  return 0;
}
