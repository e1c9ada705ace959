// The cannonball pile of Olsen & Kamrin §8.2 (issue 17): a square-based close-packed pyramid of
// n spheres along the base (n = 20: 2 870 spheres), d = 2.5 mm, 2 000 kg/m³, frictionless,
// the base layer fixed, the other layers dropped from 5 % of a radius above their resting
// height, Δt = 1e-3 s. After `settle` plain Gauss–Seidel steps, one more step from the same
// state is solved three ways: plain Gauss–Seidel, APGD (contact.model ccp with friction 0),
// and Gauss–Seidel followed by the compatible pass (Hooke, uniform stiffness). Prints the
// time of the relaxation and of the compatible pass, and for each the base reactions (the
// force each fixed base sphere takes from the layer above): their sum against the pile's
// weight, their relative spread (standard deviation / mean) and their departure from the
// pile's 4-fold symmetry, max over the square's 8 symmetries g of ‖R − R∘g‖ / ‖R‖ (the paper:
// plain solvers break the symmetry, the compatible forces keep it). Not a test.
//
// usage: bench_compatible_pile [n settle_steps max_sweeps tolerance_exponent]
//        (defaults 20 40 2000 6: fc3d error 1e-6 for the relaxations; the compatible pass
//        stops at 1e-10, solver::CompatibleSettings)
#include "granite/timestep/simulation.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace granite;

namespace {

constexpr double kR = 1.25e-3, kDt = 1e-3, kG = 9.81, kDensity = 2000.0;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Base sphere (i, j) has id i n + j; the layers above follow.
void build_pyramid(timestep::Simulation& sim, int n) {
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.error_reduction = 0.2;
  p.contact_threshold = 0.1 * kR;  // the 5 % gaps close within the first steps
  p.model.model = contact::Model::frictionless;
  p.convergence = solver::Convergence::fc3d;
  p.ordering = solver::Ordering::detection;
  const auto glass = sim.materials().add({kDensity, 0.0, 50e9});
  BodyId id = 0;
  for (int layer = 0; layer < n; ++layer) {
    const int m = n - layer;
    const double z = kR + layer * (std::sqrt(2.0) + 0.05) * kR;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j)
        sim.particles().add_sphere(sim.materials(), glass,
                                   Vec3((2 * i - (m - 1)) * kR, (2 * j - (m - 1)) * kR, z), kR,
                                   Vec3::Zero(), id++, 0, layer == 0);
  }
}

// Downward force (N) on every base sphere, indexed by its id i n + j, from the step's contact
// impulses along the normals (`normal_impulse(j)`).
template <class Impulse>
std::vector<double> base_reactions(const timestep::Simulation& sim, int n, Impulse normal_impulse) {
  std::vector<double> reaction(std::size_t(n) * std::size_t(n), 0.0);
  const auto& c = sim.contacts();
  const auto& p = sim.particles();
  for (std::size_t k = 0; k < c.size(); ++k) {
    const Vec3 on_body1 = normal_impulse(k) * c.normal[k];
    for (const auto& [b, sign] : {std::pair{c.body1[k], 1.0}, std::pair{c.body2[k], -1.0}}) {
      if (c.involves_global(k) && sign < 0.0) continue;
      if (p.fixed[b] == 0) continue;
      reaction[std::size_t(p.id[b])] += -sign * on_body1.z() / kDt;
    }
  }
  return reaction;
}

struct Spread {
  double sum = 0.0, relative_spread = 0.0, asymmetry = 0.0;
};

Spread spread_of(const std::vector<double>& r, int n) {
  Spread s;
  double sum2 = 0.0;
  for (double v : r) s.sum += v, sum2 += v * v;
  const double mean = s.sum / double(r.size());
  s.relative_spread = std::sqrt(std::max(0.0, sum2 / double(r.size()) - mean * mean)) / mean;
  // The square's symmetries: (i, j) → (±i, ±j) and (±j, ±i) about the centre.
  for (int g = 1; g < 8; ++g) {
    double diff2 = 0.0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        int a = (g & 1) ? n - 1 - i : i, b = (g & 2) ? n - 1 - j : j;
        if (g & 4) std::swap(a, b);
        const double d = r[std::size_t(i * n + j)] - r[std::size_t(a * n + b)];
        diff2 += d * d;
      }
    s.asymmetry = std::max(s.asymmetry, std::sqrt(diff2 / sum2));
  }
  return s;
}

