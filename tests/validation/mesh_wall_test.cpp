// Mesh walls in the time stepping (issue 40): a sphere does not feel the seams of a tessellated
// plane, and a corner made of triangles holds a sphere as the planes it is made of.
//
// 1. A sphere on an inclined floor (gravity tilted by θ), once on the half-space z = 0 and once
//    on that square cut into ~800 random triangles (slivers and vertices of any valence
//    included; every second triangle reversed), rolling below the critical angle and sliding
//    above it, started right over a vertex. All vertices lie in z = 0, so every face normal is
//    exactly ±z and the mesh's contact (collision/mesh_contacts.hpp) is the plane's bit for
//    bit: the two runs must agree exactly at every step, across every seam and vertex crossed.
// 2. Issue 40's tessellated plane: a sphere launched at v₀ without spin on a horizontal floor
//    of 2, 8 and 200 random triangles slides, then rolls at 5/7 v₀ (friction's impulse
//    μ m g t takes v₀ − v away and gives the spin 5 (v₀ − v)/(2r): rolling when v = 5/7 v₀,
//    reached within one step and then kept exactly), with no vertical velocity: as on the
//    `plane` body, to 1e-12, with exactly one contact per step.
// 3. A sphere dropped onto a turning disk (a cylinder about z at 2 rad/s, μ = 0.5) is dragged
//    along; the disk's top as a fan of 64 triangles turning the same way gives the same
//    trajectory to 1e-12 m (its face normals stay exactly +z: a turn about z keeps z).
// 4. Every shape (a brick, a convex grain, an ellipsoid, a capsule) sliding and tipping across
//    2000 random triangles runs bit for bit as on the half-space.
// 5. A frictionless sphere pressed into the inside corner of a box made of 12 triangles
//    (gravity along (−1, −1, −1)) has three contacts, one per face (not one per triangle: the
//    faces' diagonals are flat seams), and rests: each normal impulse is m g dt / √3 to the
//    solver's tolerance, the velocity zero. (With friction the split is not unique.)
#include "granite/body/triangle_mesh.hpp"
#include "granite/timestep/simulation.hpp"
#include "../support/unit_cube_mesh.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <random>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 0.01, kDt = 1e-4;

// The square [−L, L]² of z = 0 as triangles: two halves, then k random triangles each split
// at a random interior point (z set to exactly 0); every second triangle reversed.
std::shared_ptr<const body::TriangleMesh> tessellated_floor(double L, int k, std::mt19937_64& rng) {
  std::vector<Vec3> v = {{-L, -L, 0}, {L, -L, 0}, {L, L, 0}, {-L, L, 0}};
  std::vector<body::MeshTriangle> t = {{0, 1, 2}, {0, 2, 3}};
  std::uniform_real_distribution<double> u(0.05, 1.0);
  for (int i = 0; i < k; ++i) {
    const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, t.size() - 1)(rng);
    const body::MeshTriangle tri = t[pick];
    const double w[3] = {u(rng), u(rng), u(rng)};
    Vec3 p = Vec3::Zero();
    for (int j = 0; j < 3; ++j)
      p += w[j] / (w[0] + w[1] + w[2]) * v[std::size_t(tri[std::size_t(j)])];
    p.z() = 0.0;
    const auto m = std::int32_t(v.size());
    v.push_back(p);
    t[pick] = {tri[0], tri[1], m};
    t.push_back({tri[1], tri[2], m});
    t.push_back({tri[2], tri[0], m});
  }
  for (std::size_t i = 1; i < t.size(); i += 2) std::swap(t[i][1], t[i][2]);
  return std::make_shared<const body::TriangleMesh>(v, t);
}

void set_up(timestep::Simulation& sim, const Vec3& gravity, contact::Model model) {
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = gravity;
  p.contact_threshold = 0.1 * kR;
  p.model.model = model;
  p.tolerance = 1e-12;
  p.max_sweeps = 50;
}

}  // namespace

