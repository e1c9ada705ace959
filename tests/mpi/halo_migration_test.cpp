// Migration and ghosts at 1-4 ranks: no body lost or duplicated (also bodies that jump several
// subdomains and cross a periodic boundary), every ghost a bit-exact (shifted) copy of its
// owner, every body within the halo width present as a ghost, and the per-sweep correction
// exchange summing ghost increments into owners and copying the result back.
#include "granite/parallel/decomposition.hpp"
#include "granite/parallel/halo.hpp"
#include "granite/parallel/migration.hpp"
#include "../support/gather_all.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <map>
#include <random>

namespace {

using namespace granite;
using namespace granite::parallel;
using P = body::Particles;

struct World {
  int rank = 0, size = 1;
  World() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
};

const Box kDomain{Vec3(0, 0, 0), Vec3(4, 2, 2)};

Decomposition make_decomposition(int size, std::array<bool, 3> periodic) {
  return Decomposition(kDomain, choose_dims(size, kDomain.max - kDomain.min), periodic);
}

// The same N bodies on every rank (same seed); each rank keeps those it owns. Velocity and
// radius are functions of the id so that a corrupted record is detected.
body::Particles owned_bodies(const Decomposition& d, int rank, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  body::Particles p;
  for (int id = 0; id < n; ++id) {
    const Vec3 x(4 * u(rng), 2 * u(rng), 2 * u(rng));
    if (d.owner_of(x) != rank) continue;
    body::ParticleInit init;
    init.id = id;
    init.position = x;
    init.velocity = Vec3(id, 2.0 * id, -1.0 * id);
    init.radius = 0.01 + 1e-5 * id;
    init.mass = 1.0 + id;
    p.add(init);
  }
  return p;
}

std::vector<BodyRecord> all_records(const body::Particles& p, std::size_t owned) {
  std::vector<BodyRecord> mine;
  for (std::size_t i = 0; i < owned; ++i) mine.push_back(pack(p, i));
  const std::vector<BodyRecord> all = granite::test_support::gather_all(mine, MPI_COMM_WORLD);
  return all;
}

void expect_each_id_once(const body::Particles& p, int n) {
  const auto all = all_records(p, p.size());
  std::vector<BodyId> ids;
  for (const auto& r : all) ids.push_back(r.get<&P::id>());
  std::sort(ids.begin(), ids.end());
  ASSERT_EQ(ids.size(), std::size_t(n)) << "bodies lost or duplicated";
  for (int k = 0; k < n; ++k) ASSERT_EQ(ids[k], k);
}

TEST(Migration, FastBodiesCrossSeveralSubdomainsAndAPeriodicBoundaryIntact) {
  const World w;
  const Decomposition d = make_decomposition(w.size, {true, false, false});
  comm::PeerExchange exchange(MPI_COMM_WORLD);
  exchange.set_peers(d.neighbour_ranks(w.rank));

  const int n = 600;
  body::Particles p = owned_bodies(d, w.rank, n, 11);
  std::mt19937_64 rng(100 + w.rank);
  std::uniform_real_distribution<double> jump(-9.0, 9.0);  // up to 2.25 domain lengths in x
  for (std::size_t i = 0; i < p.size(); ++i) p.position[i][0] += jump(rng);
  migrate(p, d, w.rank, exchange);

  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(d.owner_of(p.position[i]), w.rank);
    EXPECT_GE(p.position[i][0], 0.0);
    EXPECT_LE(p.position[i][0], 4.0);
    const double id = double(p.id[i]);
    EXPECT_EQ(p.velocity[i], Vec3(id, 2.0 * id, -1.0 * id));
    EXPECT_EQ(p.radius[i], 0.01 + 1e-5 * id);
  }
  expect_each_id_once(p, n);
}