void row(const char* name, double relax_s, double compatible_s, int sweeps, const Spread& s,
         double weight) {
  std::printf("%-12s %10.3f %12.3f %8d %14.6f %12.4f %12.2e\n", name, relax_s, compatible_s, sweeps,
              s.sum / weight, s.relative_spread, s.asymmetry);
}

}  // namespace

int main(int argc, char** argv) {
  auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
  const int n = arg(1, 20), settle = arg(2, 40), max_sweeps = arg(3, 2000),
            tolerance_exponent = arg(4, 6);
  const double tolerance = std::pow(10.0, -tolerance_exponent);

  timestep::Simulation pile;
  build_pyramid(pile, n);
  pile.parameters().tolerance = 1e-4;
  pile.parameters().max_sweeps = 200;
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < settle; ++s) pile.step();
  double weight = 0.0;  // of the free spheres (N)
  for (std::size_t i = 0; i < pile.particles().size(); ++i)
    if (pile.particles().fixed[i] == 0) weight += pile.particles().mass[i] * kG;
  std::printf("# cannonball pile: %d along the base, %zu spheres, %zu contacts after %d settling "
              "steps of %g s (%.1f s wall), kinetic energy %.3e J, max penetration %.3e m\n",
              n, pile.particles().size(), pile.statistics().contacts, settle, kDt,
              seconds_since(t0), pile.statistics().kinetic_energy,
              pile.statistics().max_penetration);
  std::printf("# one more step from the settled state, relaxations to fc3d error %g (at most %d "
              "sweeps / iterations), compatible pass (Hooke, uniform) to 1e-10\n",
              tolerance, max_sweeps);
  std::printf("%-12s %10s %12s %8s %14s %12s %12s\n", "solver", "relax[s]", "compatible[s]",
              "sweeps", "sum(R)/weight", "std(R)/mean", "asymmetry");

  const auto seconds = [](const timestep::Simulation& s, Phase phase) {
    return s.timers().seconds(phase);
  };
  timestep::Simulation gs = pile;
  gs.parameters().tolerance = tolerance;
  gs.parameters().max_sweeps = max_sweeps;
  gs.parameters().compatible = solver::ContactLaw::hooke;
  const double gs_relax0 = seconds(gs, Phase::relaxation),
               gs_compat0 = seconds(gs, Phase::compatible);
  gs.step();
  const double gs_relax = seconds(gs, Phase::relaxation) - gs_relax0,
               gs_compat = seconds(gs, Phase::compatible) - gs_compat0;
  const auto& st = gs.statistics();
  row("gauss_seidel", gs_relax, 0.0, st.sweeps,
      spread_of(base_reactions(gs, n, [&](std::size_t k) { return gs.impulses()[k][0]; }), n),
      weight);
  row("compatible", gs_relax, gs_compat, st.sweeps,
      spread_of(base_reactions(gs, n, [&](std::size_t k) { return gs.compatible_impulses()[k]; }),
                n),
      weight);

  timestep::Simulation apgd = pile;
  apgd.parameters().model.model = contact::Model::ccp;  // friction 0: frictionless CCP
  apgd.parameters().method = solver::Method::apgd;
  apgd.parameters().tolerance = tolerance;
  apgd.parameters().max_sweeps = max_sweeps;
  const double apgd_relax0 = seconds(apgd, Phase::relaxation);
  apgd.step();
  row("apgd", seconds(apgd, Phase::relaxation) - apgd_relax0, 0.0, apgd.statistics().sweeps,
      spread_of(base_reactions(apgd, n, [&](std::size_t k) { return apgd.impulses()[k][0]; }), n),
      weight);
  std::printf("# compatible pass: %s, %d outer / %d inner iterations, relative violation %.2e, "
              "stationarity %.2e; relaxations converged: gauss_seidel %s (fc3d %.2e), apgd %s "
              "(error %.2e)\n",
              to_string(gs.compatible_result().status).c_str(), st.compatible_outer_iterations,
              st.compatible_inner_iterations, st.compatible_violation, st.compatible_stationarity,
              st.converged ? "yes" : "no", st.fc3d_error,
              apgd.statistics().converged ? "yes" : "no", apgd.statistics().fc3d_error);
  return 0;
}
