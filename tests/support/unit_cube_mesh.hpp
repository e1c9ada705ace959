#pragma once
// The unit cube's closed surface as a triangle mesh, shared by the mesh tests: outward, its 12
// edges convex by π/2, its 6 face diagonals flat, its corners convex; every edge on 2
// triangles, orientations consistent.
#include "granite/body/triangle_mesh.hpp"

#include <vector>

namespace granite::test_meshes {

inline std::vector<body::MeshTriangle> cube_triangles() {
  // Corners: bit 0 = x, bit 1 = y, bit 2 = z. Each face as a quad (counter-clockwise seen from
  // outside) split along a diagonal.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  std::vector<body::MeshTriangle> t;
  for (const auto& q : quads) {
    t.push_back({q[0], q[1], q[2]});
    t.push_back({q[0], q[2], q[3]});
  }
  return t;
}

inline std::vector<Vec3> cube_vertices() {
  std::vector<Vec3> v;
  for (int i = 0; i < 8; ++i) v.emplace_back(i & 1, (i >> 1) & 1, (i >> 2) & 1);
  return v;
}

}  // namespace granite::test_meshes