class MeshFloor : public testing::TestWithParam<contact::Model> {};

TEST_P(MeshFloor, SphereCrossesTheSeamsOfATessellatedPlaneAsOnThePlane) {
  std::mt19937_64 rng(7);
  const auto floor = tessellated_floor(0.05, 400, rng);
  const Vec3 start(floor->vertex(20).x(), floor->vertex(20).y(), kR);  // over a vertex
  for (const double theta_deg : {25.0, 60.0}) {  // μ = 0.3: rolls (tan θ ≤ 3.5 μ), slides
    const double theta = theta_deg * std::numbers::pi / 180.0;
    const Vec3 g = kG * Vec3(std::sin(theta) * std::cos(0.3), std::sin(theta) * std::sin(0.3),
                             -std::cos(theta));
    timestep::Simulation plane, mesh;
    set_up(plane, g, GetParam());
    set_up(mesh, g, GetParam());
    const auto a = plane.materials().add({2650.0, 0.3});
    const auto b = mesh.materials().add({2650.0, 0.3});
    plane.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, a);
    mesh.globals().add(body::Mesh{floor, Vec3::Zero(), Quat::Identity()}, b);
    plane.particles().add_sphere(plane.materials(), a, start, kR);
    mesh.particles().add_sphere(mesh.materials(), b, start, kR);
    for (int s = 0; s < 1500; ++s) {
      const auto& st = mesh.step();
      plane.step();
      ASSERT_EQ(st.contacts, 1u) << "step " << s;
      ASSERT_EQ(mesh.particles().position[0], plane.particles().position[0]) << "step " << s;
      ASSERT_EQ(mesh.particles().velocity[0], plane.particles().velocity[0]) << "step " << s;
      ASSERT_EQ(mesh.particles().angular_velocity[0], plane.particles().angular_velocity[0])
          << "step " << s;
    }
    // It went somewhere: several triangles' widths (the mean triangle is ~5 mm across).
    EXPECT_GT((mesh.particles().position[0] - start).norm(), 0.02) << theta_deg;
  }
}

TEST_P(MeshFloor, SlidingThenRollingEndsAtFiveSeventhsOfTheLaunchSpeed) {
  const Vec3 v0(0.4, 0.3, 0.0);  // 0.5 m/s
  constexpr double mu = 0.3;
  for (const int splits : {0, 3, 99}) {  // 2, 8 and 200 triangles
    std::mt19937_64 rng(std::uint64_t(11 + splits));
    const auto floor = tessellated_floor(0.1, splits, rng);
    ASSERT_EQ(floor->triangle_count(), std::size_t(2 + 2 * splits));
    timestep::Simulation plane, mesh;
    set_up(plane, Vec3(0, 0, -kG), GetParam());
    set_up(mesh, Vec3(0, 0, -kG), GetParam());
    const auto a = plane.materials().add({2650.0, mu});
    const auto b = mesh.materials().add({2650.0, mu});
    plane.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, a);
    mesh.globals().add(body::Mesh{floor, Vec3::Zero(), Quat::Identity()}, b);
    const Vec3 start(-0.04, -0.03, kR);
    plane.particles().add_sphere(plane.materials(), a, start, kR, v0);
    mesh.particles().add_sphere(mesh.materials(), b, start, kR, v0);
    for (int s = 0; s < 1500; ++s) {  // sliding ends at 2 v₀ / (7 μ g) = 0.049 s
      ASSERT_EQ(mesh.step().contacts, 1u) << "step " << s;
      plane.step();
    }
    const Vec3& v = mesh.particles().velocity[0];
    EXPECT_LE((v - plane.particles().velocity[0]).norm(), 1e-12) << splits;
    EXPECT_LE((mesh.particles().position[0] - plane.particles().position[0]).norm(), 1e-12);
    EXPECT_LE((v - 5.0 / 7.0 * v0).norm(), 1e-9 * v0.norm()) << splits;
    EXPECT_LE(std::abs(v.z()), 1e-12);
    // Rolling: the contact point is at rest, v + ω × (−r e_z) = 0.
    const Vec3 slip = v + mesh.particles().angular_velocity[0].cross(Vec3(0, 0, -kR));
    EXPECT_LE(slip.norm(), 1e-9 * v0.norm()) << splits;
  }
}

