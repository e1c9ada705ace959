#pragma once
// The separating-axis stage of the polyhedron–polyhedron narrow phase (polyhedron_contacts.hpp):
// the largest separation of two placed convex polyhedra along the face normals of each and
// along the edge-pair axes, and the features that give it. The separation along an axis is a
// lower bound of the distance, exact for touching and penetrating bodies.
// - general_axes: any polyhedra. Faces by their vertices' least height over each face plane;
//   edge pairs only where their arcs cross on the Gauss map (Gregorius, "The separating axis
//   test between convex polyhedra", GDC 2013).
// - box_axes: two boxes in closed form (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996):
//   along a unit axis u the separation is |t·u| − Σ_k h_k |u·a_k| − Σ_l g_l |u·b_l|, t the
//   vector between the centres; 3 + 3 face axes and 9 edge axes a_i × b_j, whose projected
//   radii are entries of C = Aᵀ B. A box's Minkowski difference with another is a zonotope with
//   all 30 of those faces, so the result is the general one's, to rounding, at 1/10 of its cost.
#include "granite/collision/polyhedron_contacts.hpp"

#include <array>

namespace granite::collision {

/// Edge directions whose cross product is shorter than this (|sin θ|) are parallel: their axis
/// is a face normal's or none.
constexpr double kParallelSine = 1e-9;

struct SeparatingAxes {
  double face_a = 0.0;  // the largest separation of b from a face of a, and that face
  int fa = -1;
  double face_b = 0.0;  // the largest separation of a from a face of b, and that face
  int fb = -1;
  double edge = 0.0;  // the largest along an edge pair's axis (−inf: none), and the edges
  std::array<Vec3, 2> edge_a{}, edge_b{};
  Vec3 edge_normal = Vec3::Zero();  // unit, from b to a
  double apart = 0.0;               // on a false return: the separation beyond the threshold
};

/// The separating axes of a (body 1) and b (body 2). False as soon as one separates them by
/// more than threshold (no contact; `apart` holds that separation); else every field set.
bool general_axes(const PlacedPolyhedron& a, const PlacedPolyhedron& b, double threshold,
                  SeparatingAxes& out);

/// As general_axes, for two boxes (PlacedPolyhedron::is_box on both).
bool box_axes(const PlacedPolyhedron& a, const PlacedPolyhedron& b, double threshold,
              SeparatingAxes& out);

}  // namespace granite::collision
