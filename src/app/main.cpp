// granite — command-line entry point: dispatches to the sub-commands in src/app/cmd_*.cpp.
#include "commands.hpp"
#include "error_line.hpp"

#include "granite/core/error.hpp"

#include <hdf5.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>

namespace {

constexpr const char* kUsage =
    "usage: granite COMMAND [OPTIONS]\n"
    "\n"
    "Granite simulates dense granular flows of rigid particles with hard contacts\n"
    "(non-smooth contact dynamics, maximum-dissipation friction), in parallel with MPI.\n"
    "\n"
    "commands:\n"
    "  run CONFIG [--set KEY=VALUE ...] [--output DIR]   run a scenario (under mpiexec for MPI)\n"
    "  check CONFIG [--set KEY=VALUE ...] [--schema]     validate and print the resolved config\n"
    "  contact --model NAME                              solve single-contact problems (JSON "
    "Lines)\n"
    "  fclib solve FILE... [--model NAME]                solve FCLIB frictional contact problems\n"
    "  forces CONFIG CHECKPOINT [--model hooke|hertz]    compatible contact forces of a stored "
    "state\n"
    "  status OUTPUT_DIR [--stall-after SECONDS]         progress, time left, checkpoint, alive?\n"
    "  version                                           version, commit, compiler, MPI, HDF5\n"
    "\n"
    "`granite COMMAND --help` describes each command; docs/config.md lists every config key.\n";

int dispatch(std::string_view command, const granite::app::Args& args) {
  using namespace granite::app;
  if (command == "run") return run_command(args);
  if (command == "check") return check_command(args);
  if (command == "version" || command == "--version") return version_command(args);
  if (command == "contact") return contact_command(args);
  if (command == "fclib") return fclib_command(args);
  if (command == "status") return status_command(args);
  if (command == "forces") return forces_command(args);
  std::fprintf(stderr,
               "granite: unknown command '%s' (expected run, check, forces, contact, fclib, status "
               "or version; see granite --help)\n",
               std::string(command).c_str());
  return granite::kInputErrorExit;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(
        "granite: missing COMMAND (run, check, forces, contact, fclib, status or version; see "
        "granite --help)\n",
        stderr);
    return granite::kInputErrorExit;
  }
  if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const std::string command = argv[1];
  // HDF5 failures reach the user as one error line (io/ turns them into exceptions naming the
  // call); the library's own error-stack printing stays off, also at exit, where HDF5 1.10
  // would otherwise print "infinite loop closing library" after a failed open of a damaged file.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  using granite::app::print_error_line;
  try {
    return dispatch(command, granite::app::Args(argv + 2, argv + argc));
  } catch (const granite::InputError& e) {  // the commands report these themselves
    print_error_line("error: ", e.what());
    return granite::kInputErrorExit;
  } catch (const granite::RunFailure& e) {  // e.g. a write that failed (IoFailure)
    print_error_line("error: ", e.what());
    return granite::kRunFailureExit;
  } catch (const std::exception& e) {  // a bug (or out of memory): one line, never an abort
    print_error_line("granite " + command + ": internal error: ", e.what());
  } catch (...) {
    print_error_line("granite " + command + ": internal error: ", "unknown exception");
  }
  return 1;
}
