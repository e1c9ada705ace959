// Neighbour lists with a skin (collision/neighbour_list.hpp): while no particle has moved more
// than skin/2 since the build, the candidates give exactly the contacts of a full search (same
// pairs, same gaps), with particles and with global bodies of every kind (a body moved since
// the build included); a move just over skin/2, a removed particle or a changed id makes the
// list stale; a Simulation with a skin (particles deleted now and then, a wall static or moving,
// a mesh floor with its candidate triangles) finds the contacts of a full search step by step.
#include "granite/body/triangle_mesh.hpp"
#include "granite/collision/detection.hpp"
#include "granite/collision/neighbour_list.hpp"
#include "granite/timestep/simulation.hpp"

#include "../../support/full_search_audit.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <tuple>

using namespace granite;
using namespace granite::collision;

namespace {

using test_support::FullSearchAudit;
constexpr auto keyed = test_support::keyed_gaps;

body::Particles random_spheres(std::size_t n, double box, double rmin, double rmax,
                               std::mt19937& rng, body::MaterialTable& materials) {
  std::uniform_real_distribution<double> u(0.0, box), ur(rmin, rmax);
  body::Particles p;
  const auto mat = materials.add({1000.0, 0.3});
  for (std::size_t i = 0; i < n; ++i)
    p.add_sphere(materials, mat, Vec3(u(rng), u(rng), u(rng)), ur(rng));
  return p;
}

// A random direction scaled to `length`.
Vec3 random_move(std::mt19937& rng, double length) {
  std::normal_distribution<double> g;
  Vec3 d(g(rng), g(rng), g(rng));
  return length * d.normalized();
}

}  // namespace

namespace {

// Global bodies of every kind among spheres in the unit cube: a floor, a turned box, a tilted
// cylinder, a union (box and cylinder), a drum around everything (mantle and caps from
// inside), an inactive gate, and a box that `moving` returns (moved after the build).
body::GlobalBodies obstacles(std::size_t& moving) {
  body::GlobalBodies g;
  g.add(body::HalfSpace{Vec3(0, 0, 0.05), Vec3::UnitZ()}, 0);
  const Quat turned(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized()));
  g.add(body::Box{Vec3(0.5, 0.5, 0.5), Vec3(0.1, 0.2, 0.05), turned}, 0);
  g.add(body::Cylinder{Vec3(0.2, 0.8, 0.5), Vec3(0, 1, 1), 0.08, 0.15, false}, 0);
  body::GlobalBody pair;
  pair.parts = {body::Box{Vec3(0.8, 0.2, 0.5), Vec3(0.1, 0.1, 0.1), Quat::Identity()},
                body::Cylinder{Vec3(0.8, 0.2, 0.62), Vec3::UnitZ(), 0.09, 0.1, false}};
  g.add(pair);
  g.add(body::Cylinder{Vec3(0.5, 0.5, 0.5), Vec3::UnitZ(), 0.55, 0.45, true}, 0);
  const std::size_t gate = g.add(body::HalfSpace{Vec3(0.9, 0, 0), -Vec3::UnitX()}, 0);
  g[gate].active = false;
  moving = g.add(body::Box{Vec3(0.3, 0.3, 0.3), Vec3(0.05, 0.05, 0.05), Quat::Identity()}, 0);
  return g;
}

}  // namespace

