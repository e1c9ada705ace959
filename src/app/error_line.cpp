#include "error_line.hpp"

#include "granite/core/error.hpp"

#include <iostream>

namespace granite::app {

std::string one_line(std::string_view text) { return printable(text); }

void print_error_line(std::string_view prefix, std::string_view text) {
  std::cerr << prefix << one_line(text) << std::endl;
}

}  // namespace granite::app
