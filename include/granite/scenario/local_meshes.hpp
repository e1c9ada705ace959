#pragma once
// Each rank keeps only the triangles of a mesh wall near its subdomain (issue 40, scale): a
// mesh of 10⁶ triangles costs every rank its part, not the whole.
//
// After the particles are built (the setup fills test candidates anywhere in the domain against
// the whole mesh), each mesh wall in `globals` becomes this rank's part of it
// (body::TriangleMesh::part):
// - Kept: the triangles whose box, placed, intersects Decomposition::reach(rank, margin) or a
//   pour's region grown by its largest particle (a pour tests its candidates on every rank), all
//   of them for a mesh that moves (a velocity, a prescribed motion, a rotation) or where the load
//   balance moves the cuts (domain.balance other than none).
// - Owned (written to snapshots): by the lowest rank whose reach intersects the triangle's box
//   (Decomposition::lowest_rank_reaching), rank 0 if none does; so every triangle a rank keeps
//   is written once. A triangle no rank keeps is in no snapshot: it lies beyond every reach,
//   where no particle can touch it.
// The margin: a particle this rank queries (owned or ghost) lies within g + s/2 of its subdomain
// (g the ghost width, s the skin), and its queries reach 2 (r + h + s) ≤ 2 g (the neighbour
// list's bounded member distance); 3 g + s covers both. Queries within it see only kept
// triangles, so the contacts are the whole mesh's bit for bit (TriangleMesh::part).
#include "granite/body/global_body.hpp"
#include "granite/config/settings.hpp"
#include "granite/parallel/decomposition.hpp"

#include <cstddef>
#include <vector>

namespace granite::scenario {

/// What became of one mesh wall on this rank.
struct LocalMesh {
  std::size_t body = 0, part = 0;              // index in the global bodies, in its parts
  std::size_t whole = 0, kept = 0, owned = 0;  // triangles
  bool split = false;                          // false: moving or balanced, kept whole
};

/// The margin above: 3 g + s for ghost width g and skin s.
double local_mesh_margin(double ghost_width, double skin);

/// Replaces every mesh wall of `globals` by this rank's part (see above). `settings` gives the
/// motions, the balance mode and the pours.
std::vector<LocalMesh> keep_local_triangles(body::GlobalBodies& globals,
                                            const config::Settings& settings,
                                            const parallel::Decomposition& decomposition, int rank,
                                            double margin);

}  // namespace granite::scenario
