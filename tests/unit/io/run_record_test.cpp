// The run record's configuration section: YAML scalars become the JSON type that reads them
// back exactly, maps keep their key order.
#include "granite/io/run_record.hpp"

#include <gtest/gtest.h>

using granite::io::config_to_json;

TEST(RunRecord, ConfigScalarsBecomeTypedJson) {
  const YAML::Node node = YAML::Load("run: {dt: 4.0e-5, seed: 7, name: channel}\n"
                                     "flags: [true, false]\n"
                                     "faces: [x+, '12abc']\n"
                                     "empty: ''\n");
  const nlohmann::ordered_json j = config_to_json(node);
  EXPECT_EQ(j.dump(), R"({"run":{"dt":4e-05,"seed":7,"name":"channel"},"flags":[true,false],)"
                      R"("faces":["x+","12abc"],"empty":""})");
  EXPECT_TRUE(j["run"]["seed"].is_number_integer());
  EXPECT_EQ(j["run"]["dt"].get<double>(), 4.0e-5);
}