TEST(NeighbourList, CandidatesGiveTheContactsOfAFullSearchWhileMovesStayWithinHalfTheSkin) {
  std::mt19937 rng(5);
  for (const double threshold : {0.0, 0.01}) {
    body::MaterialTable materials;
    body::Particles p = random_spheres(2000, 1.0, 0.02, 0.04, rng, materials);
    std::size_t moving = 0;
    body::GlobalBodies globals = obstacles(moving);
    const double skin = 0.02;
    NeighbourList list;
    list.build(p, p.size(), globals, threshold, skin);
    ContactDetection full, candidates;
    ContactList a, b;
    std::uniform_real_distribution<double> fraction(0.0, 1.0);
    std::size_t compared = 0, with_globals = 0;
    for (int round = 0; round < 5; ++round) {
      // Every particle moves up to just under skin/2 from where it was at the build: the
      // worst case, two neighbours approaching each other by almost a whole skin.
      body::Particles moved = p;
      for (std::size_t i = 0; i < p.size(); ++i)
        moved.position[i] +=
            random_move(rng, 0.5 * skin * (1.0 - 1e-9) * (round == 0 ? 1.0 : fraction(rng)));
      ASSERT_FALSE(list.stale(moved, moved.size()));
      // In rounds 1 and 2 one box is translated by up to just under skin/2 from where it was
      // at the build (it keeps its candidates); from round 3 on by far more than the skin.
      if (round == 1 || round == 2)
        globals.move(moving, random_move(rng, 0.25 * skin * (1.0 - 1e-9)));
      if (round == 3) globals.move(moving, Vec3(0.05, 0.03, 0.02));
      for (std::size_t k = 0; k < globals.size(); ++k)
        EXPECT_EQ(list.global_moved(globals, k), round > 2 && k == moving) << "body " << k;
      full.detect(moved, globals, body::ShapeTable{}, threshold, a);
      candidates.detect(list, moved, globals, body::ShapeTable{}, threshold, b);
      const auto ka = keyed(a, moved), kb = keyed(b, moved);
      ASSERT_EQ(ka.size(), kb.size());
      for (const auto& [key, gap] : ka) {
        const auto it = kb.find(key);
        ASSERT_TRUE(it != kb.end()) << "a contact the candidates miss";
        EXPECT_EQ(it->second, gap);  // the same narrow phase on the same positions
        with_globals += std::get<1>(key) < 0 ? 1 : 0;
      }
      // The same order as a full search among the global contacts (by particle, then body).
      for (std::size_t j = 0, m = 0; j < a.size(); ++j) {
        if (!a.involves_global(j)) continue;
        while (!b.involves_global(m)) ++m;
        EXPECT_EQ(std::tie(a.body1[j], a.body2[j]), std::tie(b.body1[m], b.body2[m]));
        ++m;
      }
      compared += ka.size();
    }
    EXPECT_GT(compared, 5000u) << "too few contacts: test too weak";
    EXPECT_GT(with_globals, 1000u) << "too few contacts with global bodies: test too weak";
    EXPECT_GT(list.size(), a.size() / 2) << "candidates, not contacts";
    EXPECT_LT(list.global_pairs().size(), p.size() * globals.size() / 3)
        << "global candidates should be the particles near a body, not all of them";
  }
}

// A global body keeps its candidates while each member is translated by at most skin/2 from
// where it was at the build; a translation just over it, a turn or a resize makes it moved.
TEST(NeighbourList, AGlobalBodyTranslatedJustOverHalfTheSkinIsSearchedInFull) {
  std::mt19937 rng(8);
  body::MaterialTable materials;
  body::Particles p = random_spheres(50, 1.0, 0.02, 0.04, rng, materials);
  std::size_t moving = 0;
  const double skin = 0.02;
  for (std::size_t k : {std::size_t(0), std::size_t(3)}) {  // a half-space, a union
    for (const double over : {-1e-9, 1e-9}) {
      body::GlobalBodies globals = obstacles(moving);
      NeighbourList list;
      list.build(p, p.size(), globals, 0.0, skin);
      const Vec3 d = random_move(rng, 0.5 * skin * (1.0 + over));
      globals.move(k, d);
      EXPECT_EQ(list.global_moved(globals, k), over > 0)
          << "body " << k << " moved by " << d.norm();
    }
  }
  body::GlobalBodies globals = obstacles(moving);
  NeighbourList list;
  list.build(p, p.size(), globals, 0.0, skin);
  body::rotate(globals[1].parts[0], Quat(Eigen::AngleAxisd(1e-6, Vec3::UnitZ())), Vec3::Zero());
  std::get<body::Cylinder>(globals[2].parts[0]).radius *= 1.0 + 1e-12;
  EXPECT_TRUE(list.global_moved(globals, 1)) << "a turned box";
  EXPECT_TRUE(list.global_moved(globals, 2)) << "a resized cylinder";
  EXPECT_FALSE(list.global_moved(globals, 4));
}

