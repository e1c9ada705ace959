#include "options.hpp"

#include "granite/core/error.hpp"

#include <iostream>

namespace granite::app {

std::optional<int> parse_options(const char* command, const char* synopsis, const Args& args,
                                 const po::options_description& options,
                                 const po::positional_options_description& positional,
                                 po::variables_map& vm) {
  po::options_description all(options);
  all.add_options()("help,h", "print this help");
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: granite " << command << ' ' << synopsis << "\n\n" << all << '\n';
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "granite " << command << ": " << e.what() << " (see granite " << command
              << " --help)\n";
    return kInputErrorExit;
  }
  return std::nullopt;
}

}  // namespace granite::app
