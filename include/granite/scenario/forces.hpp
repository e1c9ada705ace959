#pragma once
// `granite forces`: the compatible contact forces (Olsen & Kamrin, docs/compatible_forces.md)
// of a stored state. The simulation is rebuilt as a restart rebuilds it (the configuration's
// materials, global bodies and parameters; the checkpoint's particles with their full state,
// its clock, the global bodies' positions and the warm-start history), over this run's
// decomposition; then ONE step is solved from that state — contact detection at the stored
// positions, the relaxation of the (frictionless) contact problem with the stored velocities,
// gravity and Δt, the compatible pass on its net contact impulses F̃ — and the contacts are
// written with the stored particles as a snapshot. The advanced positions are not written.
#include "granite/comm/communicator.hpp"
#include "granite/config/config.hpp"
#include "granite/solver/compatible_forces.hpp"

#include <cstdint>
#include <string>

namespace granite::scenario {

struct ForcesRequest {
  std::string checkpoint;  // the stored state (a Granite checkpoint)
  std::string output;      // the HDF5 file to write (snapshot layout with /contacts); "":
                           // forces_<step, 8 digits>.h5 in the checkpoint's directory
};

struct ForcesSummary {
  std::string output;     // the file written
  std::int64_t step = 0;  // the stored state's step and time
  double time = 0.0;
  std::uint64_t particles = 0, contacts = 0;  // over all ranks
  int sweeps = 0;                             // of the relaxation
  double relaxation_residual = 0.0;           // its convergence measure at the end
  double fc3d_error = 0.0;                    // the step's fc3d error
  bool relaxation_converged = false;
  std::string law;  // hooke | hertz
  double tolerance = 0.0;
  solver::CompatibleResult compatible;  // the pass (the same on every rank)
  double relaxation_seconds = 0.0, compatible_seconds = 0.0, total_seconds = 0.0;  // largest rank
};

/// Collective over `comm`. The configuration `cfg` must be the one the checkpoint was written
/// with, except for the keys that do not change the state or the contact problem: those a
/// restart may change (run.end_time, run.thermo_every, output.*), solver.* (how the step is
/// solved), domain.decomposition (where), contact.compatible* and materials[].youngs_modulus
/// (the pass); contact.compatible
/// must be on. Anything else, an unreadable checkpoint or an invalid stored state is an
/// InputError on every rank. Writes `request.output` atomically (also when the pass did not
/// converge: its /contacts attributes say so); the caller decides the exit code from the
/// summary.
ForcesSummary compute_forces(const config::ScenarioConfig& cfg, const ForcesRequest& request,
                             const comm::Communicator& comm);

/// Whether a configuration key may differ between the checkpoint's run and `granite forces`.
bool forces_may_change(const std::string& key);

}  // namespace granite::scenario