// A brick (2 r × r × r/2 half extents), a 12-vertex convex grain, an ellipsoid (r, 0.7 r,
// 0.5 r) and a capsule (radius r, half length 3 r) launched across the floor on the plane and
// on 2000 random triangles: a polyhedron's contacts are its vertices' within the threshold, an
// ellipsoid's its deepest point's, a capsule's its end spheres', each the plane's bit for bit
// (collision/mesh_contacts.hpp), so the runs agree exactly at every step while the bodies
// slide, tip, roll and settle.
TEST_P(MeshFloor, ShapesSlideAcrossATessellatedPlaneAsOnThePlane) {
  std::mt19937_64 rng(19);
  const auto floor = tessellated_floor(0.1, 999, rng);
  std::vector<Vec3> grain;  // an irregular convex shape of 12 vertices, about r across
  std::normal_distribution<double> g;
  for (int k = 0; k < 12; ++k)
    grain.push_back(kR * Vec3(g(rng), g(rng), 0.6 * g(rng)).normalized());
  const Quat turned(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  for (const int kind : {0, 1, 2, 3}) {  // a brick, a grain, a pebble (ellipsoid), a rod
    timestep::Simulation plane, mesh;
    set_up(plane, Vec3(0, 0, -kG), GetParam());
    set_up(mesh, Vec3(0, 0, -kG), GetParam());
    const auto a = plane.materials().add({2650.0, 0.3});
    const auto b = mesh.materials().add({2650.0, 0.3});
    plane.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, a);
    mesh.globals().add(body::Mesh{floor, Vec3::Zero(), Quat::Identity()}, b);
    for (timestep::Simulation* sim : {&plane, &mesh}) {
      const auto shape = kind == 0 ? sim->shapes().add_box("brick", Vec3(2 * kR, kR, 0.5 * kR))
                         : kind == 1
                             ? sim->shapes().add_convex("grain", grain)
                             : sim->shapes().add_ellipsoid("pebble", Vec3(kR, 0.7 * kR, 0.5 * kR));
      sim->particles().add_shaped(
          sim->materials(), sim->shapes(), shape, 0, Vec3(-0.03, -0.02, 1.5 * kR),
          kind == 0 || kind == 3 ? Quat::Identity() : turned, Vec3(0.3, 0.2, 0.0));
    }
    std::size_t touching = 0;
    for (int s = 0; s < 1500; ++s) {
      touching += mesh.step().contacts > 0;
      plane.step();
      ASSERT_EQ(mesh.particles().position[0], plane.particles().position[0]) << "step " << s;
      ASSERT_EQ(mesh.particles().velocity[0], plane.particles().velocity[0]) << "step " << s;
      ASSERT_EQ(mesh.particles().orientation[0].coeffs(),
                plane.particles().orientation[0].coeffs());
    }
    EXPECT_GT(touching, 1000u);
    EXPECT_GT((mesh.particles().position[0] - Vec3(-0.03, -0.02, 0.0)).norm(), 0.015);
  }
}

INSTANTIATE_TEST_SUITE_P(Models, MeshFloor,
                         testing::Values(contact::Model::mdp, contact::Model::coulomb,
                                         contact::Model::ccp),
                         [](const auto& info) {
                           return std::string(contact::model_name(info.param));
                         });

