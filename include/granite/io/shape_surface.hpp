#pragma once
// The world-frame surfaces of shaped particles (body/shape.hpp) as one triangle mesh, for the
// snapshots' /shapes group and its XDMF grid (docs/output.md). Each kind has its tessellation:
//   clump  every part an icosphere of kIcosphereSubdivisions subdivisions (42 vertices and 80
//          triangles at 1) of the part's radius r: vertices x + R (p + r u) for the unit
//          icosphere's u, so the facets turn with the body; parts inside or across others are
//          drawn whole (the surfaces overlap, which rendering does not mind)
//   capsule the same icosphere split at its equator into two caps at ±h on the body's x axis,
//          the triangles across the equator forming the cylinder (42 vertices, 80 triangles)
//   ellipsoid the icosphere stretched by the semi-axes, vertices x + R D u (42 vertices)
//   box, convex  the polyhedron's own vertices, each face a fan of triangles (a box: 8
//          vertices, 12 triangles)
// Triangles turn counter-clockwise seen from outside (their normals point out of the body);
// every triangle carries its body's id.
#include "granite/body/particles.hpp"
#include "granite/body/shape.hpp"
#include "granite/core/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace granite::io {

/// Edge halvings of the icosahedron: 1 gives 42 vertices and 80 triangles per sphere, whose
/// flat facets lie at most 0.066 r inside a sphere of radius r (facet centres; edges 0.55 r
/// to 0.62 r long): round enough to see a clump's parts, 3.6 kB per part in a snapshot.
inline constexpr int kIcosphereSubdivisions = 1;

struct ShapeSurfaces {
  std::vector<Vec3> vertices;                          // m, world frame
  std::vector<std::array<std::int64_t, 3>> triangles;  // indices into vertices, from 0
  std::vector<BodyId> id;                              // per triangle: the body's id
};

/// The unit icosphere of `subdivisions` halvings (vertices on the unit sphere, triangles
/// outward): 10 * 4^s + 2 vertices and 20 * 4^s triangles.
struct UnitSphereMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::int64_t, 3>> triangles;
};
UnitSphereMesh icosphere(int subdivisions);

/// Appends the surface of particle i to `out` (its indices continue out's vertices); a plain
/// sphere (shape kSphere) adds nothing: the particle grid shows it.
void append_shape_surface(const body::Particles& particles, const body::ShapeTable& shapes,
                          std::size_t i, ShapeSurfaces& out);

/// The surfaces of every shaped particle, in particle order.
ShapeSurfaces shape_surfaces(const body::Particles& particles, const body::ShapeTable& shapes);

}  // namespace granite::io
