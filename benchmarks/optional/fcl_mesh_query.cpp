// Granite's sphere–mesh query against FCL's (issue 40: "FCL or CGAL are candidates. Measure one
// against your own on the benchmark, keep what is faster"). The floors, beds and spheres of
// bench_mesh_query.cpp (n × n unit squares, each split along a diagonal: 98, 10 082 and 999 698
// triangles; spheres of diameter 1 resting on it, one per cell, row by row), the same query on
// both sides: the triangles within the sphere's reach r + h.
// - Granite: collision::sphere_mesh_contacts through the mesh's AABB tree (the contacts, one per
//   face, edge or vertex);
// - FCL 0.7: fcl::collide of a sphere of radius r + h with a BVHModel of the triangles (AABB
//   and OBBRSS bounding volumes), all contacts requested (one per triangle it meets: the
//   broad and narrow phase alone, no attribution to features, which Granite adds on top).
// Built only where FCL is installed (Debian: libfcl-dev; benchmarks/CMakeLists.txt):
//   build/benchmarks/fcl_mesh_query
#include "granite/collision/mesh_contacts.hpp"

#include <benchmark/benchmark.h>
#include <fcl/fcl.h>

#include <map>
#include <memory>
#include <random>
#include <vector>

using namespace granite;

namespace {

constexpr double kRadius = 0.5, kThreshold = 0.05 * kRadius;

struct Floor {
  std::vector<Vec3> vertices;
  std::vector<body::MeshTriangle> triangles;
  std::unique_ptr<body::TriangleMesh> mesh;
  std::vector<Vec3> spheres;
};

// n × n unit squares in z = 0 and a bed of spheres on them (as bench_mesh_query.cpp).
const Floor& floor_of(int n) {
  static std::map<int, Floor> built;
  if (auto at = built.find(n); at != built.end()) return at->second;
  Floor f;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) f.vertices.emplace_back(i, j, 0.0);
  const auto at = [n](int i, int j) { return std::int32_t(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      f.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      f.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  f.mesh = std::make_unique<body::TriangleMesh>(f.vertices, f.triangles);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> jitter(-0.25, 0.25), overlap(-0.01, 0.01);
  const int m = std::min(n, 1024);
  const double cell = double(n) / m;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i)
      f.spheres.emplace_back((i + 0.5 + jitter(rng)) * cell, (j + 0.5 + jitter(rng)) * cell,
                             kRadius * (1.0 + overlap(rng)));
  return built.emplace(n, std::move(f)).first->second;
}

void Granite(benchmark::State& state) {
  const Floor& f = floor_of(int(state.range(0)));
  collision::MeshQueryScratch scratch;
  std::vector<collision::MeshContact> out;
  std::size_t k = 0, found = 0;
  for (auto _ : state) {
    out.clear();
    found +=
        collision::sphere_mesh_contacts(*f.mesh, f.spheres[k], kRadius, kThreshold, out, scratch);
    benchmark::DoNotOptimize(out.data());
    k = k + 1 == f.spheres.size() ? 0 : k + 1;
  }
  state.counters["triangles"] = double(f.triangles.size());
  state.counters["per_query"] = double(found) / double(state.iterations());
}

template <class BV>
void Fcl(benchmark::State& state) {
  const Floor& f = floor_of(int(state.range(0)));
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  std::vector<fcl::Vector3d> points;
  std::vector<fcl::Triangle> triangles;
  for (const Vec3& v : f.vertices) points.emplace_back(v.x(), v.y(), v.z());
  for (const auto& t : f.triangles) triangles.emplace_back(t[0], t[1], t[2]);
  model->beginModel();
  model->addSubModel(points, triangles);
  model->endModel();
  fcl::CollisionObjectd mesh(model);
  fcl::CollisionObjectd sphere(std::make_shared<fcl::Sphered>(kRadius + kThreshold));
  const fcl::CollisionRequestd request(64, true);
  std::size_t k = 0, found = 0;
  for (auto _ : state) {
    const Vec3& c = f.spheres[k];
    sphere.setTranslation(fcl::Vector3d(c.x(), c.y(), c.z()));
    sphere.computeAABB();
    fcl::CollisionResultd result;
    fcl::collide(&sphere, &mesh, request, result);
    found += result.numContacts();
    k = k + 1 == f.spheres.size() ? 0 : k + 1;
  }
  state.counters["triangles"] = double(f.triangles.size());
  state.counters["per_query"] = double(found) / double(state.iterations());
}

}  // namespace

BENCHMARK(Granite)->Arg(7)->Arg(71)->Arg(707);
BENCHMARK_TEMPLATE(Fcl, fcl::AABBd)->Arg(7)->Arg(71)->Arg(707);
BENCHMARK_TEMPLATE(Fcl, fcl::OBBRSSd)->Arg(7)->Arg(71)->Arg(707);

BENCHMARK_MAIN();
