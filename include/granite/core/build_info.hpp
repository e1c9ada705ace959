#pragma once
// Version, git commit and toolchain, baked in at configure time.
#include <string>

namespace granite::build_info {

const char* version();
const char* git_commit();
const char* compiler();
const char* build_type();
/// HDF5 library version "major.minor.release" and whether it is a parallel build.
std::string hdf5_version();

}  // namespace granite::build_info
