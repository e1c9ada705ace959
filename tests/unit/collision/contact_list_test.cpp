// ContactList: every array is in its one list (for_each_array), and push_back, retain and clear
// keep the arrays the same length, with each contact's data travelling together.
#include "granite/collision/contact.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace granite;
using collision::ContactList;

std::size_t array_count() {
  std::size_t n = 0;
  const ContactList list;
  collision::for_each_array(list, [&](const auto&) { ++n; });
  return n;
}

::testing::AssertionResult same_lengths(const ContactList& list) {
  std::string lengths;
  bool ok = true;
  collision::for_each_array(list, [&](const auto& a) {
    lengths += ' ';
    lengths += std::to_string(a.size());
    ok = ok && a.size() == list.size();
  });
  if (ok) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "array lengths:" << lengths;
}

TEST(ContactList, EveryArrayIsInTheList) {
  // The arrays (all std::vector, all the same size) and num_particles.
  EXPECT_EQ(sizeof(ContactList), array_count() * sizeof(std::vector<double>) + sizeof(std::size_t))
      << "an array of ContactList is missing from for_each_array";
}

TEST(ContactList, PushBackRetainAndClearKeepTheArraysTogether) {
  ContactList list;
  for (int j = 0; j < 10; ++j)
    list.push_back(collision::BodyIndex(j), collision::BodyIndex(j + 100), Vec3(j, 0, 0),
                   Vec3::UnitZ(), -0.01 * j);
  EXPECT_EQ(list.size(), 10u);
  EXPECT_TRUE(same_lengths(list));
  EXPECT_EQ(list.retain([&](std::size_t j) { return j % 3 != 0; }), 4u);
  ASSERT_EQ(list.size(), 6u);
  EXPECT_TRUE(same_lengths(list));
  const int kept[] = {1, 2, 4, 5, 7, 8};
  for (std::size_t j = 0; j < list.size(); ++j) {
    EXPECT_EQ(list.body1[j], collision::BodyIndex(kept[j]));
    EXPECT_EQ(list.body2[j], collision::BodyIndex(kept[j] + 100));
    EXPECT_EQ(list.point[j], Vec3(kept[j], 0, 0));
    EXPECT_EQ(list.gap[j], -0.01 * kept[j]);
    EXPECT_EQ(list.normal[j], Vec3::UnitZ());
    const Mat3 q = list.frame(j);  // [n t o] from n: right-handed and orthonormal
    EXPECT_EQ(q.col(0), list.normal[j]);
    EXPECT_EQ(q.col(2), list.normal[j].cross(q.col(1)));
    EXPECT_LE((q.transpose() * q - Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-15);
  }
  list.clear();
  EXPECT_EQ(list.size(), 0u);
  EXPECT_TRUE(same_lengths(list));
}

}  // namespace
