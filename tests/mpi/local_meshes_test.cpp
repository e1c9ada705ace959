// Each rank's part of a mesh wall (scenario/local_meshes.hpp) at 1–4 ranks: a bumpy heightfield
// of 40 x 40 cells over a 1 m x 1 m domain. Every triangle is written by exactly one rank; a rank
// keeps fewer than all where there are several; and the queries of the particles a rank can
// hold (centres within g + s/2 of its subdomain, reach up to 2 (r + h + s)) get the whole mesh's
// contacts and distances bit for bit. A moving mesh is kept whole on every rank.
#include "granite/body/triangle_mesh.hpp"
#include "granite/collision/mesh_contacts.hpp"
#include "granite/parallel/decomposition.hpp"
#include "granite/scenario/local_meshes.hpp"
#include "../support/world.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <random>
#include <vector>

namespace {

using granite::Vec3;
using namespace granite::body;
using granite::parallel::Decomposition;

using granite::test_support::world_rank;
using granite::test_support::world_size;

std::shared_ptr<const TriangleMesh> heightfield(int cells) {
  std::mt19937_64 rng(3);  // the same on every rank
  std::uniform_real_distribution<double> bump(-0.004, 0.004);
  std::vector<Vec3> corners;
  std::vector<MeshTriangle> triangles;
  const double step = 1.0 / cells;
  for (int j = 0; j <= cells; ++j)
    for (int i = 0; i <= cells; ++i) corners.emplace_back(step * i, step * j, bump(rng));
  for (int j = 0; j < cells; ++j)
    for (int i = 0; i < cells; ++i) {
      const int a = j * (cells + 1) + i;
      triangles.push_back({a, a + 1, a + cells + 2});
      triangles.push_back({a, a + cells + 2, a + cells + 1});
    }
  return std::make_shared<const TriangleMesh>(corners, triangles);
}

struct Scene {
  std::shared_ptr<const TriangleMesh> whole = heightfield(40);
  Decomposition decomposition{
      {Vec3(0, 0, -0.1), Vec3(1, 1, 0.4)},
      granite::parallel::choose_dims(world_size(), Vec3(1, 1, 0.5), {0, 0, 1}),
      {false, false, false}};
  const Vec3 position{0.0, 0.0, 0.05};
};

TEST(LocalMeshes, EachTriangleIsWrittenOnceAndQueriesWithinReachSeeTheWholeMesh) {
  const Scene scene;
  const int rank = world_rank(), ranks = world_size();
  GlobalBodies globals;
  globals.add(Mesh{scene.whole, scene.position, granite::Quat::Identity()}, 0);
  const double r = 0.01, h = 0.001, s = 0.004;  // radius, threshold, skin
  const double g = 2.0 * r + h + s;             // the ghost width
  const std::vector<granite::scenario::LocalMesh> report = granite::scenario::keep_local_triangles(
      globals, granite::config::Settings{}, scene.decomposition, rank,
      granite::scenario::local_mesh_margin(g, s));
  ASSERT_EQ(report.size(), 1u);
  EXPECT_TRUE(report[0].split);
  const auto& wall = std::get<Mesh>(globals[0].parts[0]);
  const TriangleMesh& part = *wall.mesh;
  EXPECT_EQ(report[0].kept, part.triangle_count());
  EXPECT_EQ(report[0].whole, scene.whole->triangle_count());
  if (ranks > 1) {
    EXPECT_LT(part.triangle_count(), scene.whole->triangle_count());
  }

  // Written once: the count of each source triangle over the ranks' owned ones.
  std::vector<int> written(scene.whole->triangle_count(), 0);
  for (std::int32_t t = 0; t < std::int32_t(part.triangle_count()); ++t)
    written[std::size_t(part.source_triangle(t))] += part.owns(t) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, written.data(), int(written.size()), MPI_INT, MPI_SUM,
                MPI_COMM_WORLD);
  for (std::size_t t = 0; t < written.size(); ++t) EXPECT_EQ(written[t], 1) << "triangle " << t;

  // The queries a particle on this rank can make.
  const granite::parallel::Box sub = scene.decomposition.subdomain(rank);
  std::mt19937_64 rng(100 + rank);
  std::uniform_real_distribution<double> unit(0.0, 1.0), height(0.03, 0.05 + 2.0 * (r + h + s));
  const double out = g + 0.5 * s;
  std::size_t contacts = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Vec3 c;
    for (int a = 0; a < 2; ++a)
      c[a] = sub.min[a] - out + (sub.max[a] - sub.min[a] + 2.0 * out) * unit(rng);
    c.z() = height(rng);
    const Mesh whole_wall{scene.whole, scene.position, granite::Quat::Identity()};
    granite::collision::ContactGeometry a[8], b[8];
    const std::size_t na = granite::collision::sphere_mesh(c, r, whole_wall, h + s, a, 8);
    const std::size_t nb = granite::collision::sphere_mesh(c, r, wall, h + s, b, 8);
    ASSERT_EQ(na, nb) << "centre " << c.transpose();
    contacts += na;
    for (std::size_t k = 0; k < na; ++k) {
      EXPECT_EQ(a[k].gap, b[k].gap);
      EXPECT_EQ(a[k].normal, b[k].normal);
      EXPECT_EQ(a[k].point, b[k].point);
    }
    const double bound = 2.0 * (r + h + s);
    EXPECT_EQ(signed_distance(whole_wall, c, bound), signed_distance(wall, c, bound));
  }
  EXPECT_GT(contacts, 500u);
}

TEST(LocalMeshes, AMovingMeshIsKeptWholeOnEveryRank) {
  const Scene scene;
  GlobalBodies globals;
  globals.add(Mesh{scene.whole, scene.position, granite::Quat::Identity()}, 0, Vec3(0.0, 0.0, 0.1));
  const std::vector<granite::scenario::LocalMesh> report = granite::scenario::keep_local_triangles(
      globals, granite::config::Settings{}, scene.decomposition, world_rank(),
      granite::scenario::local_mesh_margin(0.025, 0.004));
  ASSERT_EQ(report.size(), 1u);
  EXPECT_FALSE(report[0].split);
  EXPECT_EQ(report[0].kept, scene.whole->triangle_count());
  std::vector<long long> owned{static_cast<long long>(report[0].owned)};
  MPI_Allreduce(MPI_IN_PLACE, owned.data(), 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(owned[0], static_cast<long long>(scene.whole->triangle_count()));
}

}  // namespace
