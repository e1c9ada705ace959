// Relaxation throughput (contact updates per second, one core) on a settled dense packing of
// ~10⁵ spheres, per single-contact model, plus the cost of detection + setup per particle and
// the share of a step they take at 10 sweeps.
//
// The packing: a simple cubic lattice of 50 × 50 × 40 = 10⁵ touching spheres (d = 1 mm,
// spacing d) inside a box (floor + four side walls), μ = 0.5, gravity on, every sphere given a
// random velocity of up to 1 cm/s per component (so that contacts are loaded in every direction
// and all solver branches — separating, sticking, sliding — occur), then run for kSettleSteps
// steps of 10⁻⁵ s with mdp. Every sphere has its 6 lattice neighbours (or a wall) within the
// contact threshold 10⁻² d: ≈ 3·10⁵ contacts. (With a gap between the lattice spheres the
// contacts would all be open and the benchmark would only time the trivial separating case.)
// Building it takes a few seconds; the whole program well under a minute.
//
// Figures: "updates/s" = contacts × sweeps / relaxation time; "det+setup/particle" in ns;
// "det+setup share" = (detection + setup) / (detection + setup + 10 sweeps + integration).
//
// Locality (issue 18, contact.locality_sort): the same packing stored in the lattice order it
// was built in (x fastest: already local), shuffled (what a long run's migrations, insertions
// and deletions leave), and shuffled then sorted along the Z-order curve
// (body::sort_by_locality, cells of the linked-cell size 2r + threshold, and half of it); per
// order detection + setup per particle and the mdp sweep rate, and the sort's own cost.
#include "granite/body/locality_sort.hpp"
#include "granite/collision/detection.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"
#include "granite/solver/relaxation.hpp"
#include "granite/timestep/integrator.hpp"
#include "granite/timestep/report.hpp"
#include "granite/timestep/simulation.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <numeric>
#include <random>

using namespace granite;

namespace {

constexpr int kNx = 50, kNy = 50, kNz = 40, kSettleSteps = 5, kSweeps = 10;
constexpr double kD = 1e-3;

struct Packing {
  timestep::Simulation sim;
  collision::ContactDetection detection;
  collision::ContactList contacts;
  solver::BodyStates states0;  // as predicted (and the tensors states point to)
  std::vector<solver::BodyState> states;
  std::vector<solver::SolverContact> solver_contacts;
  std::vector<Vec3> impulses;
};

Packing& packing() {
  static std::unique_ptr<Packing> p = [] {
    auto pk = std::make_unique<Packing>();
    auto& sim = pk->sim;
    auto& par = sim.parameters();
    par.dt = 1e-5;
    par.gravity = Vec3(0, 0, -9.81);
    par.contact_threshold = 1e-2 * kD;
    par.error_reduction = 0.1;
    par.max_sweeps = kSweeps;
    par.tolerance = 0.0;  // always kSweeps sweeps
    const auto mat = sim.materials().add({2650.0, 0.5});
    const double h = kD;
    // Sphere (i, j, k) at ((i + ½) h, (j + ½) h, (k + ½) h): touching walls at 0 and n h.
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, mat);
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitX()}, mat);
    sim.globals().add(body::HalfSpace{Vec3(kNx * h, 0, 0), -Vec3::UnitX()}, mat);
    sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitY()}, mat);
    sim.globals().add(body::HalfSpace{Vec3(0, kNy * h, 0), -Vec3::UnitY()}, mat);
    sim.particles().reserve(std::size_t(kNx) * kNy * kNz);
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-0.01, 0.01);
    for (int k = 0; k < kNz; ++k)
      for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; ++i)
          sim.particles().add_sphere(sim.materials(), mat, h * Vec3(i + 0.5, j + 0.5, k + 0.5),
                                     0.5 * kD, Vec3(u(rng), u(rng), u(rng)));
    for (int s = 0; s < kSettleSteps; ++s) {
      const auto& st = sim.step();
      std::printf("settle step %d: %s\n", s, timestep::thermo_line(st).c_str());
    }
    // Freeze one step's contact problem for the relaxation benchmarks.
    pk->detection.detect(sim.particles(), sim.globals(), sim.shapes(), par.contact_threshold,
                         pk->contacts);
    solver::predict_velocities(sim.particles(), sim.globals(), par.gravity, par.dt, pk->states0);
    solver::setup_contacts(pk->contacts, sim.particles(), sim.globals(), sim.materials(),
                           pk->states0, par.dt, par.error_reduction, pk->solver_contacts);
    return pk;
  }();
  return *p;
}

