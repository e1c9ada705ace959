// Relaxation accuracy on a resting pile (issue 14): a box of glass spheres (d = 2 mm, dt =
// 1e-4 s, mdp) in a face-centred cubic pile at rest, a few steps under gravity, then for each warm start on/off × sweep ordering the
// mean sweeps and wall time per step to reach fc3d error 1e-4 and 1e-6, the fraction of steps
// meeting 1e-4 within 200 sweeps, and the maximum penetration. Prints a table; not a test.
//
// usage: bench_pile [nx ny layers settle_steps measured_steps max_sweeps_1e-6 tables]
//        (defaults 15 12 20 30 4 500 1: 3340 spheres). tables: 1 warm start x orderings (mdp),
//        2 contact.model ccp: Gauss–Seidel against APGD (solver.method) to CCP error 1e-4 and
//        1e-6 (capped at max_sweeps sweeps or iterations), 3 both.
// Each measured step is relaxed twice from the same state: on a copy to 1e-4 (at most 200
// sweeps), then for real to 1e-6 (at most max_sweeps), which advances the pile and its
// warm-start history.
#include "granite/timestep/simulation.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <string>

using namespace granite;

namespace {

constexpr double kR = 1e-3, kDt = 1e-4, kG = 9.81;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void build_pile(timestep::Simulation& sim, int nx, int ny, int layers) {
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.error_reduction = 0.2;
  p.contact_threshold = 0.05 * kR;
  p.model.model = contact::Model::mdp;
  const auto glass = sim.materials().add({2500.0, 0.5});
  const double Lx = nx * 2.0 * kR, Ly = ny * 2.0 * kR;
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, glass);
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitX()}, glass);
  sim.globals().add(body::HalfSpace{Vec3(Lx, 0, 0), -Vec3::UnitX()}, glass);
  sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitY()}, glass);
  sim.globals().add(body::HalfSpace{Vec3(0, Ly, 0), -Vec3::UnitY()}, glass);
  // Square layers of touching spheres, each odd layer in the hollows of the one below
  // (a face-centred cubic pile): every sphere rests on four, so the forces are statically
  // indeterminate, as in a real pile, and the pile is at rest from the start.
  const double d = 2.0 * kR, dz = std::sqrt(2.0) * kR;
  for (int k = 0; k < layers; ++k) {
    const int odd = k % 2;
    for (int j = 0; j < ny - odd; ++j)
      for (int i = 0; i < nx - odd; ++i)
        sim.particles().add_sphere(
            sim.materials(), glass,
            Vec3((i + 0.5 + 0.5 * odd) * d, (j + 0.5 + 0.5 * odd) * d, kR + k * dz), kR);
  }
}

// contact.model ccp from the settled pile: Gauss–Seidel and APGD, each `measured` steps from
// the same state, to CCP error 1e-4 and 1e-6 (the fc3d convergence test measures the CCP error
// with ccp): mean sweeps (GS) or iterations (APGD, one product Nγ each), ms per step, the
// fraction of steps that met the tolerance.
void ccp_solvers_table(const timestep::Simulation& pile, int measured, int cap) {
  std::printf("# contact.model ccp, cold start, %d measured steps, cap %d sweeps/iterations\n",
              measured, cap);
  std::printf("%-13s %10s %12s %12s %10s %12s\n", "method", "tolerance", "sweeps|its", "ms/step",
              "met", "error_max");
  for (const double tolerance : {1e-4, 1e-6})
    for (const solver::Method method : {solver::Method::gauss_seidel, solver::Method::apgd}) {
      timestep::Simulation sim = pile;
      auto& p = sim.parameters();
      p.model.model = contact::Model::ccp;
      p.method = method;
      p.warm_start = 0.0;
      p.ordering = solver::Ordering::detection;
      p.convergence = solver::Convergence::fc3d;
      p.tolerance = tolerance;
      p.max_sweeps = cap;
      double sweeps = 0, seconds = 0, error = 0;
      int met = 0;
      for (int s = 0; s < measured; ++s) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto& st = sim.step();
        seconds += seconds_since(t0);
        sweeps += st.sweeps;
        met += st.converged ? 1 : 0;
        error = std::max(error, st.fc3d_error);
      }
      const double n = measured;
      std::printf("%-13s %10.0e %12.1f %12.1f %10.2f %12.2e\n",
                  method == solver::Method::apgd ? "apgd" : "gauss_seidel", tolerance, sweeps / n,
                  1e3 * seconds / n, met / n, error);
      std::fflush(stdout);
    }
}

