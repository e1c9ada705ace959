#pragma once
// Single-contact problem (paper §3.2), contact frame (n, t, o):
//   x* ∈ argmin ½ xᵀA x − xᵀb  s.t. ‖x_to‖ ≤ μ x_n,  a_nᵀx − b_n ≥ 0 ⊥ x_n ≥ 0,  a_nᵀx ≥ 0
// with A SPD and a_n its first row. The post-impulse relative velocity is A x − b.
// Every solver is a pure function (A, b, μ) -> impulse: no allocation, no global state.
#include "granite/core/names.hpp"
#include "granite/core/types.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace granite::contact {

/// What the returned impulse represents.
enum class ContactCase {
  separating,    // b_n < 0 (or b_n ≤ 0 without friction): x = 0
  frictionless,  // μ = 0 (or the frictionless model): x = (b_n/A_nn, 0, 0)
  sticking,      // x = A⁻¹b lies in the cone: zero post-impulse slip
  sliding,       // on the boundary of the conic section
  degenerate,    // b_n = 0, μ > 0: Eq. (9) cases (point, ray, pair of rays)
  failed,        // polyhedral: Lemke gave no verified solution; x is the frictionless impulse
};
std::string_view case_name(ContactCase c);

struct Impulse {
  Vec3 x;
  ContactCase kind;
};

/// The parts of the reduction to the plane of maximum compression (§3.2) that cost a division:
/// 1/A_nn and 1/det Â, with Â the Schur complement of A_nn (schur_complement). A relaxation
/// forms them once per contact and step (block_reduction) and reuses them in every sweep; the
/// maximum-dissipation solvers given them do no division before the sliding branch. Â itself is
/// three products away and is formed where it is needed (stored, it made every contact of the
/// sweep 24 bytes larger).
struct BlockReduction {
  double inv_Ann;
  double inv_det;  // 1/det Â
};
/// Â = A_to,to − a_to a_toᵀ/A_nn (§3.2), from 1/A_nn.
struct SchurComplement {
  double h11, h12, h22;
};
inline SchurComplement schur_complement(const Mat3& A, double inv_Ann) {
  return {A(1, 1) - A(0, 1) * A(0, 1) * inv_Ann, A(1, 2) - A(0, 1) * A(0, 2) * inv_Ann,
          A(2, 2) - A(0, 2) * A(0, 2) * inv_Ann};
}
/// Inline: the setup forms one per contact and step.
inline BlockReduction block_reduction(const Mat3& A) {
  const double inv_Ann = 1.0 / A(0, 0);
  // a_to = 0 (every sphere contact's block) with 1/A_nn finite: Â = A_to,to exactly, as
  // schur_complement forms it, and 1/det Â need not wait for the division by A_nn.
  const bool uncoupled =
      A(0, 1) == 0.0 && A(0, 2) == 0.0 && A(0, 0) >= std::numeric_limits<double>::min();
  const SchurComplement h =
      uncoupled ? SchurComplement{A(1, 1), A(1, 2), A(2, 2)} : schur_complement(A, inv_Ann);
  return {inv_Ann, 1.0 / (h.h11 * h.h22 - h.h12 * h.h12)};
}

Impulse frictionless_impulse(const Mat3& A, const Vec3& b, double mu);
/// The paper's analytic maximum-dissipation solution (Fig. 5, Eqs. 6–9, Appendix A). Sliding
/// contacts try a certified Newton root of Eq. (8) first (max_dissipation_detail.hpp).
Impulse max_dissipation_impulse(const Mat3& A, const Vec3& b, double mu);
/// The same with A's reduction given (bit-identical answers).
Impulse max_dissipation_impulse(const Mat3& A, const BlockReduction& reduction, const Vec3& b,
                                double mu);
/// The same model minimised numerically: golden-section search over the polar angle α of the
/// boundary of the conic section, restricted to the arc where f_r > 0 (Eq. 6) and the boundary
/// point has x0,to on the outer side of its tangent (there α* is the only stationary point), with
/// `iterations` objective evaluations; the method of waLBerla pe (20 iterations there).
Impulse max_dissipation_golden_impulse(const Mat3& A, const Vec3& b, double mu, int iterations);
Impulse max_dissipation_golden_impulse(const Mat3& A, const BlockReduction& reduction,
                                       const Vec3& b, double mu, int iterations);
