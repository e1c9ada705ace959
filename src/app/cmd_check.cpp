#include "commands.hpp"
#include "error_line.hpp"
#include "options.hpp"

#include "granite/core/error.hpp"
#include "granite/config/config.hpp"
#include "granite/config/scenario_schema.hpp"

#include <iostream>

namespace granite::app {

int check_command(const Args& args) {
  po::options_description options("check options");
  options.add_options()("config", po::value<std::string>(), "scenario file (YAML)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a key: --set contact.model=coulomb, --set materials[0].friction=0.2 "
      "(repeatable)")("schema",
                      "print the reference of every configuration key (Markdown) and exit");
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  if (auto exit = parse_options("check", "CONFIG [--set KEY=VALUE ...] | --schema", args, options,
                                positional, vm))
    return *exit;
  if (vm.count("schema")) {
    std::cout << config::markdown(config::scenario_schema(), "Granite configuration reference");
    return 0;
  }
  if (!vm.count("config")) {
    std::cerr << "granite check: missing CONFIG (see granite check --help)\n";
    return kInputErrorExit;
  }
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  try {
    const auto cfg = config::load_scenario(vm["config"].as<std::string>(), overrides);
    std::cout << "# " << cfg.file << ": valid; resolved configuration with defaults:\n"
              << config::to_text(cfg.resolved);
  } catch (const InputError& e) {
    print_error_line("error: ", e.what());
    return kInputErrorExit;
  }
  return 0;
}

}  // namespace granite::app
