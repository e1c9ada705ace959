// Each rank's part of the mesh walls (see granite/scenario/local_meshes.hpp).
#include "granite/scenario/local_meshes.hpp"

#include "granite/body/triangle_mesh.hpp"
#include "granite/scenario/build.hpp"
#include "granite/scenario/sources/random_fill.hpp"

#include <memory>

namespace granite::scenario {

namespace {

// The boxes a pour tests candidates in, grown by the largest particle it pours.
std::vector<body::Aabb> pour_regions(const config::Settings& settings) {
  std::vector<body::Aabb> regions;
  const double r = largest_radius(settings);
  for (const config::ParticleSource& source : settings.particles)
    if (const auto* pour = std::get_if<config::PourSettings>(&source)) {
      body::Aabb b;
      region_bounds(pour->region, b.lo, b.hi);
      regions.push_back({b.lo.array() - r, b.hi.array() + r});
    }
  return regions;
}

bool moves(const body::GlobalBody& body, const config::Settings& settings, std::size_t index) {
  const bool prescribed = index < settings.motions.size() && settings.motions[index].moves();
  const bool piston = settings.inflow && settings.inflow->piston == index;
  return prescribed || piston || body.velocity != Vec3::Zero() ||
         body.angular_velocity != Vec3::Zero();
}

}  // namespace

double local_mesh_margin(double ghost_width, double skin) { return 3.0 * ghost_width + skin; }

std::vector<LocalMesh> keep_local_triangles(body::GlobalBodies& globals,
                                            const config::Settings& settings,
                                            const parallel::Decomposition& decomposition, int rank,
                                            double margin) {
  const std::vector<body::Aabb> pours = pour_regions(settings);
  const parallel::Box region = decomposition.reach(rank, margin);
  const body::Aabb reach{region.min, region.max};
  const bool balanced = settings.domain.balance != config::BalanceMode::none;
  std::vector<LocalMesh> report;
  for (std::size_t b = 0; b < globals.size(); ++b)
    for (std::size_t m = 0; m < globals[b].parts.size(); ++m) {
      auto* wall = std::get_if<body::Mesh>(&globals[b].parts[m]);
      if (!wall) continue;
      const body::TriangleMesh& whole = *wall->mesh;
      LocalMesh local{b, m, whole.triangle_count(),
                      0, 0, !balanced && !moves(globals[b], settings, b)};
      std::vector<std::int32_t> kept;
      std::vector<bool> owned;
      for (std::int32_t t = 0; t < std::int32_t(whole.triangle_count()); ++t) {
        body::Aabb box;
        for (int k = 0; k < 3; ++k) box.grow(wall->to_world(whole.corner(t, k)));
        bool keep = !local.split || box.intersects(reach);
        for (std::size_t p = 0; p < pours.size() && !keep; ++p) keep = box.intersects(pours[p]);
        if (!keep) continue;
        const int writer = decomposition.lowest_rank_reaching({box.lo, box.hi}, margin);
        kept.push_back(t);
        owned.push_back(writer == rank || (writer < 0 && rank == 0));
        local.owned += owned.back() ? 1 : 0;
      }
      local.kept = kept.size();
      if (local.kept < local.whole || local.owned < local.whole)  // else the whole mesh is it
        wall->mesh = std::make_shared<const body::TriangleMesh>(whole.part(kept, owned));
      report.push_back(local);
    }
  return report;
}

}  // namespace granite::scenario
