#pragma once
// The one error line a command prints: messages can quote user input (a --set value, a key
// from a file) that holds line breaks or control characters, which are escaped here so that
// what reaches the terminal is exactly one line.
#include <string>
#include <string_view>

namespace granite::app {

/// `text` with line breaks and other control characters written as \n, \r, \xNN.
std::string one_line(std::string_view text);

/// Prints "PREFIX TEXT" as one line on stderr (PREFIX e.g. "error: ").
void print_error_line(std::string_view prefix, std::string_view text);

}  // namespace granite::app
