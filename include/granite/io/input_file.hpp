#pragma once
// Checks on a file the user names (on the command line or in a configuration) before it is
// read: one line naming the file and what is wrong with it, instead of a stream exception or an
// HDF5 error stack. `kind` says what the file should be ("configuration file", "checkpoint").
#include <string>

namespace granite::io {

/// Throws InputError "PATH: cannot open the KIND (no such file | it is a directory |
/// permission denied | ...)" or "PATH: the KIND is empty" unless PATH can be opened for reading
/// and is not an empty regular file.
void check_input_file(const std::string& path, const std::string& kind);

/// The whole content of PATH, after the checks of check_input_file (a pipe that gives no bytes
/// is empty too); InputError "PATH: cannot read the KIND (...)" on a read error.
std::string read_input_file(const std::string& path, const std::string& kind);

}  // namespace granite::io