// Wall-clock seconds of f().
template <class F>
double seconds_of(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double relax_seconds(Packing& pk, contact::Model model) {
  pk.states = pk.states0;
  pk.impulses.assign(pk.solver_contacts.size(), Vec3::Zero());
  const contact::ModelSettings settings{model, 20};
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < kSweeps; ++s)
    solver::relaxation_sweep(settings, pk.solver_contacts, pk.impulses, pk.states);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double detection_setup_seconds(Packing& pk) {
  auto& sim = pk.sim;
  const auto& par = sim.parameters();
  const auto t0 = std::chrono::steady_clock::now();
  pk.detection.detect(sim.particles(), sim.globals(), sim.shapes(), par.contact_threshold,
                      pk.contacts);
  solver::predict_velocities(sim.particles(), sim.globals(), par.gravity, par.dt, pk.states0);
  solver::setup_contacts(pk.contacts, sim.particles(), sim.globals(), sim.materials(), pk.states0,
                         par.dt, par.error_reduction, pk.solver_contacts);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void BM_Relaxation(benchmark::State& state) {
  auto& pk = packing();
  const auto model = contact::Model(state.range(0));
  state.SetLabel(std::string(contact::model_name(model)));
  double seconds = 0.0;
  for (auto _ : state) {
    const double s = relax_seconds(pk, model);
    state.SetIterationTime(s);
    seconds += s;
  }
  state.counters["contacts"] = double(pk.solver_contacts.size());
  state.counters["updates/s"] = benchmark::Counter(double(pk.solver_contacts.size()) * kSweeps *
                                                   double(state.iterations()) / seconds);
}

void BM_DetectionSetup(benchmark::State& state) {
  auto& pk = packing();
  double seconds = 0.0;
  for (auto _ : state) {
    const double s = detection_setup_seconds(pk);
    state.SetIterationTime(s);
    seconds += s;
  }
  state.counters["ns/particle"] = benchmark::Counter(1e9 * seconds / double(state.iterations()) /
                                                     double(pk.sim.particles().size()));
}

BENCHMARK(BM_Relaxation)
    ->DenseRange(int(contact::Model::frictionless), int(contact::Model::polyhedral))
    ->UseManualTime()
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DetectionSetup)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);

// A plain summary table (the figures the design targets refer to).
void print_summary() {
  auto& pk = packing();
  const std::size_t n = pk.sim.particles().size();
  double ds = 1e300;
  for (int r = 0; r < 3; ++r) ds = std::min(ds, detection_setup_seconds(pk));
  // Integration cost (part of a step), measured on a copy of the particles.
  body::Particles copy = pk.sim.particles();
  body::GlobalBodies globals = pk.sim.globals();
  pk.states = pk.states0;
  const auto t0 = std::chrono::steady_clock::now();
  timestep::integrate(copy, globals, pk.states, pk.sim.parameters().dt);
  const double integ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\n== relaxation summary: %zu particles, %zu contacts, %d sweeps ==\n", n,
              pk.solver_contacts.size(), kSweeps);
  std::printf("detection+setup: %.1f ms (%.0f ns/particle); integration %.1f ms\n", 1e3 * ds,
              1e9 * ds / double(n), 1e3 * integ);
  std::printf("%-16s %14s %14s %18s\n", "model", "updates/s", "10 sweeps [ms]", "det+setup share");
  for (int m = int(contact::Model::frictionless); m <= int(contact::Model::polyhedral); ++m) {
    double rs = 1e300;
    for (int r = 0; r < 2; ++r) rs = std::min(rs, relax_seconds(pk, contact::Model(m)));
    const double updates = double(pk.solver_contacts.size()) * kSweeps / rs;
    std::printf("%-16s %14.3e %14.1f %17.1f%%\n",
                std::string(contact::model_name(contact::Model(m))).c_str(), updates, 1e3 * rs,
                100.0 * ds / (ds + rs + integ));
  }
}

