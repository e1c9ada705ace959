#pragma once
// Errors a user can cause (bad config, command line, input file). They are reported as one
// line naming what is wrong and end the program with exit code 2 (kInputErrorExit).
// A run that cannot go on (its state turned non-finite) is a RunFailure: one line, exit 1.
#include <stdexcept>
#include <string>
#include <string_view>

namespace granite {

inline constexpr int kInputErrorExit = 2;
inline constexpr int kRunFailureExit = 1;

/// `text` with line breaks and other control characters written as \n, \r, \xNN: a message
/// quoting user input (a material name "x\u001b[2J\nerror: all good") stays one harmless line.
std::string printable(std::string_view text);

/// A value from the input as error messages show it: at most `limit` bytes, then "..." and
/// the total length (an input value can be megabytes long).
inline std::string shown(std::string_view value, std::size_t limit = 80) {
  if (value.size() <= limit) return std::string(value);
  return std::string(value.substr(0, limit)) + "... (" + std::to_string(value.size()) + " bytes)";
}

class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Thrown on every rank alike (see comm::throw_if_any_failed), after the run has recorded it.
class RunFailure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// An allocation that failed during a run: "out of memory at step N on rank R (estimate X)".
/// Thrown on the rank that ran out; exit code 1, the other ranks aborted.
class OutOfMemory : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A write that failed (full disk, quota, I/O error): "cannot write '<file>': <system error>".
/// Thrown on every rank alike (io::collectively); exit code 1 like a RunFailure.
class IoFailure : public RunFailure {
public:
  using RunFailure::RunFailure;
};

}  // namespace granite