TEST(Halo, GhostsAreExactCopiesOfEveryBodyWithinTheHaloWidth) {
  const World w;
  for (const std::array<bool, 3> periodic :
       {std::array<bool, 3>{false, false, false}, std::array<bool, 3>{true, true, false}}) {
    const Decomposition d = make_decomposition(w.size, periodic);
    comm::PeerExchange exchange(MPI_COMM_WORLD);
    exchange.set_peers(d.neighbour_ranks(w.rank));
    body::Particles p = owned_bodies(d, w.rank, 800, 5);
    const std::size_t owned = p.size();
    const double width = 0.3;
    Halo halo;
    halo.rebuild(p, owned, d, w.rank, width, exchange);
    EXPECT_EQ(p.size(), owned + halo.ghost_count());

    // Expected ghosts: every body image (shift by 0 or ±L on periodic axes) within `width`
    // of this subdomain, except the body itself.
    const Box mine = d.subdomain(w.rank);
    std::multimap<BodyId, Vec3> expected;
    for (const BodyRecord& r : all_records(p, owned)) {
      for (int sx = -1; sx <= 1; ++sx)
        for (int sy = -1; sy <= 1; ++sy)
          for (int sz = -1; sz <= 1; ++sz) {
            const int s[3] = {sx, sy, sz};
            Vec3 shift = Vec3::Zero();
            bool ok = true;
            for (int a = 0; a < 3; ++a) {
              if (s[a] != 0 && !periodic[a]) ok = false;
              shift[a] = s[a] * (kDomain.max[a] - kDomain.min[a]);
            }
            const Vec3 x = r.get<&P::position>() + shift;
            const bool self = d.owner_of(x - shift) == w.rank && shift.isZero();
            if (ok && !self && mine.distance(x) <= width) expected.emplace(r.get<&P::id>(), x);
          }
    }
    EXPECT_EQ(halo.ghost_count(), expected.size()) << "periodic x,y: " << periodic[0];
    for (std::size_t g = owned; g < p.size(); ++g) {
      auto range = expected.equal_range(p.id[g]);
      bool found = false;
      for (auto it = range.first; it != range.second && !found; ++it)
        found = it->second == p.position[g];  // bit-exact
      EXPECT_TRUE(found) << "ghost " << p.id[g] << " at " << p.position[g].transpose();
      const double id = double(p.id[g]);
      EXPECT_EQ(p.velocity[g], Vec3(id, 2.0 * id, -1.0 * id));
      EXPECT_EQ(p.mass[g], 1.0 + id);
    }
  }
}

// 800 bodies on their owners (periodic along x) and their ghosts within 0.3: the scene of the
// correction exchange's tests.
struct CorrectionScene {
  body::Particles p;
  std::size_t owned = 0;
  Halo halo;
  comm::PeerExchange exchange{MPI_COMM_WORLD};
  explicit CorrectionScene(std::uint64_t seed) {
    const World w;
    const Decomposition d = make_decomposition(w.size, {true, false, false});
    exchange.set_peers(d.neighbour_ranks(w.rank));
    p = owned_bodies(d, w.rank, 800, seed);
    owned = p.size();
    halo.rebuild(p, owned, d, w.rank, 0.3, exchange);
  }
};

