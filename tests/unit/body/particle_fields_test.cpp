// The particle field table: it lists every array of Particles once, and the storage operations
// generated from it keep every array the length of the others, derived fields included.
#include "granite/body/particle_fields.hpp"
#include "granite/core/error.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

namespace {

using namespace granite;
using body::Particles;

std::size_t field_count() {
  std::size_t n = 0;
  body::for_each_particle_field([&](const auto&) { ++n; });
  return n;
}

// Every field's array has p.size() elements.
::testing::AssertionResult same_lengths(const Particles& p) {
  std::string wrong;
  body::for_each_particle_field([&](const auto& field) {
    if ((p.*field.array).size() != p.size())
      wrong += std::string(" ") + field.name + "=" + std::to_string((p.*field.array).size());
  });
  if (wrong.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "size() " << p.size() << ", but" << wrong;
}

TEST(ParticleFields, EveryArrayOfParticlesIsInTheTableOnce) {
  // Particles holds its arrays (all std::vector, all the same size) and next_id_: an array
  // added to the class but not to kParticleFields changes its size.
  EXPECT_EQ(sizeof(Particles), field_count() * sizeof(std::vector<double>) + sizeof(BodyId))
      << "an array of body::Particles is missing from body::kParticleFields";
  std::set<std::string> names;
  std::set<std::size_t> offsets;
  const Particles p;
  body::for_each_particle_field([&](const auto& field) {
    names.insert(field.name);
    offsets.insert(std::size_t(reinterpret_cast<const char*>(&(p.*field.array)) -
                               reinterpret_cast<const char*>(&p)));
  });
  EXPECT_EQ(names.size(), field_count()) << "two fields with the same name";
  EXPECT_EQ(offsets.size(), field_count()) << "two fields with the same array";
}

TEST(ParticleFields, EveryArrayKeepsTheSameLengthThroughAddRemoveAndClear) {
  body::MaterialTable materials;
  const auto m = materials.add({2000.0, 0.4});
  Particles p;
  p.reserve(16);
  EXPECT_TRUE(same_lengths(p));
  for (int i = 0; i < 10; ++i) p.add_sphere(materials, m, Vec3(i, 0, 0), 0.1 + 0.01 * i);
  EXPECT_TRUE(same_lengths(p));
  body::ParticleInit init;
  init.radius = 0.2;
  init.mass = 3.0;
  p.add(init);
  init.id = 42;
  p.add_exact(init);
  EXPECT_EQ(p.size(), 12u);
  EXPECT_TRUE(same_lengths(p));
  EXPECT_EQ(p.remove_if([&](std::size_t i) { return p.id[i] % 3 == 0; }), 5u);
  EXPECT_TRUE(same_lengths(p));
  EXPECT_THROW(p.add_exact(body::ParticleInit{}), InputError);  // radius and mass 0
  EXPECT_TRUE(same_lengths(p));
  p.clear();
  EXPECT_EQ(p.size(), 0u);
  EXPECT_TRUE(same_lengths(p));
}

TEST(ParticleFields, GroupDefaultsToZeroAndTravelsWithItsBody) {
  body::MaterialTable materials;
  const auto m = materials.add({2000.0, 0.4});
  Particles p;
  for (int i = 0; i < 6; ++i)
    p.add_sphere(materials, m, Vec3(i, 0, 0), 0.1, Vec3::Zero(), -1, std::int32_t(10 * i - 20));
  p.add_sphere(materials, m, Vec3::Zero(), 0.1);
  EXPECT_EQ(p.group.back(), 0);
  p.remove_if([&](std::size_t i) { return i % 2 == 0; });
  EXPECT_EQ(p.group, (std::vector<std::int32_t>{-10, 10, 30}));
  EXPECT_TRUE(same_lengths(p));
}

TEST(ParticleFields, AddExactKeepsTheBitsAndDerivesTheInverses) {
  body::ParticleInit row;
  row.id = 7;
  row.orientation = Quat(0.5, 0.5, 0.5, 0.5 + 1e-13);  // not unit length: kept as is
  row.radius = 0.25;
  row.mass = 3.0;
  row.body_inertia << 2.0, 0.1, 0.0, 0.1, 3.0, 0.2, 0.0, 0.2, 5.0;
  Particles p;
  p.add_exact(row);
  body::for_each_particle_field([&](const auto& field) {
    const auto expected = field.value(row);
    EXPECT_EQ(std::memcmp(&(p.*field.array)[0], &expected, sizeof expected), 0) << field.name;
  });
  EXPECT_EQ(p.orientation[0].coeffs(), row.orientation.coeffs());
  EXPECT_EQ(p.inverse_mass[0], 1.0 / 3.0);
  EXPECT_EQ(p.inverse_body_inertia(0), Mat3(row.body_inertia.inverse()));
  // add() renormalises and assigns ids after the largest seen.
  EXPECT_EQ(p.add(row), 7);
  EXPECT_NEAR(p.orientation[1].norm(), 1.0, 1e-15);
  row.id = -1;
  EXPECT_EQ(p.add(row), 8);
}

TEST(ParticleFields, DerivedFieldsAreNeitherStoredNorSent) {
  body::for_each_particle_field([](const auto& field) {
    if (field.derived()) {
      EXPECT_EQ(field.flags, 0u) << field.name;
    } else {
      EXPECT_TRUE(field.has(body::kCheckpointed)) << field.name;
    }
  });
}

}  // namespace
