#include "granite/body/material.hpp"

#include "granite/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace granite::body {

MaterialIndex MaterialTable::add(const Material& material) {
  if (!(material.density > 0.0))
    throw InputError("material density must be > 0 kg/m^3, got " +
                     std::to_string(material.density));
  if (!(material.friction >= 0.0))
    throw InputError("material friction coefficient must be >= 0, got " +
                     std::to_string(material.friction));
  if (!(material.rolling_friction >= 0.0) || !std::isfinite(material.rolling_friction))
    throw InputError("material rolling friction coefficient must be >= 0, got " +
                     std::to_string(material.rolling_friction));
  if (!(material.spinning_friction >= 0.0) || !std::isfinite(material.spinning_friction))
    throw InputError("material spinning friction coefficient must be >= 0, got " +
                     std::to_string(material.spinning_friction));
  if (!(material.youngs_modulus > 0.0))
    throw InputError("material Young's modulus must be > 0 Pa, got " +
                     std::to_string(material.youngs_modulus));
  materials_.push_back(material);
  return MaterialIndex(materials_.size() - 1);
}

}  // namespace granite::body