TEST(Halo, CorrectionExchangeSumsGhostIncrementsIntoOwners) {
  CorrectionScene scene(9);
  auto& [p, owned, halo, exchange] = scene;

  std::vector<solver::BodyState> states(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    states[i].dv = i < owned ? Vec3(double(p.id[i]), 0, 0) : Vec3::Zero();
    states[i].dw = Vec3::Zero();
  }
  // Ghosts start from their owners' corrections (as after a forward exchange)...
  halo.exchange_corrections(states, owned, exchange);
  for (std::size_t g = owned; g < p.size(); ++g)
    EXPECT_EQ(states[g].dv, Vec3(double(p.id[g]), 0, 0));
  // ... then each ghost image receives an increment of (0, 1, 0) in a "sweep".
  halo.reset_corrections(states, owned);
  for (std::size_t g = owned; g < p.size(); ++g) states[g].dv += Vec3(0, 1, 0);
  halo.exchange_corrections(states, owned, exchange);

  // Count the images of each body held anywhere.
  std::vector<int> images_local(800, 0), images(800, 0);
  for (std::size_t g = owned; g < p.size(); ++g) ++images_local[std::size_t(p.id[g])];
  MPI_Allreduce(images_local.data(), images.data(), 800, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (std::size_t i = 0; i < owned; ++i)
    EXPECT_EQ(states[i].dv, Vec3(double(p.id[i]), images[std::size_t(p.id[i])], 0));
  for (std::size_t g = owned; g < p.size(); ++g)
    EXPECT_EQ(states[g].dv, Vec3(double(p.id[g]), images[std::size_t(p.id[g])], 0));
}

// Sweeps in which only some ghosts take increments and only some owners change: the messages
// carry only those (a sweep that changes nothing sends nothing), and every image still ends
// equal to its owner, bit for bit; after reset_corrections the first totals overwrite what the
// holder did to its ghosts before (a warm start's impulses), whether they changed or not.
TEST(Halo, SparseCorrectionsLeaveEveryImageEqualToItsOwner) {
  CorrectionScene scene(11);
  auto& [p, owned, halo, exchange] = scene;
  const auto id = [&](std::size_t i) { return std::size_t(p.id[i]); };

  std::vector<solver::BodyState> states(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    states[i].dv = i < owned ? Vec3(0.1 * double(id(i)), 0, 0) : Vec3(999, 999, 999);
    states[i].dw = Vec3::Zero();
  }
  halo.reset_corrections(states, owned);
  halo.exchange_corrections(states, owned, exchange);
  const auto expect_images_equal_owners = [&](const char* when) {
    std::vector<double> owner(3 * 800, 0.0), all(3 * 800, 0.0);
    for (std::size_t i = 0; i < owned; ++i)
      for (int c = 0; c < 3; ++c) owner[3 * id(i) + std::size_t(c)] = states[i].dv[c];
    MPI_Allreduce(owner.data(), all.data(), 3 * 800, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (std::size_t g = owned; g < p.size(); ++g)
      for (int c = 0; c < 3; ++c)
        ASSERT_EQ(states[g].dv[c], all[3 * id(g) + std::size_t(c)]) << when << ", body " << id(g);
  };
  expect_images_equal_owners("after the first totals");

  // A sweep: ghosts of even bodies take (0, 1/3, 0); owned bodies with id % 3 == 0 change.
  std::vector<int> images_local(800, 0), images(800, 0);
  for (std::size_t g = owned; g < p.size(); ++g) ++images_local[id(g)];
  MPI_Allreduce(images_local.data(), images.data(), 800, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (std::size_t g = owned; g < p.size(); ++g)
    if (id(g) % 2 == 0) states[g].dv += Vec3(0, 1.0 / 3.0, 0);
  for (std::size_t i = 0; i < owned; ++i)
    if (id(i) % 3 == 0) states[i].dv += Vec3(0.5, 0, 0);
  halo.exchange_corrections(states, owned, exchange);
  expect_images_equal_owners("after a sweep");
  for (std::size_t i = 0; i < owned; ++i) {
    double y = 0.0;  // the images' increments, added one by one as the owner does
    for (int k = 0; k < (id(i) % 2 == 0 ? images[id(i)] : 0); ++k) y += 1.0 / 3.0;
    EXPECT_EQ(states[i].dv, Vec3(0.1 * double(id(i)) + (id(i) % 3 == 0 ? 0.5 : 0.0), y, 0.0));
  }

  // A sweep that changes nothing sends nothing.
  const std::uint64_t before = exchange.bytes_sent();
  halo.exchange_corrections(states, owned, exchange);
  EXPECT_EQ(exchange.bytes_sent(), before);
  expect_images_equal_owners("after a sweep without change");

  // The holder changes its ghosts outside a sweep (a warm start), then a relaxation begins:
  // its first totals put back the owners' values.
  for (std::size_t g = owned; g < p.size(); ++g) states[g].dv += Vec3(7, 7, 7);
  halo.reset_corrections(states, owned);
  halo.exchange_corrections(states, owned, exchange);
  expect_images_equal_owners("after a reset");
}

}  // namespace
