#include "collective_command.hpp"
#include "commands.hpp"
#include "error_line.hpp"
#include "options.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/comm/environment.hpp"
#include "granite/core/error.hpp"
#include "granite/core/log.hpp"
#include "granite/config/config.hpp"
#include "granite/scenario/run.hpp"

#include <csignal>
#include <iostream>
#include <utility>

namespace granite::app {

namespace {

void on_stop_signal(int) { scenario::request_stop(); }

// Runs inside the MPI environment; InputErrors after loading are collective (every rank throws
// the same one), so every rank returns exit code 2 and rank 0 prints the line.
int run_initialised(const std::string& file, const std::vector<std::string>& overrides,
                    std::string output, const scenario::RunStart& start) {
  const comm::Communicator world;
  const int rank = world.rank();
  log::set_rank(rank, world.size());
  try {
    std::vector<std::pair<std::string, std::string>> inputs;
    if (!start.restart.empty()) inputs.emplace_back(start.restart, "checkpoint");
    if (!start.from.empty()) inputs.emplace_back(start.from, "checkpoint");
    auto cfg = load_on_every_rank(file, overrides, inputs, world);
    if (output.empty()) output = cfg.settings.output.directory;
    // SLURM sends SIGUSR1 (--signal) or SIGTERM before the time limit: checkpoint and stop.
    std::signal(SIGTERM, on_stop_signal);
    std::signal(SIGUSR1, on_stop_signal);
    scenario::run_scenario(std::move(cfg), output, world, start);
  } catch (const InputError& e) {
    if (rank == 0) print_error_line("error: ", e.what());
    return kInputErrorExit;
  } catch (const RunFailure& e) {  // every rank stopped at the same step; run.json says why
    if (rank == 0) print_error_line("error: ", e.what());
    return kRunFailureExit;
  } catch (const OutOfMemory& e) {  // this rank alone: the others wait in a collective
    print_error_line("error: ", e.what());
    if (world.size() > 1) comm::abort(world, kRunFailureExit);
    return kRunFailureExit;
  } catch (const std::exception& e) {
    return internal_error("run", world, e.what());
  } catch (...) {
    return internal_error("run", world, "unknown exception");
  }
  return 0;
}

}  // namespace

int run_command(const Args& args) {
  po::options_description options("run options");
  options.add_options()("config", po::value<std::string>(),
                        "scenario file (YAML, see docs/config.md)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a key: --set contact.model=coulomb, --set materials[0].friction=0.2 "
      "(repeatable)")("output", po::value<std::string>()->default_value(""),
                      "output directory (default: output.directory of the config)")(
      "restart", po::value<std::string>(),
      "continue from a checkpoint (OUTPUT/checkpoint.h5) of a run of the same configuration "
      "(only run.end_time, run.thermo_every and output.* may change)")(
      "from", po::value<std::string>(),
      "start a new run of CONFIG with the particles (full state) of another run's checkpoint: "
      "restart into a changed scene (the clock starts at 0; see docs/restart.md)")(
      "overwrite", "start afresh even if OUTPUT holds the checkpoint of an unfinished run")(
      "quiet", "no status line on the terminal (it is shown only when stderr is a terminal)");
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  if (auto exit = parse_options(
          "run",
          "CONFIG [--set KEY=VALUE ...] [--output DIR] [--restart FILE | --from FILE] "
          "[--overwrite] [--quiet]",
          args, options, positional, vm))
    return *exit;
  if (!vm.count("config")) {
    std::cerr << "granite run: missing CONFIG (see granite run --help)\n";
    return kInputErrorExit;
  }
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  scenario::RunStart start;
  start.overwrite = vm.count("overwrite") > 0;
  for (const char* option : {"restart", "from"}) {
    if (!vm.count(option)) continue;
    const std::string path = vm[option].as<std::string>();
    if (path.empty()) {  // e.g. --restart "$CKPT" with CKPT unset: not a fresh run
      std::cerr << "error: --" << option
                << ": empty checkpoint path (give OUTPUT/checkpoint.h5, or leave --" << option
                << " out to start afresh)\n";
      return kInputErrorExit;
    }
    (std::string(option) == "restart" ? start.restart : start.from) = path;
  }
  if (!start.restart.empty() && !start.from.empty()) {
    std::cerr << "error: --restart and --from exclude each other (--restart continues the same "
                 "run; --from starts a new run with another run's particles)\n";
    return kInputErrorExit;
  }

  scenario::set_status_line(vm.count("quiet") == 0);
  const comm::Environment mpi;
  return run_initialised(vm["config"].as<std::string>(), overrides, vm["output"].as<std::string>(),
                         start);
}

}  // namespace granite::app
