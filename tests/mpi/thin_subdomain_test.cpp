// Issue 23, item 1: a particle whose ghost layer (2 r + threshold) reaches beyond the nearest
// subdomains would lose its contacts across a subdomain; DistributedDomain::synchronise refuses
// it on every rank alike (the run then stops at that step), naming the axis and both widths.
#include "granite/parallel/distributed_domain.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

namespace {

using namespace granite;
using namespace granite::parallel;

TEST(ThinSubdomain, AGrownRadiusStopsEveryRank) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // 30 mm along x, periodic (so that even one subdomain has neighbours along x), cut into
  // one slab per rank: 30, 15, 10 or 7.5 mm wide.
  const Box domain{Vec3(0, 0, 0), Vec3(0.03, 0.02, 0.02)};
  const Decomposition d(domain, {size, 1, 1}, {true, false, false});
  const double threshold = 1e-4;
  DistributedDomain distributed(comm::Communicator(MPI_COMM_WORLD), d, threshold, {});
  body::Particles particles;
  const auto add = [&](BodyId id, double x, double radius) {
    body::ParticleInit init;
    init.id = id;
    init.position = Vec3(x, 0.01, 0.01);
    init.radius = radius;
    init.mass = 1.0;
    if (d.owner_of(init.position) == rank) particles.add(init);
  };
  // Radius 1 mm: ghost width 2.1 mm, thinner than every slab.
  add(0, 0.001, 0.001);
  std::size_t owned = distributed.synchronise(particles);
  distributed.end_step(particles, owned);
  // An inflow-like new particle of radius 16 mm on rank 0 only: ghost width 32.1 mm > 30 mm.
  add(1, 0.002, 0.016);
  try {
    owned = distributed.synchronise(particles);
    FAIL() << "a 32.1 mm ghost width in " << 30.0 / size << " mm subdomains was accepted";
  } catch (const SubdomainTooThin& e) {
    EXPECT_NE(std::string(e.what()).find("wide along x, thinner than the ghost width 0.0321 m "
                                         "(2 × largest radius 0.016 m + contact.threshold "
                                         "0.0001 m)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
