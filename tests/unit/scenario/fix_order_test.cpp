// The fixes' declarations: their order (Fix::runs_after, check_fix_order): a list that puts a
// fix before one it must follow is refused, naming both; the order make_fixes() builds passes.
// Their run-record sections (Fix::record_sections, add_record_sections): put at their paths,
// appended where they say so, and two fixes providing one section are refused.
#include "granite/scenario/fixes/fixes.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace granite::scenario {
namespace {

class Ordered final : public Fix {
public:
  Ordered(std::string name, std::vector<std::string> after) :
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
  for (const auto& [name, after] : fixes) out.push_back(std::make_unique<Ordered>(name, after));
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

namespace granite::scenario {
namespace {

class Recording final : public Fix {
public:
  Recording(std::string name, std::vector<RecordSection> sections) :
      name_(std::move(name)), sections_(std::move(sections)) {}
  const char* name() const override { return name_.c_str(); }
  std::string description() const override { return name_; }
  void end_of_step(RunContext&, const timestep::StepStatistics&, const StepEnd&) override {}
  std::vector<RecordSection> record_sections() const override { return sections_; }

private:
  std::string name_;
  std::vector<RecordSection> sections_;
};

TEST(RecordSections, ArePutAtTheirPathsAndAppendedWhereSaid) {
  Fixes fixes;
  fixes.push_back(std::make_unique<Recording>(
      "statistics", std::vector<RecordSection>{{"statistics", {{"samples", 3}}}}));
  fixes.push_back(std::make_unique<Recording>(
      "compatible", std::vector<RecordSection>{{"relaxation.compatible", {{"passes", 2}}}}));
  fixes.push_back(std::make_unique<Recording>(
      "pour_1", std::vector<RecordSection>{{"particle_sources", {{"source", 1}}, true}}));
  nlohmann::ordered_json record = {{"relaxation", {{"sweeps", 10}}},
                                   {"particle_sources", {{{"source", 0}}}}};
  add_record_sections(fixes, record);
  EXPECT_EQ(record["statistics"]["samples"], 3);
  EXPECT_EQ(record["relaxation"]["sweeps"], 10);  // the run's own part is kept
  EXPECT_EQ(record["relaxation"]["compatible"]["passes"], 2);
  ASSERT_EQ(record["particle_sources"].size(), 2u);
  EXPECT_EQ(record["particle_sources"][1]["source"], 1);
}

TEST(RecordSections, TwoFixesProvidingOneSectionAreRefused) {
  Fixes fixes;
  for (const char* name : {"balance", "other"})
    fixes.push_back(std::make_unique<Recording>(
        name, std::vector<RecordSection>{{"balance", {{"mode", name}}}}));
  nlohmann::ordered_json record = nlohmann::ordered_json::object();
  try {
    add_record_sections(fixes, record);
    FAIL() << "no refusal";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "fixes balance and other both provide the run-record section balance");
  }
}

}  // namespace
}  // namespace granite::scenario
