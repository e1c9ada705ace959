// JSON Lines front-end to the single-contact solvers.
#include "granite/io/contact_jsonl.hpp"

#include "granite/contact/single_contact.hpp"
#include "granite/core/error.hpp"
#include "granite/core/types.hpp"

#include <nlohmann/json.hpp>

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

namespace granite::io {
namespace {

using nlohmann::json;

constexpr std::string_view kAllSolutions = "coulomb_all_solutions";
// Symmetry is checked to this tolerance relative to the largest entry; the solver then works on
// the symmetric part (A + Aᵀ)/2.
constexpr double kSymmetryTolerance = 1e-12;

struct Problem {
  Mat3 A;
  Vec3 b;
  double mu = 0.0;
};

// nlohmann's messages start with "[json.exception.parse_error.101] "; keep only the text.
std::string strip_exception_prefix(const std::string& what) {
  const auto pos = what.find("] ");
  return pos == std::string::npos ? what : what.substr(pos + 2);
}

// A problem is at most 3 levels deep ({"A": [[..]]}); deeper input is refused before parsing,
// so that no recursion (parsing, printing, destroying the value) follows the input's depth.
constexpr int kMaxDepth = 16;

// The deepest nesting of [ and { in `line` outside strings.
int nesting_depth(const std::string& line) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : line) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// A value of the input as messages show it (bounded: a value can be megabytes long).
std::string shown_json(const json& value) { return shown(value.dump()); }

// One number of the input; on failure returns the reason naming `where`.
std::optional<std::string> read_number(const json& value, const std::string& where, double& out) {
  if (value.is_string()) {
    return where + " is not a finite number (got the string " + shown_json(value) + ")";
  }
  if (!value.is_number()) {
    return where + " is not a number (got " + shown_json(value) + ")";
  }
  out = value.get<double>();
  if (!std::isfinite(out)) {
    return where + " is not a finite number";
  }
  return std::nullopt;
}

std::optional<std::string> parse_problem(const std::string& line, Problem& problem) {
  if (nesting_depth(line) > kMaxDepth)
    return "nested deeper than " + std::to_string(kMaxDepth) + " levels of [ and {";
  json doc;
  try {
    doc = json::parse(line);
  } catch (const json::out_of_range& e) {
    // e.g. 1e999: the number does not fit a double
    return "non-finite number: " + strip_exception_prefix(e.what());
  } catch (const json::exception& e) {
    return "malformed JSON: " + strip_exception_prefix(e.what());
  }
  if (!doc.is_object()) {
    return std::string("expected a JSON object {\"A\": [[..],[..],[..]], \"b\": [..], \"mu\": ..}");
  }
  for (const auto& item : doc.items()) {
    if (item.key() != "A" && item.key() != "b" && item.key() != "mu") {
      return "unknown key " + shown_json(json(item.key())) + " (expected A, b, mu)";
    }
  }
  for (const char* key : {"A", "b", "mu"}) {
    if (!doc.contains(key)) {
      return std::string("missing key \"") + key + "\"";
    }
  }

  const json& A = doc["A"];
  if (!A.is_array() || A.size() != 3) {
    return std::string("A must be a 3x3 array of numbers (an array of three rows)");
  }
  for (std::size_t i = 0; i < 3; ++i) {
    if (!A[i].is_array() || A[i].size() != 3) {
      return "A must be a 3x3 array of numbers (row " + std::to_string(i) +
             " is not an array of three numbers)";
    }
    for (std::size_t j = 0; j < 3; ++j) {
      const std::string where = "A[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      if (auto error = read_number(A[i][j], where, problem.A(i, j))) {
        return error;
      }
    }
  }
  const json& b = doc["b"];
  if (!b.is_array() || b.size() != 3) {
    return std::string("b must be an array of three numbers");
  }
  for (std::size_t i = 0; i < 3; ++i) {
    if (auto error = read_number(b[i], "b[" + std::to_string(i) + "]", problem.b[i])) {
      return error;
    }
  }
  if (auto error = read_number(doc["mu"], "mu", problem.mu)) {
    return error;
  }
  if (problem.mu < 0.0) {
    return "mu must be >= 0 (got " + shown_json(doc["mu"]) + ")";
  }

  const double largest = problem.A.cwiseAbs().maxCoeff();
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) {
      if (std::abs(problem.A(i, j) - problem.A(j, i)) > kSymmetryTolerance * largest) {
        return "A is not symmetric positive definite (A[" + std::to_string(i) + "][" +
               std::to_string(j) + "] != A[" + std::to_string(j) + "][" + std::to_string(i) + "])";
      }
    }
  }
  const Mat3 symmetric = 0.5 * (problem.A + problem.A.transpose());
  const Eigen::LLT<Mat3> llt(symmetric);
  if (llt.info() != Eigen::Success || !(largest > 0.0)) {
    return std::string("A is not symmetric positive definite (Cholesky factorisation failed)");
  }
  problem.A = symmetric;
  return std::nullopt;
}

void append_double(std::string& s, double v) {
  if (!std::isfinite(v)) {
    s += "null";
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  s += buffer;
}

void append_impulse(std::string& s, const Problem& p, const contact::Impulse& impulse) {
  s += "{\"x\": [";
  for (int i = 0; i < 3; ++i) {
    if (i > 0) {
      s += ", ";
    }
    append_double(s, impulse.x[i]);
  }
  s += "], \"objective\": ";
  append_double(s, contact::objective(p.A, p.b, impulse.x));
  s += ", \"case\": \"";
  s += contact::case_name(impulse.kind);
  s += "\"}";
}

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\r\n") == std::string::npos;
}

}  // namespace

int solve_contact_stream(std::string_view model, int golden_iterations, std::istream& in,
                         std::ostream& out, std::ostream& err, int friction_directions) {
  const bool all_solutions = model == kAllSolutions;
  contact::ModelSettings settings;
  if (!all_solutions && !contact::parse_model(model, settings.model)) {
    err << "error: unknown contact model \"" << printable(shown(model))
        << "\" (valid models: " << contact::model_names(", ") << ", " << kAllSolutions << ")\n";
    return kInputErrorExit;
  }
  if (golden_iterations < 1) {
    err << "error: the number of golden-section iterations must be at least 1 (got "
        << golden_iterations << ")\n";
    return kInputErrorExit;
  }
  settings.golden_iterations = golden_iterations;
  if (!contact::valid_friction_directions(friction_directions)) {
    err << "error: the number of friction directions must be even, from 4 to "
        << contact::kMaxFrictionDirections << " (got " << friction_directions << ")\n";
    return kInputErrorExit;
  }
  settings.friction_directions = friction_directions;

  std::string line;
  std::string answer;
  long line_number = 0;
  Problem problem;
  while (std::getline(in, line)) {
    ++line_number;
    if (is_blank(line)) {
      continue;
    }
    if (auto error = parse_problem(line, problem)) {
      err << "error: line " << line_number << ": " << printable(shown(*error, 300)) << '\n';
      return kInputErrorExit;
    }
    answer.clear();
    if (all_solutions) {
      answer += "{\"solutions\": [";
      const auto solutions = contact::coulomb_all_solutions(problem.A, problem.b, problem.mu);
      for (std::size_t i = 0; i < solutions.size(); ++i) {
        if (i > 0) {
          answer += ", ";
        }
        append_impulse(answer, problem, solutions[i]);
      }
      answer += "]}";
    } else {
      append_impulse(answer, problem, contact::solve(settings, problem.A, problem.b, problem.mu));
    }
    answer += '\n';
    out << answer;
  }
  return 0;
}

}  // namespace granite::io
