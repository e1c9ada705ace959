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
#include "granite/solver/check_schedule.hpp"
#include "granite/contact/single_contact.hpp"
#include "granite/core/names.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_setup.hpp"
#include "granite/solver/exchange.hpp"
#include "granite/solver/fc3d_error.hpp"
#include "granite/solver/rolling.hpp"
#include "granite/solver/sweep_order.hpp"

#include <array>
#include <vector>

namespace granite::solver {

enum class Convergence { fc3d, impulse_change };
inline constexpr std::array<Named<Convergence>, 2> kConvergenceNames{{
    {Convergence::fc3d, "fc3d"},
    {Convergence::impulse_change, "impulse_change"},
}};

/// The whole-step solver (solver.method): the non-linear block Gauss–Seidel below with any
/// single-contact model, APGD on the cone complementarity problem (solver/apgd_step.hpp; the
/// model must be ccp), or Lemke's method on Stewart–Trinkle's LCP (29) of the whole step
/// (solver/polyhedral_lcp.hpp; the model must be polyhedral; one process, few contacts).
enum class Method { gauss_seidel, apgd, lemke };
inline constexpr std::array<Named<Method>, 3> kMethodNames{{
    {Method::gauss_seidel, "gauss_seidel"},
    {Method::apgd, "apgd"},
    {Method::lemke, "lemke"},
}};

struct RelaxationSettings {
  contact::ModelSettings model{};
  int max_sweeps = 100;
  /// Stop when the convergence measure is below this: the fc3d error, or the relative impulse
  /// change max_j ‖λ_j^new − λ_j^old‖ / max(max_j ‖λ_j^new‖, tiny).
  double tolerance = 1e-8;
  Convergence convergence = Convergence::impulse_change;
  /// Sweeps between convergence tests (each test is one reduction over the ranks); 0: at the
  /// sweeps next_check_sweep predicts for the fc3d measure, and for the impulse change on
  /// several ranks; the impulse change on one rank every sweep (its test costs nothing).
  int check_every = 1;
  /// Across ranks (solver.exchange: overlapped): each sweep relaxes the contacts touching a
  /// body whose corrections travel first, then the others while the exchange is under way
  /// (Exchange::mark_boundary). The same exchange, in another Gauss–Seidel order; on one
  /// rank nothing changes.
  bool overlap_exchange = false;
  /// With the predicted schedule: the previous relaxation's RelaxationResult::decay, which
  /// places this relaxation's second test (next_check_sweep); span 0: none.
  ConvergenceDecay prior{};
};

struct RelaxationResult {
  int sweeps = 0;         // sweeps performed
  double residual = 0.0;  // relative impulse change of the last sweep (0 without contacts)
  double fc3d = 0.0;      // fc3d error after the last sweep (0 without contacts)
  bool converged = true;  // the chosen measure < tolerance within max_sweeps
  int checks = 0;         // convergence tests evaluated (the final fc3d evaluation not counted)
  // With the predicted schedule: the measure's decay per sweep between the first test and the
  // last (the final fc3d evaluation included); span 0 with fewer than two tests. The next
  // relaxation's prior (RelaxationSettings::prior).
  ConvergenceDecay decay{};
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
/// ccp model's problem, whose solutions are not Coulomb solutions where contacts slide), and
/// the contacts of `rolling`'s joint blocks count with their six rows (add_joint_sums).
/// ‖q‖² does not change within a relaxation (the predicted velocities stay put; corrections
/// go to dv, dw): with `known_q2`, the value an earlier pass of the same state computed, the
/// pass takes it instead of forming every q_j again.
Fc3dSums fc3d_sums(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                   const std::vector<BodyState>& bodies, bool cone_complementarity = false,
                   const RollingBlocks* rolling = nullptr, const double* known_q2 = nullptr);

/// Combines a rank's convergence measure over all ranks: the impulse change by max, the fc3d
/// sums by sum (one reduction).
void reduce(ConvergenceMeasure& measure, Exchange& exchange);

/// Sweeps until converged or max_sweeps. After every sweep (counted from 1) the exchange
/// carries the ghosts' corrections to their owners and back; every settings.check_every sweeps
/// (or at the predicted sweeps, check_schedule.hpp) the convergence measure is evaluated and combined over ranks (one reduction per test); the
/// final fc3d error is evaluated (and reduced) once more unless the last test already did.
/// `impulses` must have one entry per contact; they are the starting guess and their
/// contribution must already be contained in the bodies' dv, dw (start from zeros with zero
/// corrections unless warm-starting via apply_impulses()).
/// With `rolling` (solver/rolling.hpp), each sweep of the impulses is followed by a sweep of
/// the torque blocks, or, with joint blocks (the ccp model), the sweep updates those contacts'
/// impulse and torque at once; a test also needs the relative torque change (reduced by max)
/// below the tolerance.
RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies, const SweepOrder& order, Exchange& exchange,
                       RollingBlocks* rolling = nullptr);

/// As above on one rank, for callers without a run (tests, tools): no contacts, no sweep.
RelaxationResult relax(const RelaxationSettings& settings,
                       const std::vector<SolverContact>& contacts, std::vector<Vec3>& impulses,
                       std::vector<BodyState>& bodies, const SweepOrder& order = {});

/// Adds the velocity corrections of the given impulses to the bodies (for warm starts).
void apply_impulses(const std::vector<SolverContact>& contacts, const std::vector<Vec3>& impulses,
                    std::vector<BodyState>& bodies);

}  // namespace granite::solver
