// `granite forces CONFIG CHECKPOINT`: the compatible contact forces of a stored state
// (scenario/forces.hpp, docs/compatible_forces.md "On a stored state").
#include "collective_command.hpp"
#include "commands.hpp"
#include "error_line.hpp"
#include "options.hpp"

#include "granite/comm/environment.hpp"
#include "granite/core/error.hpp"
#include "granite/core/log.hpp"
#include "granite/scenario/forces.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace granite::app {

namespace {

// The summary: what was solved, how well, how long; a pass that did not converge says so.
void print_summary(const scenario::ForcesSummary& s, const std::string& checkpoint,
                   const std::string& output) {
  const solver::CompatibleResult& c = s.compatible;
  std::printf("granite forces %s: step %lld, t = %.9g s, %llu particles, %llu contacts\n",
              checkpoint.c_str(), static_cast<long long>(s.step), s.time,
              static_cast<unsigned long long>(s.particles),
              static_cast<unsigned long long>(s.contacts));
  std::printf("  relaxation: %d sweeps, residual %.3e, fc3d error %.3e, %s (%.3g s)\n", s.sweeps,
              s.relaxation_residual, s.fc3d_error,
              s.relaxation_converged ? "converged" : "NOT converged", s.relaxation_seconds);
  std::printf("  compatible pass (%s): %s after %d outer / %d inner iterations, relative "
              "violation %.3e, stationarity %.3e (tolerance %g) (%.3g s)\n",
              s.law.c_str(), solver::to_string(c.status).c_str(), c.outer_iterations,
              c.inner_iterations, c.relative_violation, c.stationarity, s.tolerance,
              s.compatible_seconds);
  std::printf("  passes converged: %d of 1; wrote %s in %.3g s\n", c.converged() ? 1 : 0,
              output.c_str(), s.total_seconds);
  if (!s.relaxation_converged)
    std::printf("warning: the relaxation stopped above solver.tolerance: F̃, which the compatible "
                "forces reproduce, is that of the unconverged step (raise solver.max_sweeps)\n");
  std::fflush(stdout);
}

int forces_initialised(const std::string& config_file, const std::vector<std::string>& overrides,
                       const scenario::ForcesRequest& request) {
  const comm::Communicator world;
  const int rank = world.rank();
  log::set_rank(rank, world.size());
  try {
    const auto cfg =
        load_on_every_rank(config_file, overrides, {{request.checkpoint, "checkpoint"}}, world);
    const scenario::ForcesSummary s = scenario::compute_forces(cfg, request, world);
    if (rank == 0) print_summary(s, request.checkpoint, s.output);
    if (!s.compatible.converged()) {  // never a success the pass did not reach
      if (rank == 0) {
        char figures[160];
        std::snprintf(figures, sizeof figures,
                      "relative violation %.3e, stationarity %.3e, tolerance %g, after %d outer "
                      "iterations",
                      s.compatible.relative_violation, s.compatible.stationarity, s.tolerance,
                      s.compatible.outer_iterations);
        print_error_line("error: ", "the compatible pass stopped unconverged (" +
                                        solver::to_string(s.compatible.status) + ": " + figures +
                                        "); " + s.output +
                                        " holds its forces marked compatible_converged = 0 "
                                        "(raise contact.compatible_max_iterations or "
                                        "contact.compatible_tolerance)");
      }
      return kRunFailureExit;
    }
  } catch (const InputError& e) {
    if (rank == 0) print_error_line("error: ", e.what());
    return kInputErrorExit;
  } catch (const RunFailure& e) {
    if (rank == 0) print_error_line("error: ", e.what());
    return kRunFailureExit;
  } catch (const std::exception& e) {
    return internal_error("forces", world, e.what());
  } catch (...) {
    return internal_error("forces", world, "unknown exception");
  }
  return 0;
}

}  // namespace

int forces_command(const Args& args) {
  po::options_description options("forces options");
  options.add_options()("config", po::value<std::string>(),
                        "the scenario file of the run that wrote the checkpoint")(
      "checkpoint", po::value<std::string>(),
      "the stored state: a checkpoint (OUTPUT/checkpoint.h5)")(
      "model", po::value<std::string>(),
      "hooke | hertz: the contact law of the compatible pass (default: contact.compatible of "
      "CONFIG, which must then be on)")(
      "output", po::value<std::string>(),
      "the HDF5 file to write (default: forces_<step>.h5 next to the checkpoint)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a key: --set contact.compatible_tolerance=1e-10, --set solver.max_sweeps=20000 "
      "(repeatable; only keys that do not change the scene, see docs/compatible_forces.md)");
  po::positional_options_description positional;
  positional.add("config", 1).add("checkpoint", 1);
  po::variables_map vm;
  if (auto exit = parse_options(
          "forces",
          "CONFIG CHECKPOINT [--model hooke|hertz] [--output FILE] [--set KEY=VALUE ...]\n\n"
          "The compatible (Olsen-Kamrin) contact forces of a stored state: one step of the\n"
          "frictionless contact problem from the checkpoint's state (run under mpiexec like\n"
          "granite run), then the compatible pass; writes the stored particles and the step's\n"
          "contacts (/contacts with compatible_force) as a snapshot. Exit 1 if the pass did\n"
          "not converge. See docs/compatible_forces.md.",
          args, options, positional, vm))
    return *exit;
  if (!vm.count("config") || !vm.count("checkpoint")) {
    std::cerr << "granite forces: missing " << (vm.count("config") ? "CHECKPOINT" : "CONFIG")
              << " (see granite forces --help)\n";
    return kInputErrorExit;
  }
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("model")) {
    const std::string model = vm["model"].as<std::string>();
    if (model != "hooke" && model != "hertz") {
      print_error_line("granite forces: --model must be hooke or hertz, got '", model + "'");
      return kInputErrorExit;
    }
    overrides.push_back("contact.compatible=" + model);  // after --set: --model decides
  }
  scenario::ForcesRequest request;
  request.checkpoint = vm["checkpoint"].as<std::string>();
  if (request.checkpoint.empty()) {
    std::cerr << "error: empty CHECKPOINT path\n";
    return kInputErrorExit;
  }
  if (vm.count("output")) {
    request.output = vm["output"].as<std::string>();
    if (request.output.empty()) {
      std::cerr << "error: --output: empty path\n";
      return kInputErrorExit;
    }
  }
  const comm::Environment mpi;
  return forces_initialised(vm["config"].as<std::string>(), overrides, request);
}

}  // namespace granite::app
