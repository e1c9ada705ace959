// The fixes' declared order (Fix::runs_after, check_fix_order): a list that puts a fix before
// one it must follow is refused, naming both; the order make_fixes() builds passes.
#include "granite/scenario/fixes/fixes.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace granite::scenario {
namespace {

class Named final : public Fix {
public:
  Named(std::string name, std::vector<std::string> after) :
      name_(std::move(name)), after_(std::move(after)) {}
  const char* name() const override { return name_.c_str(); }
  std::string description() const override { return name_; }
  void end_of_step(RunContext&, const timestep::StepStatistics&, const StepEnd&) override {}
  std::vector<std::string> runs_after() const override { return after_; }

private:
  std::string name_;
  std::vector<std::string> after_;
};

Fixes list(std::initializer_list<std::pair<const char*, std::vector<std::string>>> fixes) {
  Fixes out;
  for (const auto& [name, after] : fixes) out.push_back(std::make_unique<Named>(name, after));
  return out;
}

std::string refusal(const Fixes& fixes) {
  try {
    check_fix_order(fixes);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

TEST(FixOrder, AFixAfterTheOnesItNamesPasses) {
  EXPECT_EQ(refusal(list({{"progress", {}}, {"balance", {}}, {"thermo", {"progress", "balance"}}})),
            "");
  // A named fix that is absent is no constraint.
  EXPECT_EQ(refusal(list({{"progress", {}}, {"thermo", {"progress", "balance"}}})), "");
}

TEST(FixOrder, AFixBeforeOneItMustFollowIsRefusedNamingBoth) {
  EXPECT_EQ(refusal(list({{"thermo", {"progress"}}, {"progress", {}}})),
            "fix thermo runs before progress, which it must follow (runs_after)");
}

TEST(FixOrder, APatternCoversEveryFixOfItsPrefix) {
  EXPECT_EQ(refusal(list({{"pour_0", {}}, {"pour_3", {}}, {"checkpoints", {"pour_*"}}})), "");
  EXPECT_EQ(refusal(list({{"pour_0", {}}, {"checkpoints", {"pour_*"}}, {"pour_3", {}}})),
            "fix checkpoints runs before pour_3, which it must follow (runs_after)");
  // Only that prefix: "pourer" and "pou" are other fixes.
  EXPECT_EQ(refusal(list({{"checkpoints", {"pour_*"}}, {"pourer", {}}, {"pou", {}}})), "");
}

}  // namespace
}  // namespace granite::scenario
