#pragma once
// Materials: density and friction coefficient. Bodies and global bodies refer to a material
// by its index in a MaterialTable.
#include <cstdint>
#include <vector>

namespace granite::body {

using MaterialIndex = std::uint32_t;

struct Material {
  double density = 1000.0;  // kg/m^3 (used by add_sphere to derive mass and inertia)
  double friction = 0.0;    // Coulomb friction coefficient mu >= 0
};

class MaterialTable {
public:
  /// Appends a material and returns its index. Throws InputError for density <= 0 or mu < 0.
  MaterialIndex add(const Material& material);
  const Material& operator[](MaterialIndex index) const { return materials_[index]; }
  std::size_t size() const { return materials_.size(); }

  /// Pairwise friction coefficient of a contact between two materials.
  /// Rule: the minimum of the two coefficients (the weaker surface limits the friction).
  double pair_friction(MaterialIndex a, MaterialIndex b) const;

private:
  std::vector<Material> materials_;
};

}  // namespace granite::body
