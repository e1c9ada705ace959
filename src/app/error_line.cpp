#include "error_line.hpp"

#include <cstdio>
#include <iostream>

namespace granite::app {

std::string one_line(std::string_view text) {
  std::string line;
  line.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\r') {
      line += "\\r";
    } else if ((byte < 0x20 && c != '\t') || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      line += escaped;
    } else {
      line += c;
    }
  }
  return line;
}

void print_error_line(std::string_view prefix, std::string_view text) {
  std::cerr << prefix << one_line(text) << std::endl;
}

}  // namespace granite::app
