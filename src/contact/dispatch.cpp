// Model selection: names, parsing and the dispatching solve().
#include "granite/contact/single_contact.hpp"

namespace granite::contact {

std::string_view case_name(ContactCase c) {
  switch (c) {
  case ContactCase::separating:
    return "separating";
  case ContactCase::frictionless:
    return "frictionless";
  case ContactCase::sticking:
    return "sticking";
  case ContactCase::sliding:
    return "sliding";
  case ContactCase::degenerate:
    return "degenerate";
  case ContactCase::failed:
    return "failed";
  }
  return "unknown";
}

std::string model_names(std::string_view separator) {
  std::string text;
  for (const std::string& name : names_of(kModelNames)) {
    if (!text.empty()) text += separator;
    text += name;
  }
  return text;
}

bool parse_model(std::string_view name, Model& model) {
  const std::optional<Model> named = value_named(kModelNames, name);
  if (named) model = *named;
  return named.has_value();
}

std::string_view model_name(Model model) { return name_of(kModelNames, model); }

Impulse solve(const ModelSettings& settings, const Mat3& A, const Vec3& b, double mu) {
  return solve(settings, A, block_reduction(A), b, mu);
}

Impulse solve(const ModelSettings& settings, const Mat3& A, const BlockReduction& reduction,
              const Vec3& b, double mu) {
  switch (settings.model) {
  case Model::frictionless:
    return frictionless_impulse(A, b, mu);
  case Model::mdp:
    return max_dissipation_impulse(A, reduction, b, mu);
  case Model::mdp_golden:
    return max_dissipation_golden_impulse(A, reduction, b, mu, settings.golden_iterations);
  case Model::coulomb:
    return coulomb_impulse(A, b, mu);
  case Model::coulomb_approx:
    return coulomb_approx_impulse(A, b, mu);
  case Model::ccp:
    return ccp_impulse(A, b, mu);
  case Model::polyhedral:
    return polyhedral_impulse(A, b, mu, settings.friction_directions);
  }
  return max_dissipation_impulse(A, reduction, b, mu);
}

}  // namespace granite::contact