TEST(MeshDisk, SphereOnATurningTessellatedDiskMovesAsOnTheTurningCylinder) {
  constexpr double R = 0.05, L = 0.005, omega = 2.0;
  std::vector<Vec3> v = {Vec3(0, 0, L)};
  std::vector<body::MeshTriangle> t;
  constexpr int kSegments = 64;
  for (int k = 0; k < kSegments; ++k) {
    const double phi = 2.0 * std::numbers::pi * k / kSegments;
    v.emplace_back(R * std::cos(phi), R * std::sin(phi), L);
    t.push_back({0, 1 + k, 1 + (k + 1) % kSegments});
  }
  const auto disk = std::make_shared<const body::TriangleMesh>(v, t);
  timestep::Simulation analytic, mesh;
  for (timestep::Simulation* sim : {&analytic, &mesh}) {
    set_up(*sim, Vec3(0, 0, -kG), contact::Model::mdp);
    const auto m = sim->materials().add({2650.0, 0.5});
    body::GlobalBody turning;
    if (sim == &analytic)
      turning.parts = {body::Cylinder{Vec3::Zero(), Vec3::UnitZ(), R, L, false}};
    else
      turning.parts = {body::Mesh{disk, Vec3::Zero(), Quat::Identity()}};
    turning.angular_velocity = Vec3(0, 0, omega);
    turning.material = m;
    sim->globals().add(turning);
    sim->particles().add_sphere(sim->materials(), m, Vec3(0.02, 0.005, L + kR), kR);
  }
  for (int s = 0; s < 2000; ++s) {
    ASSERT_EQ(mesh.step().contacts, 1u) << "step " << s;
    ASSERT_EQ(analytic.step().contacts, 1u) << "step " << s;
  }
  const auto& a = analytic.particles();
  const auto& b = mesh.particles();
  EXPECT_LE((b.position[0] - a.position[0]).norm(), 1e-12);
  EXPECT_LE((b.velocity[0] - a.velocity[0]).norm(), 1e-12);
  EXPECT_LE((b.angular_velocity[0] - a.angular_velocity[0]).norm(), 1e-12 / kR);
  // Dragged along: the sphere has picked up the disk's motion (ω r = 0.04 m/s at its start).
  EXPECT_GT(a.velocity[0].norm(), 0.005);
}

TEST(MeshCorner, SphereRestsInTheInsideCornerOfATriangulatedBoxOnItsThreeFaces) {
  std::vector<Vec3> v = test_meshes::cube_vertices();
  for (Vec3& x : v) x *= 0.1;  // a 10 cm box, its corner at the origin
  const auto box = std::make_shared<const body::TriangleMesh>(v, test_meshes::cube_triangles());
  timestep::Simulation sim;
  const Vec3 g = -kG / std::sqrt(3.0) * Vec3::Ones();
  set_up(sim, g, contact::Model::mdp);
  const auto m = sim.materials().add({2650.0, 0.0});  // frictionless: the split is unique
  sim.globals().add(body::Mesh{box, Vec3::Zero(), Quat::Identity()}, m);
  sim.particles().add_sphere(sim.materials(), m, Vec3::Constant(kR), kR);
  const double mass = sim.particles().mass[0];
  for (int s = 0; s < 200; ++s) {
    const auto& st = sim.step();
    ASSERT_EQ(st.contacts, 3u) << "step " << s;
    ASSERT_TRUE(st.converged);
  }
  // At rest: gravity's impulse m g dt split evenly over the three faces.
  EXPECT_LT(sim.particles().velocity[0].norm(), 1e-9 * kG * kDt);
  const auto& contacts = sim.contacts();
  for (std::size_t c = 0; c < 3; ++c) {
    EXPECT_NEAR(sim.impulses()[c].x(), mass * kG * kDt / std::sqrt(3.0), 1e-9 * mass * kG * kDt);
    EXPECT_NEAR(std::abs(contacts.normal[c].sum()), 1.0, 1e-15);  // ±x, ±y or ±z
  }
}
