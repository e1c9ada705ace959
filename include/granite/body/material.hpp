#pragma once
// Materials: density, friction coefficients (sliding, rolling, spinning) and Young's modulus. Bodies and global bodies refer to a material
// by its index in a MaterialTable.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace granite::body {

using MaterialIndex = std::uint32_t;

struct Material {
  double density = 1000.0;  // kg/m^3 (used by add_sphere to derive mass and inertia)
  double friction = 0.0;    // Coulomb friction coefficient mu >= 0
  // Pa, > 0: only ratios matter (the relative contact stiffness of the compatible pass,
  // solver/compatible_forces.hpp), so equal moduli everywhere are as good as any.
  double youngs_modulus = 1.0;
  // Rolling and spinning resistance (docs/solvers.md, "Rolling and spinning resistance"),
  // dimensionless: a contact's rolling torque impulse is bounded by μ_r R* λ_n, its torque
  // impulse about the normal by μ_s R* λ_n (R* the contact's effective radius). 0: none.
  double rolling_friction = 0.0;
  double spinning_friction = 0.0;
};

class MaterialTable {
public:
  /// Appends a material and returns its index. Throws InputError for density <= 0, mu < 0 or a
  /// Young's modulus <= 0.
  MaterialIndex add(const Material& material);
  const Material& operator[](MaterialIndex index) const { return materials_[index]; }
  std::size_t size() const { return materials_.size(); }

  /// Pairwise friction coefficient of a contact between two materials.
  /// Rule: the minimum of the two coefficients (the weaker surface limits the friction).
  /// Inline: the narrow phase asks once per contact and step.
  double pair_friction(MaterialIndex a, MaterialIndex b) const {
    return std::min(materials_[a].friction, materials_[b].friction);
  }
  /// The same rule for the rolling and the spinning coefficients.
  double pair_rolling_friction(MaterialIndex a, MaterialIndex b) const {
    return std::min(materials_[a].rolling_friction, materials_[b].rolling_friction);
  }
  double pair_spinning_friction(MaterialIndex a, MaterialIndex b) const {
    return std::min(materials_[a].spinning_friction, materials_[b].spinning_friction);
  }
  /// Whether some material has a rolling or spinning coefficient > 0.
  bool has_rolling_resistance() const {
    return std::any_of(materials_.begin(), materials_.end(), [](const Material& m) {
      return m.rolling_friction > 0.0 || m.spinning_friction > 0.0;
    });
  }

private:
  std::vector<Material> materials_;
};

}  // namespace granite::body
