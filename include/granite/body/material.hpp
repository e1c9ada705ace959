#pragma once
// Materials: density, friction coefficient and Young's modulus. Bodies and global bodies refer to a material
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

private:
  std::vector<Material> materials_;
};

}  // namespace granite::body
