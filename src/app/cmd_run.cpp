#include "commands.hpp"
#include "options.hpp"

#include "granite/comm/environment.hpp"
#include "granite/core/error.hpp"
#include "granite/core/log.hpp"
#include "granite/io/config.hpp"
#include "granite/scenario/run.hpp"

#include <csignal>
#include <iostream>

namespace granite::app {

namespace {

// Runs inside the MPI environment; every rank reads and validates the config itself, so a
// bad file ends every rank with exit code 2 and rank 0 prints the one error line.
void on_stop_signal(int) { scenario::request_stop(); }

int run_initialised(const std::string& file, const std::vector<std::string>& overrides,
                    std::string output, const std::string& restart) {
  const comm::Communicator world;
  const int rank = world.rank();
  log::set_rank(rank, world.size());
  try {
    const auto cfg = config::load_scenario(file, overrides);
    if (output.empty()) output = cfg.settings.output.directory;
    // SLURM sends SIGUSR1 (--signal) or SIGTERM before the time limit: checkpoint and stop.
    std::signal(SIGTERM, on_stop_signal);
    std::signal(SIGUSR1, on_stop_signal);
    scenario::run_scenario(cfg, output, world, restart);
  } catch (const InputError& e) {
    if (rank == 0) std::cerr << "error: " << e.what() << '\n';
    return kInputErrorExit;
  } catch (const RunFailure& e) {  // every rank stopped at the same step; run.json says why
    if (rank == 0) std::cerr << "error: " << e.what() << '\n';
    return kRunFailureExit;
  } catch (const std::exception& e) {
    log::error(e.what());
    comm::abort(world, 1);
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
      "restart", po::value<std::string>()->default_value(""),
      "continue from a checkpoint (OUTPUT/checkpoint.h5) of a run of the same configuration");
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  if (auto exit =
          parse_options("run", "CONFIG [--set KEY=VALUE ...] [--output DIR] [--restart FILE]", args,
                        options, positional, vm))
    return *exit;
  if (!vm.count("config")) {
    std::cerr << "granite run: missing CONFIG (see granite run --help)\n";
    return kInputErrorExit;
  }
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();

  const comm::Environment mpi;
  return run_initialised(vm["config"].as<std::string>(), overrides, vm["output"].as<std::string>(),
                         vm["restart"].as<std::string>());
}

}  // namespace granite::app
