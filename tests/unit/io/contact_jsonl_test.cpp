// The JSON Lines front-end: good input, and every kind of bad input stopping with exit code 2.
#include "granite/io/contact_jsonl.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <vector>
#include <string>

namespace granite::io {
namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome run(const std::string& model, const std::string& input, int golden = 20) {
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  const int code = solve_contact_stream(model, golden, in, out, err);
  return {code, out.str(), err.str()};
}

const std::string kSliding =
    R"({"A": [[1, 0.2, 0.1], [0.2, 2, 0.3], [0.1, 0.3, 1.5]], "b": [1, 3, -2], "mu": 0.3})";
const std::string kSticking =
    R"({"A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "b": [1, 0.1, 0], "mu": 0.5})";
const std::string kSeparating =
    R"({"A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "b": [-1, 0.1, 0], "mu": 0.5})";

TEST(ContactJsonl, SolvesEveryLineAndSkipsBlankLines) {
  const Outcome r = run("mdp", kSliding + "\n\n   \n" + kSticking + "\n" + kSeparating + "\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  std::istringstream lines(r.out);
  std::string line;
  std::vector<nlohmann::json> answers;
  while (std::getline(lines, line)) {
    answers.push_back(nlohmann::json::parse(line));
  }
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0]["case"], "sliding");
  EXPECT_EQ(answers[1]["case"], "sticking");
  EXPECT_EQ(answers[2]["case"], "separating");
  // sticking: x = A⁻¹b = b, objective −½|b|²
  EXPECT_DOUBLE_EQ(answers[1]["x"][0].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(answers[1]["x"][1].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(answers[1]["objective"].get<double>(), -0.505);
  EXPECT_EQ(answers[2]["x"], nlohmann::json::array({0.0, 0.0, 0.0}));
  // full precision: 17 significant digits
  EXPECT_NE(r.out.find("0.10000000000000001"), std::string::npos) << r.out;
}

TEST(ContactJsonl, AllCoulombSolutionsAsAList) {
  const Outcome r = run("coulomb_all_solutions", kSticking + "\n");
  EXPECT_EQ(r.code, 0);
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("solutions"));
  ASSERT_EQ(j["solutions"].size(), 1u);
  EXPECT_EQ(j["solutions"][0]["case"], "sticking");
}

TEST(ContactJsonl, EveryModelRuns) {
  for (const char* model : {"frictionless", "mdp", "mdp_golden", "coulomb", "coulomb_approx"}) {
    const Outcome r = run(model, kSliding + "\n");
    EXPECT_EQ(r.code, 0) << model << ": " << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).size(), 3u) << model;
  }
}

TEST(ContactJsonl, UnknownModelListsTheValidNames) {
  const Outcome r = run("stribeck", kSliding + "\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("stribeck"), std::string::npos);
  EXPECT_NE(r.err.find("mdp_golden"), std::string::npos);
  EXPECT_NE(r.err.find("coulomb_all_solutions"), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST(ContactJsonl, GoldenIterationsMustBePositive) {
  EXPECT_EQ(run("mdp_golden", kSliding + "\n", 0).code, 2);
}

// Each bad line: exit code 2, one error line naming the line number and the problem, the
// lines before it answered, nothing printed for the bad line or after it.
void expect_error_on_line_3(const std::string& bad, const std::string& expected) {
  const Outcome r = run("mdp", kSliding + "\n\n" + bad + "\n" + kSticking + "\n");
  EXPECT_EQ(r.code, 2) << bad;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(r.err.rfind("error: line 3: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(ContactJsonl, MalformedJson) {
  expect_error_on_line_3(R"({"A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "b": [1, 0, 0], "mu": )",
                         "malformed JSON");
}

TEST(ContactJsonl, WrongShape) {
  expect_error_on_line_3(R"({"A": [[1, 0], [0, 1]], "b": [1, 0, 0], "mu": 0.5})",
                         "A must be a 3x3");
  expect_error_on_line_3(R"({"A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "b": [1, 0], "mu": 0.5})",
                         "b must be an array of three numbers");
  expect_error_on_line_3(R"({"A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "b": [1, 0, 0]})",
                         "missing key \"mu\"");
  expect_error_on_line_3(R"([1, 2, 3])", "expected a JSON object");
  expect_error_on_line_3(
      R"({"A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "b": [1, 0, 0], "mu": 1, "m": 2})",
      "unknown key \"m\"");
}

TEST(ContactJsonl, NotSymmetricPositiveDefinite) {
  expect_error_on_line_3(R"({"A": [[1, 2, 0], [2, 1, 0], [0, 0, 1]], "b": [1, 0, 0], "mu": 0.5})",
                         "A is not symmetric positive definite");
  expect_error_on_line_3(R"({"A": [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]], "b": [1, 0, 0], "mu": 0.5})",
                         "A is not symmetric positive definite");
}

TEST(ContactJsonl, NonFiniteNumbers) {
  expect_error_on_line_3(
      R"({"A": [[1, 0, 0], [0, 1e999, 0], [0, 0, 1]], "b": [1, 0, 0], "mu": 0.5})",
      "non-finite number");
  expect_error_on_line_3(
      R"({"A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "b": ["nan", 0, 0], "mu": 0.5})",
      "b[0] is not a finite number");
}

TEST(ContactJsonl, NegativeFriction) {
  expect_error_on_line_3(R"({"A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "b": [1, 0, 0], "mu": -0.1})",
                         "mu must be >= 0");
}

}  // namespace
}  // namespace granite::io
