#pragma once
// Non-linear block Gauss–Seidel over the contacts (paper §3.1–3.2, the HCSITS scheme): for each
// contact j in order, the relative velocity u of its bodies (current velocities + corrections)
// minus its own previous impulse's contribution gives b = A λ_old − u − g e_n; the single-contact
// model returns the new λ_j and the difference is applied to both bodies immediately.
//
// Convergence is judged by one of two measures (RelaxationSettings::convergence):
//   fc3d            Siconos' normalised natural-map residual of the step's contact problem
//                   u = W λ + q (fc3d_error.hpp), evaluated from the bodies' current
//                   velocities and the impulses in one pass over the contacts (fc3d_sums);
//   impulse_change  the sweep's largest impulse change relative to the largest impulse.
#include "granite/contact/single_contact.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"
#include "granite/solver/fc3d_error.hpp"
#include "granite/solver/sweep_order.hpp"

#include <vector>

namespace granite::solver {

enum class Convergence { fc3d, impulse_change };

/// The whole-step solver (solver.method): the non-linear block Gauss–Seidel below with any
/// single-contact model, APGD on the cone complementarity problem (solver/apgd_step.hpp; the
/// model must be ccp), or Lemke's method on Stewart–Trinkle's LCP (29) of the whole step
/// (solver/polyhedral_lcp.hpp; the model must be polyhedral; one process, few contacts).
enum class Method { gauss_seidel, apgd, lemke };

struct RelaxationSettings {
  contact::ModelSettings model{};
  int max_sweeps = 100;
  /// Stop when the convergence measure is below this: the fc3d error, or the relative impulse
  /// change max_j ‖λ_j^new − λ_j^old‖ / max(max_j ‖λ_j^new‖, tiny).
  double tolerance = 1e-8;
  Convergence convergence = Convergence::impulse_change;
};

struct RelaxationResult {
  int sweeps = 0;         // sweeps performed
  double residual = 0.0;  // relative impulse change of the last sweep (0 without contacts)
  double fc3d = 0.0;      // fc3d error after the last sweep (0 without contacts)
  bool converged = true;  // the chosen measure < tolerance within max_sweeps
  // Contacts whose single-contact model returned ContactCase::failed in the last sweep (the
  // polyhedral model when Lemke's answer fails its check): their impulse is the frictionless
  // stand-in, not the model's answer. A run stops on any (scenario/run.cpp).
  std::size_t failed_contacts = 0;
};

/// What a convergence test evaluates: the sweep's relative impulse change (combined over
/// processes by max) or the fc3d sums (combined by sum).
struct ConvergenceMeasure {
  Convergence kind = Convergence::fc3d;
  double impulse_change = 0.0;
  Fc3dSums fc3d;
  double value() const { return kind == Convergence::fc3d ? fc3d.error() : impulse_change; }
};

/// One Gauss–Seidel sweep over the contacts in `order` (all in list order if empty; backwards
/// if `backward`); returns the relative impulse change (as above). `impulses` are contact-frame
/// impulses (λ_n, λ_t, λ_o) in N s, updated in place. With `failed`, *failed is set to the
/// number of contacts whose model answered ContactCase::failed in this sweep.
double relaxation_sweep(const contact::ModelSettings& model,
                        const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                        std::vector<BodyState>& bodies, const SweepOrder& order = {},
                        bool backward = false, std::size_t* failed = nullptr);

/// The fc3d sums of the contacts' problem at the current state: u_j = Q_jᵀ(relative velocity
/// with corrections) + gap term e_n, q_j the same without corrections, r_j = λ_j. One pass.
/// With `cone_complementarity` the residual is the CCP natural map instead (the error of the
/// ccp model's problem, whose solutions are not Coulomb solutions where contacts slide).
Fc3dSums fc3d_sums(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                   const std::vector<BodyState>& bodies, bool cone_complementarity = false);

/// Sweeps until converged or max_sweeps, testing convergence after every sweep. `impulses`
/// must have one entry per contact; they are the starting guess and their contribution must
/// already be contained in bodies' dv, dw (start from zeros with zero corrections unless
/// warm-starting via apply_impulses()).
RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies, const SweepOrder& order = {});

/// As relax(), for a distributed run: after_sweep(sweep) -> bool is called after every sweep
/// (sweep counts from 1; e.g. exchanges ghost corrections) and says whether to test
/// convergence now; reduce(ConvergenceMeasure&) combines the local measure over processes
/// (one reduction per test). The final fc3d error is evaluated (and reduced) once more unless
/// the last test already did.
template <class AfterSweep, class Reduce>
RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies, const SweepOrder& order,
                       AfterSweep&& after_sweep, Reduce&& reduce) {
  RelaxationResult result;
  result.converged = false;
  bool fc3d_current = false;
  const bool ccp = settings.model.model == contact::Model::ccp;  // its own error (fc3d_sums)
  while (result.sweeps < settings.max_sweeps) {
    const bool backward = order.alternate && result.sweeps % 2 == 1;
    result.residual = relaxation_sweep(settings.model, contacts, impulses, bodies, order, backward,
                                       &result.failed_contacts);
    ++result.sweeps;
    fc3d_current = false;
    if (!after_sweep(result.sweeps)) continue;
    ConvergenceMeasure m;
    m.kind = settings.convergence;
    m.impulse_change = result.residual;
    if (m.kind == Convergence::fc3d) m.fc3d = fc3d_sums(contacts, impulses, bodies, ccp);
    reduce(m);
    if (m.kind == Convergence::fc3d) {
      result.fc3d = m.fc3d.error();
      fc3d_current = true;
    } else {
      result.residual = m.impulse_change;
    }
    if (m.value() < settings.tolerance) {
      result.converged = true;
      break;
    }
  }
  if (!fc3d_current) {
    ConvergenceMeasure m;
    m.fc3d = fc3d_sums(contacts, impulses, bodies, ccp);
    reduce(m);
    result.fc3d = m.fc3d.error();
  }
  return result;
}

/// Adds the velocity corrections of the given impulses to the bodies (for warm starts).
void apply_impulses(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                    std::vector<BodyState>& bodies);

}  // namespace granite::solver
