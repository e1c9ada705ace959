// BodyRecord, generated from the particle field table: pack/unpack carries every migrated field
// bit for bit (orientation not renormalised), shifts only the position, and recomputes the
// derived fields exactly as add() does.
#include "granite/parallel/body_record.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string_view>

namespace {

using namespace granite;
using body::Particles;
using parallel::BodyRecord;

// A body with a non-default, non-round value in every stored field.
body::ParticleInit odd_row(int k) {
  const double x = 1.0 + k / 7.0;
  body::ParticleInit row;
  row.id = 1000003 + k;
  row.position = Vec3(std::sin(x), 1.0 / x, -x / 3.0);
  const Quat q(Eigen::AngleAxisd(0.3 + x, Vec3(1.0, x, 2.0).normalized()));
  row.orientation = Quat(q.coeffs() * (1.0 + 3e-15));  // slightly off unit length
  row.velocity = Vec3(std::cos(x), -x / 9.0, 1.0 / 3.0);
  row.angular_velocity = Vec3(x * M_PI, -std::sqrt(x), 1e5 / x);
  row.force = Vec3(x / 11.0, -1e-7 * x, std::exp(-x));
  row.torque = Vec3(-std::cbrt(x), x * 1e-12, 2.0 / 3.0);
  row.mass = 1.0 / 3.0 + x;
  row.body_inertia << 2.0 + x, 0.1 / x, -0.3, 0.1 / x, 3.0 + x / 3, 0.2, -0.3, 0.2, 5.0 / 7.0;
  row.radius = 1e-4 * x;
  row.material = 4000000000u + std::uint32_t(k);
  row.group = -2000000000 + k;
  row.neighbour_reference = Vec3(x / 13.0, -std::log(x), 7.0 * x);
  return row;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

TEST(BodyRecord, HoldsExactlyTheMigratedFields) {
  std::size_t bytes = 0;
  body::for_each_particle_field([&](const auto& field) {
    using Layout = typename std::decay_t<decltype(field)>::Layout;
    if (field.has(body::kMigrated)) bytes += Layout::components * sizeof(typename Layout::Scalar);
  });
  EXPECT_EQ(sizeof(BodyRecord), bytes);
}

TEST(BodyRecord, PackUnpackRoundTripsEveryFieldBitForBit) {
  Particles sent;
  for (int k = 0; k < 3; ++k) sent.add_exact(odd_row(k));
  const Vec3 shift(4.0, 0.0, -2.5);
  Particles received;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const BodyRecord record = parallel::pack(sent, i, i == 1 ? shift : Vec3::Zero());
    parallel::unpack(record, received);
  }
  ASSERT_EQ(received.size(), sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    body::for_each_particle_field([&](const auto& field) {
      const std::string_view name(field.name);
      if (name == "position" || name == "neighbour_reference") return;  // shifted
      // Migrated fields are copied, derived ones recomputed from them: the same bits either way.
      EXPECT_TRUE(same_bits((received.*field.array)[i], (sent.*field.array)[i]))
          << field.name << " of body " << i;
    });
    const Vec3 expected = sent.position[i] + (i == 1 ? shift : Vec3::Zero());
    EXPECT_TRUE(same_bits(received.position[i], expected)) << "body " << i;
    const Vec3 reference = sent.neighbour_reference[i] + (i == 1 ? shift : Vec3::Zero());
    EXPECT_TRUE(same_bits(received.neighbour_reference[i], reference)) << "body " << i;
  }
}

TEST(BodyRecord, GetReadsOneField) {
  Particles p;
  p.add_exact(odd_row(5));
  const BodyRecord r = parallel::pack(p, 0, Vec3(1.0, 2.0, 3.0));
  EXPECT_EQ(r.get<&Particles::id>(), p.id[0]);
  EXPECT_EQ(r.get<&Particles::position>(), Vec3(p.position[0] + Vec3(1.0, 2.0, 3.0)));
  EXPECT_EQ(r.get<&Particles::orientation>().coeffs(), p.orientation[0].coeffs());
  EXPECT_EQ(r.get<&Particles::body_inertia>(), p.body_inertia[0]);
  EXPECT_EQ(r.get<&Particles::material>(), p.material[0]);
  EXPECT_EQ(r.get<&Particles::group>(), -1999999995);
}

}  // namespace

namespace {

// GhostState: a halo refresh's record, the fields marked refreshed (id, position, orientation,
// velocity, angular velocity: 13 doubles and the 8-byte id). write_state puts them into another
// body bit for bit (the position shifted) and leaves every other field, derived ones included,
// as it was; Particles::append copies kept ghosts with every field as it is.
TEST(GhostState, CarriesTheRefreshedFieldsIntoAKeptGhostAndNothingElse) {
  EXPECT_EQ(sizeof(parallel::GhostState), 8u + 13u * sizeof(double));
  Particles owners, ghosts;
  owners.add_exact(odd_row(1));
  ghosts.add_exact(odd_row(2));
  const Particles before = ghosts;
  const Vec3 shift(0.0, -3.0, 0.0);
  parallel::write_state(parallel::pack_state(owners, 0, shift), ghosts, 0);
  body::for_each_particle_field([&](const auto& field) {
    const std::string_view name(field.name);
    const bool refreshed = field.has(body::kRefreshed);
    const auto& expected = refreshed ? (owners.*field.array)[0] : (before.*field.array)[0];
    if (name == "position") return;
    EXPECT_TRUE(same_bits((ghosts.*field.array)[0], expected)) << field.name;
  });
  EXPECT_TRUE(same_bits(ghosts.position[0], Vec3(owners.position[0] + shift)));
  EXPECT_TRUE(parallel::is_deleted(parallel::deleted_state()));
  EXPECT_FALSE(parallel::is_deleted(parallel::pack_state(owners, 0)));

  Particles all = owners;
  all.append(ghosts);
  ASSERT_EQ(all.size(), 2u);
  body::for_each_particle_field([&](const auto& field) {
    EXPECT_TRUE(same_bits((all.*field.array)[1], (ghosts.*field.array)[0])) << field.name;
  });
}

}  // namespace
