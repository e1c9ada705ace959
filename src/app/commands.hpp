#pragma once
// The `granite` sub-commands. Each takes the arguments after its name and returns the exit
// code: 0 success, 1 run-time failure, 2 bad input (one error line already printed).
#include <string>
#include <vector>

namespace granite::app {

using Args = std::vector<std::string>;

int run_command(const Args& args);
int check_command(const Args& args);
int version_command(const Args& args);
int contact_command(const Args& args);
int fclib_command(const Args& args);
int status_command(const Args& args);
int forces_command(const Args& args);

}  // namespace granite::app
