// A coupling code's use of Granite as a library, built against an installed Granite with
// find_package(Granite) (docs/install.md). It is what a CFD solver coupled to the granular
// phase does, with the fluid reduced to a formula:
//   - it builds a scene through the public API: three spheres above a floor, a wall at x = 0;
//   - it owns the time loop: before each Granite step it hands every sphere the force the fluid
//     exerts on it (Stokes drag towards the wall, c (u - v) with c = 6 pi mu r, plus buoyancy);
//   - after the last step it reads the contact forces back from the step's contacts.
// The spheres drift to the wall and come to rest in a row on the floor, where both answers are
// known: sphere k (from the wall) at x = (2k + 1) r, z = r; the floor carries each sphere's
// weight less its buoyancy, (rho_s - rho_f) V g; the wall carries the three drag forces, 3 c |u|,
// and the contact between spheres k and k + 1 the drag on the 2 - k spheres beyond it. The
// program prints them against the analytic values and exits 1 if one is off (2 on bad input).
//
// Usage: granite_coupling   (no arguments; one process)
#include "granite/body/global_body.hpp"
#include "granite/body/material.hpp"
#include "granite/body/particles.hpp"
#include "granite/contact/single_contact.hpp"
#include "granite/core/error.hpp"
#include "granite/timestep/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <numbers>
#include <vector>

