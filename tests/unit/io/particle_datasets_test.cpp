// docs/output.md holds the tables of /particles datasets generated from the particle field
// table, verbatim, and no other rows describing /particles datasets.
#include "granite/io/particle_datasets.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

using granite::io::particle_datasets_markdown;
using granite::io::ParticleFile;

std::string read_output_md() {
  std::ifstream in(std::string(GRANITE_SOURCE_DIR) + "/docs/output.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t dataset_rows(const std::string& text) {
  std::size_t n = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("| `/particles/", 0) == 0) ++n;
  return n;
}

TEST(ParticleDatasets, OutputDocumentHoldsTheGeneratedTables) {
  const std::string doc = read_output_md();
  ASSERT_FALSE(doc.empty()) << "docs/output.md is missing";
  const std::string snapshot = particle_datasets_markdown(ParticleFile::snapshot);
  const std::string checkpoint = particle_datasets_markdown(ParticleFile::checkpoint);
  EXPECT_NE(doc.find(snapshot), std::string::npos)
      << "replace the snapshot table of docs/output.md with:\n"
      << snapshot;
  EXPECT_NE(doc.find(checkpoint), std::string::npos)
      << "replace the checkpoint table of docs/output.md with:\n"
      << checkpoint;
  EXPECT_EQ(dataset_rows(doc), dataset_rows(snapshot) + dataset_rows(checkpoint))
      << "docs/output.md has /particles rows outside the two generated tables";
}

// The row of dataset `name` in `table` ("" if none), with runs of spaces squeezed to one.
std::string row_of(const std::string& table, const std::string& name) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `/particles/" + name + "`", 0) != 0) continue;
    std::string squeezed;
    for (char c : line)
      if (c != ' ' || squeezed.empty() || squeezed.back() != ' ') squeezed += c;
    return squeezed;
  }
  return "";
}

TEST(ParticleDatasets, TablesListFileFieldsWithShapesAndTypes) {
  const std::string snapshot = particle_datasets_markdown(ParticleFile::snapshot);
  EXPECT_EQ(row_of(snapshot, "id"), "| `/particles/id` | N | int64 | – | globally unique body id "
                                    "(stable across ranks and restarts) |");
  EXPECT_EQ(row_of(snapshot, "orientation")
                .rfind("| `/particles/orientation` | N × 4 | float64 | – |", 0),
            0u);
  EXPECT_NE(row_of(snapshot, "owner_rank"), "");
  EXPECT_EQ(row_of(snapshot, "force"), "") << "force is not in snapshots";
  EXPECT_EQ(snapshot.find("inverse"), std::string::npos) << "derived fields are not stored";
  const std::string checkpoint = particle_datasets_markdown(ParticleFile::checkpoint);
  EXPECT_EQ(row_of(checkpoint, "body_inertia")
                .rfind("| `/particles/body_inertia` | N × 9 | float64 | kg m² |", 0),
            0u);
  EXPECT_EQ(checkpoint.find("inverse"), std::string::npos) << "derived fields are not stored";
}

}  // namespace