TEST(NeighbourList, StaleAfterAMoveJustOverHalfTheSkinOrAChangedParticleSet) {
  std::mt19937 rng(7);
  body::MaterialTable materials;
  body::Particles p = random_spheres(200, 0.3, 0.01, 0.02, rng, materials);
  const double skin = 0.004;
  NeighbourList list;
  EXPECT_TRUE(list.stale(p, p.size())) << "never built";
  list.build(p, p.size(), body::GlobalBodies{}, 0.0, skin);
  EXPECT_FALSE(list.stale(p, p.size()));
  for (const double factor : {1.0 - 1e-9, 1.0 + 1e-9}) {
    body::Particles moved = p;
    moved.position[17] += random_move(rng, 0.5 * skin * factor);
    EXPECT_EQ(list.stale(moved, moved.size()), factor > 1.0) << "move of " << factor << " skin/2";
  }
  body::Particles fewer = p;
  fewer.remove_if([](std::size_t i) { return i == 3; });
  EXPECT_TRUE(list.stale(fewer, fewer.size()));
  body::Particles renamed = p;
  renamed.id[5] = 100000;
  EXPECT_TRUE(list.stale(renamed, renamed.size()));
  list.invalidate();
  EXPECT_TRUE(list.stale(p, p.size()));
}

namespace {

// A box of falling, colliding spheres (walls on all sides), with or without a skin; the wall
// at x = 0 moves in with `piston` m/s (a kinematic wall, as the channel's piston).
// The floor z = 0 of the falling gas's box [0, L]³ as a mesh wall: the square cut into 2 × 16²
// triangles (their normals exactly +z: the contacts are the plane's).
body::Mesh mesh_floor(double L) {
  std::vector<Vec3> v;
  std::vector<body::MeshTriangle> t;
  constexpr int k = 16;
  for (int i = 0; i <= k; ++i)
    for (int j = 0; j <= k; ++j) v.emplace_back(L * i / k, L * j / k, 0.0);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) {
      const int a = i * (k + 1) + j, b = a + k + 1;
      t.push_back({a, b, b + 1});
      t.push_back({a, b + 1, a + 1});
    }
  return {std::make_shared<const body::TriangleMesh>(v, t), Vec3::Zero(), Quat::Identity()};
}

timestep::Simulation falling_gas(double skin, double piston = 0.0, bool meshed_floor = false) {
  timestep::Simulation sim;
  auto& par = sim.parameters();
  par.dt = 2e-4;
  par.gravity = {0, 0, -9.81};
  par.contact_threshold = 1e-4;
  par.max_sweeps = 20;
  par.skin = skin;
  const auto glass = sim.materials().add({2650.0, 0.3});
  const double L = 0.05;
  for (int a = 0; a < 3; ++a) {
    if (a == 2 && meshed_floor)
      sim.globals().add(mesh_floor(L), glass);
    else
      sim.globals().add(body::HalfSpace{Vec3::Zero(), Vec3::Unit(a)}, glass,
                        a == 0 ? Vec3(piston, 0, 0) : Vec3::Zero());
    sim.globals().add(body::HalfSpace{Vec3::Constant(L), -Vec3::Unit(a)}, glass);
  }
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const double r = 1.2e-3, spacing = 3e-3;
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j)
      for (int k = 0; k < 8; ++k)
        sim.particles().add_sphere(
            sim.materials(), glass,
            Vec3(0.006 + i * spacing, 0.006 + j * spacing, 0.003 + k * spacing), r,
            Vec3(u(rng), u(rng), u(rng)));
  return sim;
}

}  // namespace