namespace {

using granite::Vec3;

constexpr int kSpheres = 3;
constexpr double kRadius = 1e-3;            // m
constexpr double kSolidDensity = 2500.0;    // kg/m^3 (glass)
constexpr double kFluidDensity = 1000.0;    // kg/m^3
constexpr double kFluidViscosity = 0.05;    // Pa s
constexpr double kFluidSpeed = 0.05;        // m/s, towards the wall (-x)
constexpr double kGravity = 9.81;           // m/s^2, along -z
constexpr double kDt = 1e-4;                // s
constexpr double kEndTime = 0.5;            // s: the row settles within about 0.1 s
constexpr double kErrorReduction = 0.2;     // fraction of a penetration removed per step
constexpr double kSolverTolerance = 1e-12;  // relative impulse change that ends a relaxation
// Contact forces are compared to 1e-6 relative: the relaxation stops at a relative impulse
// change of 1e-12, the fluid force differs from c |u| by c |v| with the spheres at rest, while a
// mistake in the set-up is of order one (no buoyancy: 67 %, a sphere's drag missed: 33 %).
constexpr double kForceTolerance = 1e-6;

struct Fluid {
  double drag;    // c = 6 pi mu r (N s/m)
  Vec3 velocity;  // u
  Vec3 buoyancy;  // rho_f V g, upwards
};

// The fluid solver's side of the coupling: the force on sphere i at its present velocity.
Vec3 fluid_force(const Fluid& fluid, const Vec3& velocity) {
  return fluid.drag * (fluid.velocity - velocity) + fluid.buoyancy;
}

bool report(const char* what, double value, double expected, double tolerance) {
  const bool ok = std::abs(value - expected) <= tolerance;
  std::printf("%-24s %.15g  analytic %.15g  error %.2g  tolerance %.2g%s\n", what, value, expected,
              value - expected, tolerance, ok ? "" : "  FAILED");
  return ok;
}

int run() {
  namespace body = granite::body;
  granite::timestep::Simulation sim;
  auto& p = sim.parameters();
  p.dt = kDt;
  p.gravity = {0.0, 0.0, -kGravity};
  p.contact_threshold = 0.1 * kRadius;  // closing contacts are found a tenth of a radius ahead
  p.error_reduction = kErrorReduction;
  p.model.model = granite::contact::Model::frictionless;
  p.max_sweeps = 1000;
  p.tolerance = kSolverTolerance;

  const auto glass = sim.materials().add({kSolidDensity, 0.0});
  const auto steel = sim.materials().add({7850.0, 0.0});
  const std::size_t floor = sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitZ()}, steel);
  const std::size_t wall = sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::UnitX()}, steel);
  // Sphere k starts 3 (k + 1) radii from the wall, half a radius above the floor.
  std::vector<granite::BodyId> ids;
  for (int k = 0; k < kSpheres; ++k)
    ids.push_back(sim.particles().add_sphere(
        sim.materials(), glass, {3.0 * (k + 1) * kRadius, 0.0, 1.5 * kRadius}, kRadius));

  const double volume = 4.0 / 3.0 * std::numbers::pi * std::pow(kRadius, 3);
  const double mass = kSolidDensity * volume;
  const Fluid fluid{6.0 * std::numbers::pi * kFluidViscosity * kRadius,
                    {-kFluidSpeed, 0.0, 0.0},
                    {0.0, 0.0, kFluidDensity * volume * kGravity}};

  // The coupling loop: forces in, one step, state out.
  const auto steps = static_cast<std::int64_t>(std::llround(kEndTime / kDt));
  double max_speed = 0.0;
  for (std::int64_t s = 0; s < steps; ++s) {
    auto& particles = sim.particles();
    for (std::size_t i = 0; i < particles.size(); ++i)
      particles.force[i] = fluid_force(fluid, particles.velocity[i]);
    const auto& stats = sim.step();
    if (!stats.converged) {
      std::fprintf(stderr,
                   "granite_coupling: step %lld: the relaxation did not converge in %d sweeps\n",
                   static_cast<long long>(stats.step), p.max_sweeps);
      return 1;
    }
  }
  const auto& particles = sim.particles();
  for (std::size_t i = 0; i < particles.size(); ++i)
    max_speed = std::max(max_speed, particles.velocity[i].norm());

  std::printf("granite_coupling: %d spheres, r = %g m, %lld steps of %g s, t = %g s, "
              "largest speed %.3g m/s\n",
              kSpheres, kRadius, static_cast<long long>(sim.steps()), kDt, sim.time(), max_speed);

  // Rest positions. A contact the relaxation leaves open lets a body move at most one step's
  // load into it, a dt^2 (a: the largest acceleration the fluid and gravity impose); the error
  // reduction takes back a fraction of a penetration every step, so a steady one stays below
  // a dt^2 / error_reduction, and the row's positions add those of its kSpheres contacts.
  const double drag_at_rest = fluid.drag * kFluidSpeed;
  const double weight = (kSolidDensity - kFluidDensity) * volume * kGravity;
  const double accel = std::hypot(drag_at_rest, weight) / mass;
  const double position_tolerance = kSpheres * accel * kDt * kDt / kErrorReduction;
  bool ok = true;
  char what[64];
  for (int k = 0; k < kSpheres; ++k) {
    const Vec3& x = particles.position[particles.find(ids[k])];
    std::snprintf(what, sizeof what, "rest sphere %d x (m)", k);
    ok &= report(what, x.x(), (2 * k + 1) * kRadius, position_tolerance);
    std::snprintf(what, sizeof what, "rest sphere %d z (m)", k);
    ok &= report(what, x.z(), kRadius, position_tolerance);
  }

  // Contact forces of the last step: normal impulse / dt. body2 is a particle index below
  // num_particles, a global body (floor, wall) above.
  const auto& contacts = sim.contacts();
  const auto& impulses = sim.impulses();
  std::vector<double> floor_force(kSpheres, 0.0), pair_force(kSpheres, 0.0);
  double wall_force = 0.0;
  auto sphere_of = [&](std::size_t index) {
    return static_cast<int>(std::find(ids.begin(), ids.end(), particles.id[index]) - ids.begin());
  };
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const double force = impulses[j][0] / kDt;
    const int a = sphere_of(contacts.body1[j]);
    if (contacts.involves_global(j)) {
      if (contacts.global_index(j) == floor) floor_force[a] += force;
      if (contacts.global_index(j) == wall) wall_force += force;
    } else {
      pair_force[std::min(a, sphere_of(contacts.body2[j]))] += force;
    }
  }
  for (int k = 0; k < kSpheres; ++k) {
    std::snprintf(what, sizeof what, "floor on sphere %d (N)", k);
    ok &= report(what, floor_force[k], weight, kForceTolerance * weight);
  }
  std::snprintf(what, sizeof what, "wall on sphere 0 (N)");
  ok &=
      report(what, wall_force, kSpheres * drag_at_rest, kForceTolerance * kSpheres * drag_at_rest);
  for (int k = 0; k + 1 < kSpheres; ++k) {
    std::snprintf(what, sizeof what, "sphere %d on sphere %d (N)", k, k + 1);
    const double expected = (kSpheres - 1 - k) * drag_at_rest;
    ok &= report(what, pair_force[k], expected, kForceTolerance * expected);
  }
  std::printf("granite_coupling: %s\n",
              ok ? "rest positions and contact forces match the analytic values"
                 : "FAILED: a value differs from the analytic one");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "granite_coupling: unexpected argument '%s' (usage: %s, no arguments)\n",
                 argv[1], argv[0]);
    return 2;
  }
  try {
    return run();
  } catch (const granite::InputError& e) {
    std::fprintf(stderr, "granite_coupling: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "granite_coupling: error: %s\n", e.what());
    return 1;
  }
}
