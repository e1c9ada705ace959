// What each whole-step method needs (see include/granite/solver/method.hpp).
#include "granite/solver/method.hpp"

namespace granite::solver {

std::string_view method_name(Method method) { return name_of(kMethodNames, method); }

bool parse_method(std::string_view name, Method& method) {
  const std::optional<Method> named = value_named(kMethodNames, name);
  if (named) method = *named;
  return named.has_value();
}

std::optional<contact::Model> required_model(Method method) {
  switch (method) {
  case Method::apgd:
    return contact::Model::ccp;
  case Method::lemke:
    return contact::Model::polyhedral;
  case Method::gauss_seidel:
    break;
  }
  return std::nullopt;
}

std::string model_mismatch(Method method, contact::Model model) {
  const std::optional<contact::Model> needed = required_model(method);
  if (!needed || *needed == model) return {};
  const char* what = method == Method::apgd ? "the cone complementarity model"
                                            : "the polyhedral-cone LCP of the step";
  return std::string(method_name(method)) + " solves " + what +
         "; it needs contact.model: " + std::string(contact::model_name(*needed)) + " (got " +
         std::string(contact::model_name(model)) + ")";
}

std::string rolling_mismatch(Method method, contact::Model model, bool compatible) {
  const bool built = method != Method::lemke && !compatible &&
                     (model == contact::Model::mdp || model == contact::Model::coulomb ||
                      model == contact::Model::ccp);
  if (built) return {};
  return "need contact.model mdp, coulomb or ccp, solver.method gauss_seidel or apgd and no "
         "contact.compatible (got contact.model " +
         std::string(contact::model_name(model)) + ", solver.method " +
         std::string(method_name(method)) + (compatible ? ", contact.compatible" : "") + ")";
}

std::string rank_mismatch(Method method, int ranks) {
  if (method != Method::lemke || ranks <= 1) return {};
  return "lemke runs on one rank (its dense LCP is for small systems); got " +
         std::to_string(ranks) + " ranks";
}

}  // namespace granite::solver