/// Inelastic Coulomb contact, normal/tangential decoupling iterated to convergence.
Impulse coulomb_impulse(const Mat3& A, const Vec3& b, double mu);
/// Single-pass decoupling (pe's default ApproximateInelasticCoulombContactByDecoupling).
Impulse coulomb_approx_impulse(const Mat3& A, const Vec3& b, double mu);
/// The cone complementarity model (Tasora–Anitescu): argmin ½xᵀAx − xᵀb over the friction cone
/// alone, without Signorini; sliding contacts leave with u_n = μ‖u_to‖ > 0. Exact (KKT quartic).
Impulse ccp_impulse(const Mat3& A, const Vec3& b, double mu);

/// Stewart–Trinkle's polyhedral cone (Eqs. 25–29 for one contact): friction x_to = D β in the
/// cone of k ≥ 4 (even) unit directions d_j = (cos 2πj/k, sin 2πj/k), eᵀβ ≤ μ x_n, with the
/// sliding-speed multiplier λ; the LCP of size k + 2 is solved exactly by Lemke's method.
Impulse polyhedral_impulse(const Mat3& A, const Vec3& b, double mu, int directions);
/// Friction directions accepted by polyhedral_impulse and the config (even, 4 … this).
inline constexpr int kMaxFrictionDirections = 32;
inline bool valid_friction_directions(int k) {
  return k >= 4 && k <= kMaxFrictionDirections && k % 2 == 0;
}

/// The models selectable in a config / on the command line.
enum class Model { frictionless, mdp, mdp_golden, coulomb, coulomb_approx, ccp, polyhedral };

/// The one list of model names (configuration choices, parse_model, command-line help), in the
/// order users see them: the paper's model first.
inline constexpr std::array<Named<Model>, 7> kModelNames{{
    {Model::mdp, "mdp"},
    {Model::mdp_golden, "mdp_golden"},
    {Model::coulomb, "coulomb"},
    {Model::coulomb_approx, "coulomb_approx"},
    {Model::ccp, "ccp"},
    {Model::polyhedral, "polyhedral"},
    {Model::frictionless, "frictionless"},
}};
/// The names of kModelNames joined by `separator`, e.g. "mdp | mdp_golden | ...".
std::string model_names(std::string_view separator);
/// Parses a name of kModelNames; false if unknown.
bool parse_model(std::string_view name, Model& model);
std::string_view model_name(Model model);

struct ModelSettings {
  Model model = Model::mdp;
  int golden_iterations = 20;
  int friction_directions = 8;  // k of the polyhedral model
};

/// Whether the model answers x = 0 whenever b_n < 0 (its first case, as in Fig. 5: a contact
/// whose bodies separate without its impulse gets none). Not ccp (its cone has no Signorini
/// condition) nor polyhedral (its LCP is not asked for this case before Lemke).
inline bool zero_when_separating(Model model) {
  return model != Model::ccp && model != Model::polyhedral;
}

/// Dispatches to the selected model.
Impulse solve(const ModelSettings& settings, const Mat3& A, const Vec3& b, double mu);
/// The same with A's reduction given, which the maximum-dissipation models use (bit-identical
/// answers); the other models ignore it.
Impulse solve(const ModelSettings& settings, const Mat3& A, const BlockReduction& reduction,
              const Vec3& b, double mu);

/// Every solution of the purely inelastic impact with Coulomb friction (analysis only, e.g. §4.1
/// Table 1): the zero impulse when it is admissible (b_n ≤ 0), the sticking impulse A⁻¹b when it
/// lies in the cone, and every point of the conic section whose frictional impulse directly
/// opposes the post-impulse slip, x_to = −μ x_n u_to/‖u_to‖ with u = A x − b and u_n = 0
/// (for b_n = 0 on the rays of the degenerate conic section). A continuum of solutions (possible
/// only in non-generic cases such as μ = μ* in §4.2) is not enumerated.
struct CoulombSolutions {
  static constexpr std::size_t capacity = 6;  // zero + sticking + at most four sliding roots
  std::array<Impulse, capacity> items{};
  std::size_t count = 0;

  const Impulse* begin() const { return items.data(); }
  const Impulse* end() const { return items.data() + count; }
  std::size_t size() const { return count; }
  const Impulse& operator[](std::size_t i) const { return items[i]; }
};
CoulombSolutions coulomb_all_solutions(const Mat3& A, const Vec3& b, double mu);

/// ½ xᵀA x − xᵀb, the objective every model is compared on.
inline double objective(const Mat3& A, const Vec3& b, const Vec3& x) {
  return 0.5 * x.dot(A * x) - x.dot(b);
}

}  // namespace granite::contact
