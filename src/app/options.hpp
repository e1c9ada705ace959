#pragma once
// Shared Boost.Program_options handling: parse a sub-command's arguments, print --help, and
// turn option errors into one line with exit code 2.
#include "commands.hpp"

#include <boost/program_options.hpp>

#include <optional>

namespace granite::app {

namespace po = boost::program_options;

/// Parses `args`; returns the exit code to return immediately (help printed: 0; bad
/// options: 2 after one error line) or nullopt to go on.
std::optional<int> parse_options(const char* command, const char* synopsis, const Args& args,
                                 const po::options_description& options,
                                 const po::positional_options_description& positional,
                                 po::variables_map& vm);

}  // namespace granite::app