// Warm start over a long run (table 4): the pile stepped `steps` times with warm start 1 at
// fc3d 1e-4 (at most `cap` sweeps a step), and every `every` steps the same state relaxed
// cold on a copy (at most 10 × cap sweeps): mean sweeps of each over the block, fraction met.
// Shows whether the warm-started history converges over several steps where one step cannot.
void warm_history_table(const timestep::Simulation& pile, int steps, int every, int cap,
                        solver::Ordering ordering) {
  std::printf("# warm start 1 vs cold over %d steps, fc3d 1e-4, warm cap %d, cold cap %d, "
              "ordering %d\n",
              steps, cap, 10 * cap, static_cast<int>(ordering));
  std::printf("%8s %12s %10s %12s %12s %10s %12s\n", "steps", "warm_sweeps", "warm_met", "warm_err",
              "cold_sweeps", "cold_met", "cold_err");
  timestep::Simulation sim = pile;
  auto& p = sim.parameters();
  p.warm_start = 1.0;
  p.ordering = ordering;
  p.convergence = solver::Convergence::fc3d;
  p.tolerance = 1e-4;
  p.max_sweeps = cap;
  double sweeps = 0, error = 0;
  int met = 0;
  for (int s = 1; s <= steps; ++s) {
    const auto& st = sim.step();
    sweeps += st.sweeps;
    met += st.converged ? 1 : 0;
    error = std::max(error, st.fc3d_error);
    if (s % every != 0) continue;
    timestep::Simulation cold = sim;
    cold.parameters().warm_start = 0.0;
    cold.parameters().max_sweeps = 10 * cap;
    const auto& c = cold.step();
    std::printf("%8d %12.1f %10.2f %12.2e %12d %10d %12.2e\n", s, sweeps / every,
                static_cast<double>(met) / every, error, c.sweeps, c.converged ? 1 : 0,
                c.fc3d_error);
    std::fflush(stdout);
    sweeps = 0;
    error = 0;
    met = 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
  const int nx = arg(1, 15), ny = arg(2, 12), layers = arg(3, 20), settle = arg(4, 30),
            measured = arg(5, 4), max_sweeps = arg(6, 500), tables = arg(7, 1);

  timestep::Simulation pile;
  build_pile(pile, nx, ny, layers);
  {
    auto& p = pile.parameters();  // settling: cheap but accurate enough to rest
    p.convergence = solver::Convergence::fc3d;
    p.tolerance = 1e-4;
    p.max_sweeps = 100;
    p.warm_start = 1.0;
    p.ordering = solver::Ordering::gravity;
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < settle; ++s) pile.step();
    const auto& st = pile.statistics();
    std::printf("# pile: %zu spheres (d = 2 mm glass, %d layers), %zu contacts after %d settling "
                "steps (%.1f s), kinetic energy %.3e J, max penetration %.3e m\n",
                st.particles, layers, st.contacts, settle, seconds_since(t0), st.kinetic_energy,
                st.max_penetration);
  }
  if (tables & 2) ccp_solvers_table(pile, measured, max_sweeps);
  if (tables & 4)
    warm_history_table(pile, arg(8, 200), arg(9, 20), arg(10, 50),
                       static_cast<solver::Ordering>(arg(11, 0)));
  if (!(tables & 1)) return 0;
  std::printf("# %d measured steps per setting; 1e-4 runs capped at 200 sweeps, 1e-6 at %d\n",
              measured, max_sweeps);
  std::printf("%-5s %-10s %12s %12s %10s %12s %12s %10s %14s\n", "warm", "ordering", "sweeps_1e-4",
              "ms/step_1e-4", "met_1e-4", "sweeps_1e-6", "ms/step_1e-6", "met_1e-6", "max_pen[m]");
  for (const double warm : {0.0, 1.0})
    for (const Named<solver::Ordering>& ordering : solver::kOrderingNames) {
      timestep::Simulation sim = pile;  // the same settled state and history for every setting
      auto& p = sim.parameters();
      p.warm_start = warm;
      p.ordering = ordering.value;
      p.ordering_seed = 1;
      p.convergence = solver::Convergence::fc3d;
      // One step at 1e-6 first, so that warm start has the same kind of history in every row.
      p.tolerance = 1e-6;
      p.max_sweeps = max_sweeps;
      sim.step();
      double sweeps4 = 0, sweeps6 = 0, seconds4 = 0, seconds6 = 0, penetration = 0;
      int met4 = 0, met6 = 0;
      for (int s = 0; s < measured; ++s) {
        timestep::Simulation trial = sim;
        trial.parameters().tolerance = 1e-4;
        trial.parameters().max_sweeps = 200;
        auto t0 = std::chrono::steady_clock::now();
        const auto& a = trial.step();
        seconds4 += seconds_since(t0);
        sweeps4 += a.sweeps;
        met4 += a.converged ? 1 : 0;
        t0 = std::chrono::steady_clock::now();
        const auto& b = sim.step();
        seconds6 += seconds_since(t0);
        sweeps6 += b.sweeps;
        met6 += b.converged ? 1 : 0;
        penetration = std::max(penetration, b.max_penetration);
      }
      const double n = measured;
      std::printf("%-5.0f %-10s %12.1f %12.1f %10.2f %12.1f %12.1f %10.2f %14.3e\n", warm,
                  std::string(ordering.name).c_str(), sweeps4 / n, 1e3 * seconds4 / n, met4 / n,
                  sweeps6 / n, 1e3 * seconds6 / n, met6 / n, penetration);
      std::fflush(stdout);
    }
  return 0;
}