TEST(NeighbourList, SimulationWithASkinFindsTheContactsOfAFullSearchEveryStep) {
  // Static walls; then the wall at x = 0 moving in at 2 m/s for 15 steps: 6 mm, through the
  // 4.8 mm gap to the first particles, a third of the skin a step (faster than the lists are
  // rebuilt: it is searched in full while it moves, by its candidates once it stops).
  for (const double piston : {0.0, 2.0}) {
    timestep::Simulation sim = falling_gas(1.2e-3, piston);  // skin/2 = 3.5 steps at the start
    FullSearchAudit audit(sim, 0);                           // the piston: global body 0
    std::size_t rebuilds = 0, deleted = 0;
    const int steps = 300;
    for (int s = 0; s < steps; ++s) {
      if (s == 15) sim.globals().set_velocity(0, Vec3::Zero());
      rebuilds += sim.step().neighbour_rebuild ? 1 : 0;
      // Every 5th step one particle goes (deletions keep the list, remapped).
      if (s % 5 == 2)
        deleted += sim.remove_particles([s](const body::Particles& p, std::size_t i) {
          return i == std::size_t(s) % p.size();
        });
    }
    EXPECT_EQ(deleted, std::size_t(steps / 5));
    EXPECT_EQ(audit.mismatches, 0u) << "steps whose contacts differ from a full search";
    EXPECT_GT(audit.contacts, std::size_t(steps) * 200) << "too few contacts: test too weak";
    if (piston > 0.0) {
      EXPECT_GT(audit.wall_contacts, 100u) << "the moving wall never touched";
    }
    EXPECT_GT(rebuilds, 1u) << "never rebuilt: the skin test is too weak";
    EXPECT_LT(rebuilds, std::size_t(steps) / 2) << "rebuilt almost every step";
    EXPECT_EQ(sim.rebuilds(), rebuilds);
  }
}

// The same with the floor a mesh wall, whose spheres the detection tests against the candidate
// triangles the list kept (NeighbourList::mesh_candidates): every step's contacts are a full
// search's. The floor then rises at 0.5 m/s for 10 steps (1 mm, more than skin/2: searched in
// full while it moves) and stops (its candidates again after the next build).
TEST(NeighbourList, MeshWallCandidatesFindTheContactsOfAFullSearchEveryStep) {
  timestep::Simulation sim = falling_gas(1.2e-3, 0.0, true);
  FullSearchAudit audit(sim, 4);  // the floor: global body 4
  std::size_t rebuilds = 0;
  for (int s = 0; s < 300; ++s) {
    if (s == 200) sim.globals().set_velocity(4, Vec3(0, 0, 0.5));
    if (s == 210) sim.globals().set_velocity(4, Vec3::Zero());
    rebuilds += sim.step().neighbour_rebuild ? 1 : 0;
  }
  EXPECT_EQ(audit.mismatches, 0u) << "steps whose contacts differ from a full search";
  EXPECT_GT(audit.wall_contacts, 1000u) << "the mesh floor was hardly touched: test too weak";
  EXPECT_GT(rebuilds, 1u);
  EXPECT_GT(audit.contacts, 300u * 200u);
}

TEST(NeighbourList, AParticleMovedJustOverHalfTheSkinForcesARebuild) {
  for (const double factor : {1.0 - 1e-6, 1.0 + 1e-6}) {
    const double skin = 4e-4;
    timestep::Simulation sim = falling_gas(skin);
    sim.parameters().gravity = Vec3::Zero();
    for (std::size_t i = 0; i < sim.particles().size(); ++i) sim.particles().velocity[i].setZero();
    EXPECT_TRUE(sim.step().neighbour_rebuild) << "the first step builds";
    EXPECT_FALSE(sim.step().neighbour_rebuild) << "nothing moves";
    sim.particles().position[42] += Vec3(0.5 * skin * factor, 0, 0);
    EXPECT_EQ(sim.step().neighbour_rebuild, factor > 1.0) << "move of " << factor << " skin/2";
    sim.request_rebuild();
    EXPECT_TRUE(sim.step().neighbour_rebuild) << "requested";
  }
}

