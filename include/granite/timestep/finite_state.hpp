#pragma once
// The non-finite state check: a NaN or infinity in a body's position or velocities, or in a
// contact impulse, spreads to every body it touches within a few steps and would be written
// into the next snapshot and checkpoint. run_scenario() scans after every step and stops the
// run there (scenario/run.cpp). Serial: each process scans what it owns.
#include "granite/timestep/simulation.hpp"

#include <string>

namespace granite::timestep {

/// The first non-finite value after the last step(), as a phrase naming the contact's bodies
/// ("the impulse of the contact between particle 3 and global body 0 is not finite") or the
/// body ("particle 17 has a non-finite velocity"); "" if every value is finite. Scans the
/// step's contact impulses, then the owned particles' positions, velocities and angular
/// velocities.
std::string non_finite_state(const Simulation& sim);

}  // namespace granite::timestep
