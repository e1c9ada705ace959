#include "collective_command.hpp"

#include "error_line.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/comm/environment.hpp"
#include "granite/core/error.hpp"
#include "granite/io/input_file.hpp"

#include <optional>

namespace granite::app {

config::ScenarioConfig
load_on_every_rank(const std::string& file, const std::vector<std::string>& overrides,
                   const std::vector<std::pair<std::string, std::string>>& inputs,
                   const comm::Communicator& world) {
  std::optional<config::ScenarioConfig> cfg;
  std::string failure;
  try {
    cfg = config::load_scenario(file, overrides);
    for (const auto& [path, kind] : inputs) io::check_input_file(path, kind);
  } catch (const InputError& e) {
    failure = e.what();
  }
  comm::throw_if_any_failed(failure, world);
  return std::move(*cfg);
}

int internal_error(const char* command, const comm::Communicator& world, const std::string& what) {
  const std::string rank =
      world.size() > 1 ? " (rank " + std::to_string(world.rank()) + ")" : std::string();
  print_error_line(std::string("granite ") + command + ": internal error: ", what + rank);
  if (world.size() > 1) comm::abort(world, 1);
  return 1;
}

}  // namespace granite::app
