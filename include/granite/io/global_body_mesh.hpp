#pragma once
// The surfaces of the global bodies as a triangle mesh, for the snapshots' /global_bodies and
// their second XDMF grid (ParaView shows the walls, the piston and the obstacle next to the
// particles):
//   half-space  the polygon where its plane cuts the domain box (nothing if it misses it)
//   box         its 6 faces (12 triangles)
//   cylinder    its side and both caps, `segments` facets around the axis (a hollow one,
//               inside: true, the same with the normals towards the axis)
//   union       every part's surface (faces inside another part are kept)
//   mesh        the triangles this rank owns (body::TriangleMesh::owns: all of a whole mesh,
//               its share of a rank's part), placed (corners in their order: its front side)
// Every triangle carries the index of its global body (the order of `bodies:` in the
// configuration). The mesh is built from the bodies' current positions, so the piston moves.
#include "granite/body/global_body.hpp"
#include "granite/core/types.hpp"

#include <array>
#include <string>
#include <vector>

namespace granite::io {

struct SurfaceMesh {
  std::vector<Vec3> points;
  // indices into points; normals away from the solid (towards the particles)
  std::vector<std::array<std::int64_t, 3>> triangles;
  std::vector<std::int32_t> body;  // per triangle: global body index
};

/// Facets around a cylinder's axis.
inline constexpr int kCylinderSegments = 48;

/// The mesh of every global body; half-spaces are clipped to the box [box_min, box_max].
/// Without `analytic` only the mesh walls' (a rank other than 0's part of the snapshot's).
SurfaceMesh global_body_mesh(const body::GlobalBodies& bodies, const Vec3& box_min,
                             const Vec3& box_max, int segments = kCylinderSegments,
                             bool analytic = true);

}  // namespace granite::io
