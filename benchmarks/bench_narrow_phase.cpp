// ns per narrow-phase pair, per pair of shapes (issue 37's benchmark): each case runs one
// pair test over a fixed set of 1024 random near-touching configurations (the pair placed at
// the distance of first contact along a random direction, with random orientations, so that
// most tests find contacts, as in a settled pile), cycling through them. The general
// algorithm (GJK on the vertex sets) is measured beside the analytic paths it stands in for.
//   build/benchmarks/bench_narrow_phase
#include "granite/body/polyhedron.hpp"
#include "granite/collision/capsule_contacts.hpp"
#include "granite/collision/ellipsoid_contacts.hpp"
#include "granite/collision/gjk.hpp"
#include "granite/collision/narrow_phase.hpp"
#include "granite/collision/polyhedron_contacts.hpp"

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

using namespace granite;
using namespace granite::collision;

namespace {

constexpr int kScenes = 1024;
constexpr double kThreshold = 0.05;  // of bodies of size ~1

struct Scene {
  Mat3 r1, r2;
  Vec3 x1;  // body 2 at the origin
};

// Body 1 along a random direction at `distance` (about where the bounding shapes first touch),
// both bodies turned at random.
std::vector<Scene> scenes(double distance) {
  std::mt19937_64 rng(17);
  std::normal_distribution<double> g;
  std::vector<Scene> out;
  for (int k = 0; k < kScenes; ++k) {
    const auto turn = [&] {
      return Quat(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
    };
    out.push_back({turn(), turn(), Vec3(g(rng), g(rng), g(rng)).normalized() * distance});
  }
  return out;
}

const body::ConvexPolyhedron& brick() {
  static const body::ConvexPolyhedron b = body::box_polyhedron(Vec3(1.0, 0.5, 0.25));
  return b;
}

const body::ConvexPolyhedron& grain() {  // a 12-point random hull
  static const body::ConvexPolyhedron p = [] {
    std::mt19937_64 rng(5);
    std::normal_distribution<double> g;
    std::vector<Vec3> points;
    for (int k = 0; k < 12; ++k) points.push_back(Vec3(g(rng), g(rng), g(rng)).normalized());
    return body::convex_hull(points, "grain");
  }();
  return p;
}

void SphereSphere(benchmark::State& state) {
  const auto s = scenes(2.0);
  std::size_t k = 0, found = 0;
  for (auto _ : state) {
    ContactGeometry g;
    found += sphere_sphere(s[k].x1, 1.0, Vec3::Zero(), 1.0, kThreshold, g);
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

void CapsuleCapsule(benchmark::State& state) {
  const auto s = scenes(1.5);
  std::size_t k = 0, found = 0;
  for (auto _ : state) {
    const Vec3 d1 = s[k].r1.col(0), d2 = s[k].r2.col(0);
    ContactGeometry out[2];
    found += capsule_capsule(s[k].x1 - d1, s[k].x1 + d1, 0.5, -d2, d2, 0.5, kThreshold, out) > 0;
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

// Sphere (radius 0.5) against the brick: the GJK path of capsule_polyhedron with a point.
void SphereBox(benchmark::State& state) {
  const auto s = scenes(1.0);
  std::size_t k = 0, found = 0;
  PlacedPolyhedron b;
  for (auto _ : state) {
    b.place(brick(), Vec3::Zero(), s[k].r2);
    ContactGeometry out[2];
    found += capsule_polyhedron(s[k].x1, s[k].x1, 0.5, b, kThreshold, out) > 0;
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

// The analytic sphere–box of the global bodies (body::Box), for comparison.
void SphereBoxAnalytic(benchmark::State& state) {
  const auto s = scenes(1.0);
  std::size_t k = 0, found = 0;
  for (auto _ : state) {
    const body::Box box{Vec3::Zero(), Vec3(1.0, 0.5, 0.25), Quat(s[k].r2)};
    ContactGeometry g;
    found += sphere_box(s[k].x1, 0.5, box, kThreshold, g);
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

void CapsuleBox(benchmark::State& state) {
  const auto s = scenes(1.2);
  std::size_t k = 0, found = 0;
  PlacedPolyhedron b;
  for (auto _ : state) {
    b.place(brick(), Vec3::Zero(), s[k].r2);
    const Vec3 d = 0.5 * s[k].r1.col(0);
    ContactGeometry out[2];
    found += capsule_polyhedron(s[k].x1 - d, s[k].x1 + d, 0.3, b, kThreshold, out) > 0;
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

// Both placements are part of the cost, as in the engine (every candidate pair places both).
template <const body::ConvexPolyhedron& (*Shape)()>
void PolyhedronPolyhedron(benchmark::State& state, double distance) {
  const auto s = scenes(distance);
  std::size_t k = 0, found = 0, points = 0;
  PlacedPolyhedron a, b;
  for (auto _ : state) {
    a.place(Shape(), s[k].x1, s[k].r1);
    b.place(Shape(), Vec3::Zero(), s[k].r2);
    ContactGeometry out[kManifoldPoints];
    const std::size_t n = polyhedron_polyhedron(a, b, kThreshold, out);
    found += n > 0;
    points += n;
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
  state.counters["points_per_contact"] = found ? double(points) / double(found) : 0.0;
}
void BoxBox(benchmark::State& state) { PolyhedronPolyhedron<brick>(state, 1.0); }
void ConvexConvex(benchmark::State& state) { PolyhedronPolyhedron<grain>(state, 1.3); }

// The general algorithm on the same box pairs: GJK's distance of the vertex sets alone (no
// manifold, no penetration depth).
void BoxBoxGjkDistance(benchmark::State& state) {
  const auto s = scenes(1.0);
  std::size_t k = 0, apart = 0;
  PlacedPolyhedron a, b;
  for (auto _ : state) {
    a.place(brick(), s[k].x1, s[k].r1);
    b.place(brick(), Vec3::Zero(), s[k].r2);
    const GjkResult g =
        gjk_distance(PointSetSupport{a.vertices.data(), a.vertices.size()},
                     PointSetSupport{b.vertices.data(), b.vertices.size()}, s[k].x1);
    apart += !g.overlap;
    k = (k + 1) % kScenes;
  }
  state.counters["separated_fraction"] = double(apart) / double(state.iterations());
}

void BoxPlane(benchmark::State& state) {
  const auto s = scenes(1.0);
  const body::Primitive floor = body::HalfSpace{Vec3(0, 0, -1.0), Vec3::UnitZ()};
  std::size_t k = 0, found = 0;
  PlacedPolyhedron b;
  for (auto _ : state) {
    b.place(brick(), Vec3::Zero(), s[k].r1);
    ContactGeometry out[kPolyhedronPrimitiveContacts];
    found += polyhedron_primitive(b, floor, kThreshold, out) > 0;
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

// Ellipsoids of semi-axes (1, 0.7, 0.5): the margin's GJK with Newton's polish.
const Vec3 kPebble(1.0, 0.7, 0.5);

void EllipsoidEllipsoid(benchmark::State& state) {
  const auto s = scenes(1.4);
  std::size_t k = 0, found = 0;
  for (auto _ : state) {
    const PlacedEllipsoid a(s[k].x1, s[k].r1, kPebble), b(Vec3::Zero(), s[k].r2, kPebble);
    ContactGeometry g;
    found += ellipsoid_convex(a, CoreSupport{&b}, b.margin, b.centre, kThreshold, g, &b);
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

void EllipsoidSphere(benchmark::State& state) {
  const auto s = scenes(1.2);
  std::size_t k = 0, found = 0;
  for (auto _ : state) {
    const PlacedEllipsoid a(s[k].x1, s[k].r1, kPebble);
    ContactGeometry g;
    found += ellipsoid_convex(a, SegmentSupport{Vec3::Zero(), Vec3::Zero()}, 0.5, Vec3::Zero(),
                              kThreshold, g);
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

void EllipsoidBox(benchmark::State& state) {
  const auto s = scenes(1.3);
  std::size_t k = 0, found = 0;
  PlacedPolyhedron b;
  for (auto _ : state) {
    const PlacedEllipsoid a(s[k].x1, s[k].r1, kPebble);
    b.place(brick(), Vec3::Zero(), s[k].r2);
    ContactGeometry g;
    found += ellipsoid_polyhedron(a, b, kThreshold, g);
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

void EllipsoidPlane(benchmark::State& state) {
  const auto s = scenes(1.0);
  const body::Primitive floor = body::HalfSpace{Vec3(0, 0, -0.7), Vec3::UnitZ()};
  std::size_t k = 0, found = 0;
  for (auto _ : state) {
    const PlacedEllipsoid a(Vec3::Zero(), s[k].r1, kPebble);
    ContactGeometry out[kEllipsoidPrimitiveContacts];
    found += ellipsoid_primitive(a, floor, kThreshold, out) > 0;
    k = (k + 1) % kScenes;
  }
  state.counters["contact_fraction"] = double(found) / double(state.iterations());
}

}  // namespace

BENCHMARK(SphereSphere);
BENCHMARK(CapsuleCapsule);
BENCHMARK(SphereBox);
BENCHMARK(SphereBoxAnalytic);
BENCHMARK(CapsuleBox);
BENCHMARK(BoxBox);
BENCHMARK(BoxBoxGjkDistance);
BENCHMARK(ConvexConvex);
BENCHMARK(BoxPlane);
BENCHMARK(EllipsoidEllipsoid);
BENCHMARK(EllipsoidSphere);
BENCHMARK(EllipsoidBox);
BENCHMARK(EllipsoidPlane);
BENCHMARK_MAIN();
