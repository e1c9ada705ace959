#include "commands.hpp"
#include "options.hpp"

#include "granite/comm/environment.hpp"
#include "granite/core/build_info.hpp"

#include <iostream>

namespace granite::app {

int version_command(const Args& args) {
  po::options_description options("version options");
  po::positional_options_description positional;
  po::variables_map vm;
  if (auto exit = parse_options("version", "", args, options, positional, vm)) return *exit;
  namespace bi = build_info;
  std::cout << "granite " << bi::version() << "\n"
            << "commit    " << bi::git_commit() << "\n"
            << "build     " << bi::build_type() << "\n"
            << "compiler  " << bi::compiler() << "\n"
            << "mpi       " << comm::library_version() << "\n"
            << "hdf5      " << bi::hdf5_version() << "\n";
  return 0;
}

}  // namespace granite::app