// The packing's particles stored in another order: detection + setup (s, best of 3) and the
// mdp relaxation's contact updates per second (best of 2) in that order.
std::pair<double, double> in_order(Packing& pk, const body::Particles& particles) {
  pk.sim.particles() = particles;
  double ds = 1e300, rs = 1e300;
  for (int r = 0; r < 3; ++r) ds = std::min(ds, detection_setup_seconds(pk));
  // pk.states0: predicted in this order
  for (int r = 0; r < 2; ++r) rs = std::min(rs, relax_seconds(pk, contact::Model::mdp));
  return {ds, double(pk.solver_contacts.size()) * kSweeps / rs};
}

void locality_summary() {
  auto& pk = packing();
  const body::Particles lattice = pk.sim.particles();
  const std::size_t n = lattice.size();
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), std::mt19937(4));
  body::Particles shuffled = lattice;
  shuffled.permute(order);
  const double cell = 2.0 * lattice.max_radius() + pk.sim.parameters().contact_threshold;
  std::printf("\n== locality: %zu particles, mdp, %d sweeps ==\n", n, kSweeps);
  std::printf("%-34s %14s %14s %16s\n", "storage order", "sort [ns/p]", "det+setup [ns/p]",
              "mdp updates/s");
  const auto line = [&](const char* name, double sort_seconds, const body::Particles& p) {
    const auto [ds, updates] = in_order(pk, p);
    std::printf("%-34s %14.0f %16.0f %16.3e\n", name, 1e9 * sort_seconds / double(n),
                1e9 * ds / double(n), updates);
  };
  line("lattice (as built)", 0.0, lattice);
  line("shuffled", 0.0, shuffled);
  for (const double factor : {1.0, 0.5}) {
    double best = 1e300, keys = 1e300;
    body::Particles sorted;
    for (int r = 0; r < 3; ++r) {
      sorted = shuffled;
      best = std::min(best, seconds_of([&] { body::sort_by_locality(sorted, n, factor * cell); }));
      keys = std::min(keys,
                      seconds_of([&] { body::locality_order(shuffled, n, factor * cell, order); }));
    }
    char name[64];
    std::snprintf(name, sizeof name, "shuffled, Morton cells %.1f x (2r+t)", factor);
    line(name, best, sorted);
    std::printf("  of the sort: keys + std::sort %.0f ns/p, moving the fields %.0f ns/p\n",
                1e9 * keys / double(n), 1e9 * (best - keys) / double(n));
  }
  {
    body::Particles sorted = lattice;  // the lattice sorted: what a run starts with
    const double s = seconds_of([&] { body::sort_by_locality(sorted, n, cell); });
    line("lattice, Morton cells 1.0 x (2r+t)", s, sorted);
    double again = 1e300;  // sorting what is in order already (no body changed cells)
    for (int r = 0; r < 3; ++r)
      again = std::min(again, seconds_of([&] { body::sort_by_locality(sorted, n, cell); }));
    std::printf("  sorting it again (in order already): %.0f ns/p\n", 1e9 * again / double(n));
  }
  pk.sim.particles() = lattice;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  print_summary();
  locality_summary();
  return 0;
}
