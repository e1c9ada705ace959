#pragma once
// Errors a user can cause (bad config, command line, input file). They are reported as one
// line naming what is wrong and end the program with exit code 2 (kInputErrorExit).
#include <stdexcept>
#include <string>

namespace granite {

inline constexpr int kInputErrorExit = 2;

class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

}  // namespace granite
