// Conveyor belts (a global body's surface_velocity, solver/surface_velocity.hpp).
//
// 1. A sphere set down at rest on a horizontal belt moving at s is dragged by sliding friction
//    until its contact point moves with the belt, v + ω × (−r e_z) = s. Friction's impulse P
//    gives v = P/m and, about the centre, ω r = 5P/(2m): v + 5P/(2m) = s, so it ends rolling
//    at v = 2/7 s (the same as on a drum, docs/global_bodies.md), after t = 2|s|/(7 μ g). Its
//    vertical velocity stays zero.
// 2. A plane is its own translate along itself: a belt at rest with surface velocity s and a
//    plane body moving at velocity s give the same contacts' velocities, so the same
//    trajectory (to rounding: the moving plane's point moves).
// 3. The normal part of s is dropped: a belt given s + a e_z is the belt of s, bit for bit; and
//    a mesh belt (a tessellated floor, whose contact is the plane's bit for bit) is the plane
//    belt bit for bit.
#include "granite/body/triangle_mesh.hpp"
#include "granite/timestep/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

using namespace granite;

namespace {

constexpr double kG = 9.81, kR = 0.01, kDt = 1e-4, kMu = 0.4;
constexpr int kSteps = 600;  // slipping ends after 2|s|/(7 μ g) = 0.023 s = 230 steps

// A sphere resting on the floor z = 0 given as `floor` (with its surface velocity and velocity).
void belt_scene(timestep::Simulation& sim, const body::Primitive& floor, const Vec3& surface,
                const Vec3& velocity, contact::Model model) {
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = Vec3(0, 0, -kG);
  p.contact_threshold = 0.1 * kR;
  p.model.model = model;
  p.tolerance = 1e-12;
  p.max_sweeps = 50;
  const auto m = sim.materials().add({2650.0, kMu});
  body::GlobalBody belt;
  belt.parts = {floor};
  belt.material = m;
  belt.velocity = velocity;
  belt.surface_velocity = surface;
  sim.globals().add(belt);
  sim.particles().add_sphere(sim.materials(), m, Vec3(0.01, -0.02, kR), kR);
}

void run(timestep::Simulation& sim) {
  for (int s = 0; s < kSteps; ++s) ASSERT_EQ(sim.step().contacts, 1u) << "step " << s;
}

const body::HalfSpace kFloor{Vec3::Zero(), Vec3::UnitZ()};
const Vec3 kBelt(0.3, 0.1, 0.0);

}  // namespace

class ConveyorBelt : public testing::TestWithParam<contact::Model> {};

TEST_P(ConveyorBelt, DragsASphereUntilItRollsAtTwoSeventhsOfTheBeltSpeed) {
  timestep::Simulation sim;
  belt_scene(sim, kFloor, kBelt, Vec3::Zero(), GetParam());
  run(sim);
  const Vec3& v = sim.particles().velocity[0];
  const Vec3& w = sim.particles().angular_velocity[0];
  EXPECT_LE((v - 2.0 / 7.0 * kBelt).norm(), 1e-9 * kBelt.norm());
  EXPECT_LE((v + w.cross(Vec3(0, 0, -kR)) - kBelt).norm(), 1e-9 * kBelt.norm());
  EXPECT_LE(std::abs(v.z()), 1e-12);
}

TEST_P(ConveyorBelt, IsThePlaneMovingAlongItself) {
  timestep::Simulation belt, moving;
  belt_scene(belt, kFloor, kBelt, Vec3::Zero(), GetParam());
  belt_scene(moving, kFloor, Vec3::Zero(), kBelt, GetParam());
  run(belt);
  run(moving);
  EXPECT_LE((belt.particles().position[0] - moving.particles().position[0]).norm(), 1e-12);
  EXPECT_LE((belt.particles().velocity[0] - moving.particles().velocity[0]).norm(), 1e-12);
  EXPECT_LE((belt.particles().angular_velocity[0] - moving.particles().angular_velocity[0]).norm(),
            1e-12 / kR);
}

TEST_P(ConveyorBelt, DropsTheNormalPartAndWorksOnMeshes) {
  const std::vector<Vec3> v = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}, {0.3, -0.2, 0}};
  const std::vector<body::MeshTriangle> t = {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
  const body::Mesh mesh{std::make_shared<const body::TriangleMesh>(v, t), Vec3::Zero(),
                        Quat::Identity()};
  timestep::Simulation plane, tilted, meshed;
  belt_scene(plane, kFloor, kBelt, Vec3::Zero(), GetParam());
  belt_scene(tilted, kFloor, kBelt + Vec3(0, 0, 0.5), Vec3::Zero(), GetParam());
  belt_scene(meshed, mesh, kBelt, Vec3::Zero(), GetParam());
  run(plane);
  run(tilted);
  run(meshed);
  for (const timestep::Simulation* other : {&tilted, &meshed}) {
    EXPECT_EQ(other->particles().position[0], plane.particles().position[0]);
    EXPECT_EQ(other->particles().velocity[0], plane.particles().velocity[0]);
    EXPECT_EQ(other->particles().angular_velocity[0], plane.particles().angular_velocity[0]);
  }
}

INSTANTIATE_TEST_SUITE_P(Models, ConveyorBelt,
                         testing::Values(contact::Model::mdp, contact::Model::coulomb,
                                         contact::Model::ccp),
                         [](const auto& info) {
                           return std::string(contact::model_name(info.param));
                         });
