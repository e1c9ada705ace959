// Bad input files: duplicate YAML keys anywhere in a document, and configuration paths that are
// missing, a directory or empty; each is one InputError line naming the file.
#include "granite/core/error.hpp"
#include "granite/config/config.hpp"
#include "granite/io/input_file.hpp"
#include "granite/config/yaml_duplicate_keys.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace {

using granite::InputError;
using granite::config::find_duplicate_key;

TEST(DuplicateKeys, NoneInAValidDocument) {
  EXPECT_FALSE(find_duplicate_key("a: 1\nb: {c: 2, d: [1, {c: 3}]}\nc: 4\n"));
  // The same key in different maps, and anchors/aliases, are fine.
  EXPECT_FALSE(find_duplicate_key("x: &m {k: 1}\ny: *m\nz: [{k: 1}, {k: 2}]\n"));
  EXPECT_FALSE(find_duplicate_key(""));
}

TEST(DuplicateKeys, TopLevel) {
  const auto d = find_duplicate_key("run: {dt: 1.0e-3}\ndomain: {}\nrun: {dt: 1.0}\n");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->key, "run");
  EXPECT_EQ(d->line, 3);
  EXPECT_EQ(d->column, 1);
  EXPECT_EQ(d->first_line, 1);
}

TEST(DuplicateKeys, NestedAndInsideLists) {
  const auto nested = find_duplicate_key("run:\n  dt: 1\n  end_time: 2\n  dt: 3\n");
  ASSERT_TRUE(nested);
  EXPECT_EQ(nested->key, "dt");
  EXPECT_EQ(nested->line, 4);
  EXPECT_EQ(nested->column, 3);
  EXPECT_EQ(nested->first_line, 2);

  const auto in_list =
      find_duplicate_key("materials:\n  - name: a\n  - name: b\n    density: 1\n    name: c\n");
  ASSERT_TRUE(in_list);
  EXPECT_EQ(in_list->key, "name");
  EXPECT_EQ(in_list->line, 5);
  EXPECT_EQ(in_list->first_line, 3);

  const auto flow = find_duplicate_key("a: [{x: 1, y: 2, x: 3}]\n");
  ASSERT_TRUE(flow);
  EXPECT_EQ(flow->key, "x");
}

TEST(DuplicateKeys, ValuesAreNotKeys) {
  // A value equal to a key, and keys of a map that is itself a value, are not repeats.
  EXPECT_FALSE(find_duplicate_key("a: a\nb: {a: b}\nc: [a, a]\n"));
}

TEST(DuplicateKeys, AliasBombIsScannedWithoutExpanding) {
  std::ostringstream text;
  text << "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 30; ++i)
    text << 'a' << i << ": &a" << i << " [*a" << i - 1 << ", *a" << i - 1 << "]\n";
  EXPECT_FALSE(find_duplicate_key(text.str()));
  text << "a3: 1\n";
  EXPECT_TRUE(find_duplicate_key(text.str()));
}

class InputFiles : public ::testing::Test {
protected:
  void SetUp() override {
    // One directory per test: ctest runs the tests of this fixture in parallel processes.
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("granite_input_files_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  static std::string error_of(const std::string& path) {
    try {
      granite::config::load_scenario(path, {});
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
  std::filesystem::path dir_;
};

TEST_F(InputFiles, DuplicateKeyInAConfigurationNamesBothLines) {
  const auto path = write("dup.yaml", "run: {dt: 1.0e-3, end_time: 1}\n"
                                      "domain: {min: [0, 0, 0], max: [1, 1, 1]}\n"
                                      "materials: [{name: m, density: 1}]\n"
                                      "run: {dt: 1.0}\n");
  EXPECT_EQ(error_of(path), path + ":4:1: duplicate key 'run' (first at line 1)");
}

TEST_F(InputFiles, DuplicateKeyInAnOverride) {
  const auto path = write("ok.yaml", "run: {dt: 1.0e-3, end_time: 1}\n"
                                     "domain: {min: [0, 0, 0], max: [1, 1, 1]}\n"
                                     "materials: [{name: m, density: 1}]\n");
  try {
    granite::config::load_scenario(path, {"run={dt: 1, dt: 2}"});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--set run={dt: 1, dt: 2}: duplicate key 'dt'");
  }
}

TEST_F(InputFiles, MissingDirectoryOrEmpty) {
  EXPECT_EQ(error_of((dir_ / "none.yaml").string()),
            (dir_ / "none.yaml").string() + ": cannot open the configuration file (no such file)");
  EXPECT_EQ(error_of(dir_.string()),
            dir_.string() + ": cannot open the configuration file (it is a directory)");
  const auto empty = write("empty.yaml", "");
  EXPECT_EQ(error_of(empty), empty + ": the configuration file is empty");
  const auto comments = write("comments.yaml", "# nothing here\n");
  EXPECT_EQ(error_of(comments), comments + ": the configuration file is empty");
}

TEST_F(InputFiles, CheckInputFile) {
  EXPECT_THROW(granite::io::check_input_file(dir_.string(), "checkpoint"), InputError);
  EXPECT_THROW(granite::io::check_input_file(write("e.h5", ""), "checkpoint"), InputError);
  EXPECT_NO_THROW(granite::io::check_input_file(write("f.h5", "x"), "checkpoint"));
  EXPECT_EQ(granite::io::read_input_file(write("g.txt", "abc"), "text"), "abc");
}

}  // namespace
