#pragma once
// Non-linear block Gauss–Seidel over the contacts (paper §3.1–3.2, the HCSITS scheme): for each
// contact j in order, the relative velocity u of its bodies (current velocities + corrections)
// minus its own previous impulse's contribution gives b = A λ_old − u − g e_n; the single-contact
// model returns the new λ_j and the difference is applied to both bodies immediately.
#include "granite/contact/single_contact.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"

#include <vector>

namespace granite::solver {

struct RelaxationSettings {
  contact::ModelSettings model{};
  int max_sweeps = 100;
  /// Stop when the sweep's largest impulse change, relative to the largest impulse, is below:
  /// max_j ‖λ_j^new − λ_j^old‖ / max(max_j ‖λ_j^new‖, tiny) < tolerance.
  double tolerance = 1e-8;
};

struct RelaxationResult {
  int sweeps = 0;         // sweeps performed
  double residual = 0.0;  // relative impulse change of the last sweep (0 without contacts)
  bool converged = true;  // residual < tolerance within max_sweeps
};

/// One Gauss–Seidel sweep over all contacts; returns the relative impulse change (as above).
/// `impulses` are contact-frame impulses (λ_n, λ_t, λ_o) in N s, updated in place.
double relaxation_sweep(const contact::ModelSettings& model,
                        const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                        std::vector<BodyState>& bodies);

/// Sweeps until converged or max_sweeps. `impulses` must have one entry per contact; they are
/// the starting guess and their contribution must already be contained in bodies' dv, dw
/// (start from zeros with zero corrections unless warm-starting via apply_impulses()).
RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies);

/// As relax(), with after_sweep(local_residual, sweep) -> residual called after every sweep
/// (sweep counts from 1); its return value decides convergence. Used by distributed runs to
/// exchange ghost corrections and reduce the residual over processes.
template <class AfterSweep>
RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies, AfterSweep&& after_sweep) {
  RelaxationResult result;
  result.converged = false;
  while (result.sweeps < settings.max_sweeps) {
    const double local = relaxation_sweep(settings.model, contacts, impulses, bodies);
    ++result.sweeps;
    result.residual = after_sweep(local, result.sweeps);
    if (result.residual < settings.tolerance) {
      result.converged = true;
      break;
    }
  }
  return result;
}

/// Adds the velocity corrections of the given impulses to the bodies (for warm starts).
void apply_impulses(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                    std::vector<BodyState>& bodies);

}  // namespace granite::solver
