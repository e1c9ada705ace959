#pragma once
// What each whole-step method (solver.method, solver/relaxation.hpp's Method) needs: the one
// statement of the rules that the configuration check, Simulation::validate, `granite run`,
// `granite forces` and `granite fclib` all ask.
#include "granite/contact/single_contact.hpp"
#include "granite/solver/relaxation.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace granite::solver {

/// The configuration's name of a method (gauss_seidel, apgd, lemke).
std::string_view method_name(Method method);

/// The method called `name` (one of method_name's); false if there is none.
bool parse_method(std::string_view name, Method& method);

/// The single-contact model a method solves: apgd the cone complementarity model (ccp),
/// lemke the polyhedral-cone LCP (29) (polyhedral); none for Gauss–Seidel, which takes any.
std::optional<contact::Model> required_model(Method method);

/// Empty if `method` solves `model`; otherwise why not, as the end of an error line:
/// "apgd solves the cone complementarity model; it needs contact.model: ccp (got mdp)".
std::string model_mismatch(Method method, contact::Model model);

/// Empty if rolling and spinning resistance (solver/rolling.hpp) are built for `model` under
/// `method` (mdp, coulomb and ccp with Gauss–Seidel; ccp with apgd; never with the compatible
/// pass); otherwise why not, as the end of an error line ("need contact.model ...").
std::string rolling_mismatch(Method method, contact::Model model, bool compatible);

/// Empty if `method` runs on `ranks` processes; otherwise why not (lemke: one rank, its dense
/// LCP is for small systems).
std::string rank_mismatch(Method method, int ranks);

}  // namespace granite::solver