TEST(NeighbourList, TheLocalitySortKeepsTheContactsOfAStep) {
  // The same state stepped with and without the Z-order sort (contact.locality_sort): the
  // particles come in another order (the lattice is built x-major), the contacts are the same
  // (id, id) pairs and (id, wall) pairs with bit-identical gaps: the sort changes where a body
  // is stored, never where it is. With a skin, the sorted run keeps finding the contacts of a
  // full search over steps with rebuilds and deletions.
  for (const double skin : {0.0, 1.2e-3}) {
    timestep::Simulation plain = falling_gas(skin);
    plain.parameters().locality_sort = false;    // the engine's default is on
    for (int s = 0; s < 100; ++s) plain.step();  // fallen and colliding: many contacts
    timestep::Simulation sorted = plain;
    sorted.parameters().locality_sort = true;
    sorted.request_rebuild();  // the sort comes with a rebuild
    plain.step();
    EXPECT_TRUE(sorted.step().neighbour_rebuild);
    EXPECT_NE(plain.particles().id, sorted.particles().id) << "the sort moved nothing";
    const auto a = keyed(plain.contacts(), plain.particles());
    const auto b = keyed(sorted.contacts(), sorted.particles());
    EXPECT_GT(a.size(), 200u) << "too few contacts: test too weak";
    EXPECT_EQ(a, b) << "skin " << skin;
    std::size_t mismatches = 0;
    sorted.set_contact_problem_observer([&](const auto&, const auto&) {
      ContactDetection full;
      ContactList all;
      full.detect(sorted.particles(), sorted.globals(), sorted.shapes(),
                  sorted.parameters().contact_threshold, all);
      const body::Particles& p = sorted.particles();
      mismatches += keyed(all, p) == keyed(sorted.contacts(), p) ? 0 : 1;
    });
    std::size_t rebuilds = 0;
    for (int s = 0; s < 60; ++s) {
      rebuilds += sorted.step().neighbour_rebuild ? 1 : 0;
      if (s % 7 == 3)
        sorted.remove_particles([s](const body::Particles& p, std::size_t i) {
          return i == std::size_t(13 * s) % p.size();
        });
    }
    EXPECT_EQ(mismatches, 0u) << "steps whose contacts differ from a full search, skin " << skin;
    if (skin > 0.0) {
      EXPECT_GT(rebuilds, 2u) << "too few rebuilds: the sort was hardly exercised";
      EXPECT_LT(rebuilds, 50u) << "rebuilt almost every step";
    }
  }
}

TEST(NeighbourList, WithTheLocalitySortTheRunDoesNotDependOnTheStorageOrder) {
  // The same bodies stored in two orders: the first step's sort (every first step rebuilds)
  // makes the runs one and the same, bit for bit, with or without a skin; without the sort the
  // Gauss–Seidel order differs and so do the bits (the check can fail).
  for (const double skin : {0.0, 1.2e-3})
    for (const bool sort : {true, false}) {
      timestep::Simulation a = falling_gas(skin), b = falling_gas(skin);
      a.parameters().locality_sort = b.parameters().locality_sort = sort;
      std::vector<std::uint32_t> order(b.particles().size());
      for (std::size_t k = 0; k < order.size(); ++k) order[k] = std::uint32_t(order.size() - 1 - k);
      b.particles().permute(order);
      for (int s = 0; s < 80; ++s) {
        a.step();
        b.step();
      }
      ASSERT_GT(a.contacts().size(), 100u) << "too few contacts: test too weak";
      const body::Particles &pa = a.particles(), &pb = b.particles();
      ASSERT_EQ(pa.size(), pb.size());
      bool same = true;  // every body's state, matched by id
      for (std::size_t i = 0; i < pa.size(); ++i) {
        const std::ptrdiff_t j = pb.find(pa.id[i]);
        ASSERT_GE(j, 0);
        same = same && pa.position[i] == pb.position[std::size_t(j)] &&
               pa.velocity[i] == pb.velocity[std::size_t(j)];
      }
      EXPECT_EQ(same, sort) << "skin " << skin << (sort ? ", sorted" : ", unsorted");
      if (sort) {
        EXPECT_EQ(pa.id, pb.id) << "the sorted orders differ, skin " << skin;
      }
    }
}
