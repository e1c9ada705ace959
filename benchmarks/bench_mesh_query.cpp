// ns per sphere query against a tessellated floor (issue 40's benchmark, at the level of one
// query): a flat square floor of about 10², 10⁴ and 10⁶ triangles (n × n squares, each split
// along a diagonal) against the plane test of a `plane` body, for the same spheres. The
// spheres (diameter 1) lie on the floor, each in contact (overlap or gap up to 1 % of r,
// threshold 5 % of r), one per floor cell, visited row by row as a locality-sorted bed
// would be. Two floors: "coarse", squares of side 1 (the floor grows with the triangle count:
// the tree's depth and the memory traffic grow), and "fine", a floor of 100 × 100 diameters in
// ever smaller triangles (a sphere meets more of them). Also the same queries among each
// sphere's candidates gathered beforehand with a skin (a neighbour list of a static mesh).
//   build/benchmarks/bench_mesh_query
#include "granite/collision/mesh_contacts.hpp"
#include "granite/collision/narrow_phase.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <vector>

using namespace granite;
using namespace granite::body;
using namespace granite::collision;

namespace {

constexpr double kRadius = 0.5, kThreshold = 0.05 * kRadius;

// n × n squares of side `side`, corner at the origin, in the plane z = 0.
TriangleMesh floor_mesh(int n, double side) {
  std::vector<Vec3> v;
  std::vector<MeshTriangle> t;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) v.emplace_back(i * side, j * side, 0.0);
  const auto at = [n](int i, int j) { return std::int32_t(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      t.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      t.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  return TriangleMesh(v, t);
}

// Spheres on a floor of width w: one per unit cell (at most 2^20), row by row, jittered.
std::vector<Vec3> bed(double w) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> jitter(-0.25, 0.25), overlap(-0.01, 0.01);
  const int m = std::min(int(w), 1024);
  const double cell = w / m;
  std::vector<Vec3> out;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i)
      out.emplace_back((i + 0.5 + jitter(rng)) * cell, (j + 0.5 + jitter(rng)) * cell,
                       kRadius * (1.0 + overlap(rng)));
  return out;
}

constexpr double kSkin = 0.1;  // of a neighbour list's candidates, as for the particles

struct Floor {
  std::unique_ptr<TriangleMesh> mesh;
  std::vector<Vec3> spheres;
  // Each sphere's candidate triangles, within r + h + skin (CSR).
  std::vector<std::size_t> start;
  std::vector<std::int32_t> candidates;
};

// Floors by (n, fine), built once per process (a map: references stay valid).
const Floor& floor_of(int n, bool fine) {
  static std::map<std::pair<int, bool>, Floor> built;
  auto at = built.find({n, fine});
  if (at != built.end()) return at->second;
  const double side = fine ? 100.0 / n : 1.0;
  Floor f;
  f.mesh = std::make_unique<TriangleMesh>(floor_mesh(n, side));
  f.spheres = bed(n * side);
  f.start.push_back(0);
  for (const Vec3& c : f.spheres) {
    f.mesh->triangles_near(c, kRadius + kThreshold + kSkin,
                           [&](std::int32_t t) { f.candidates.push_back(t); });
    f.start.push_back(f.candidates.size());
  }
  return built.emplace(std::make_pair(n, fine), std::move(f)).first->second;
}

// Arguments: n (squares per side) and 1 for the fine floor.
void SphereMesh(benchmark::State& state) {
  const Floor& f = floor_of(int(state.range(0)), state.range(1) != 0);
  MeshQueryScratch scratch;
  std::vector<MeshContact> out;
  std::size_t k = 0, contacts = 0;
  for (auto _ : state) {
    out.clear();
    contacts += sphere_mesh_contacts(*f.mesh, f.spheres[k], kRadius, kThreshold, out, scratch);
    benchmark::DoNotOptimize(out.data());
    k = k + 1 == f.spheres.size() ? 0 : k + 1;
  }
  state.counters["triangles"] = double(f.mesh->triangle_count());
  state.counters["tree_depth"] = f.mesh->tree().depth();
  state.counters["contacts_per_query"] = double(contacts) / double(state.iterations());
}

// The same with each sphere's candidates given (a static mesh's neighbour list): the per-step
// cost once the list is built.
void SphereMeshCandidates(benchmark::State& state) {
  const Floor& f = floor_of(int(state.range(0)), state.range(1) != 0);
  MeshQueryScratch scratch;
  std::vector<MeshContact> out;
  std::size_t k = 0, contacts = 0;
  for (auto _ : state) {
    out.clear();
    const std::span<const std::int32_t> list(f.candidates.data() + f.start[k],
                                             f.start[k + 1] - f.start[k]);
    contacts +=
        sphere_mesh_contacts(*f.mesh, f.spheres[k], kRadius, kThreshold, list, out, scratch);
    benchmark::DoNotOptimize(out.data());
    k = k + 1 == f.spheres.size() ? 0 : k + 1;
  }
  state.counters["candidates_per_query"] = double(f.candidates.size()) / double(f.spheres.size());
  state.counters["contacts_per_query"] = double(contacts) / double(state.iterations());
}

void SpherePlane(benchmark::State& state) {
  const Floor& f = floor_of(int(state.range(0)), state.range(1) != 0);
  const body::HalfSpace plane{Vec3::Zero(), Vec3::UnitZ()};
  std::size_t k = 0, contacts = 0;
  for (auto _ : state) {
    ContactGeometry g;
    contacts += sphere_half_space(f.spheres[k], kRadius, plane, kThreshold, g);
    benchmark::DoNotOptimize(g);
    k = k + 1 == f.spheres.size() ? 0 : k + 1;
  }
  state.counters["contacts_per_query"] = double(contacts) / double(state.iterations());
}

}  // namespace

// 2 n² triangles: n = 7, 71, 707 → 98, 10 082, 999 698.
BENCHMARK(SphereMesh)->ArgsProduct({{7, 71, 707}, {0, 1}});
BENCHMARK(SphereMeshCandidates)->ArgsProduct({{7, 71, 707}, {0, 1}});
BENCHMARK(SpherePlane)->ArgsProduct({{7, 707}, {0}});

BENCHMARK_MAIN();
