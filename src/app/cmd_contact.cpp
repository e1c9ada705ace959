#include "commands.hpp"
#include "options.hpp"

#include "granite/contact/single_contact.hpp"
#include "granite/core/error.hpp"
#include "granite/io/contact_jsonl.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace granite::app {

int contact_command(const Args& args) {
  const std::string models = contact::model_names(" | ") + " | coulomb_all_solutions";
  po::options_description options("contact options");
  options.add_options()("model", po::value<std::string>()->required(),
                        models.c_str())("golden-iterations", po::value<int>()->default_value(20),
                                        "golden-section iterations of mdp_golden")(
      "friction-directions", po::value<int>()->default_value(8),
      "polyhedral: even number k of directions of the friction cone (4 to 32)");
  po::positional_options_description positional;
  po::variables_map vm;
  if (auto exit = parse_options(
          "contact",
          "--model NAME < problems.jsonl\n\n"
          "Reads one problem per line, {\"A\": [[..],[..],[..]], \"b\": [..], \"mu\": ..}, in the\n"
          "contact frame (n, t, o); writes one line per problem, {\"x\": [..], \"objective\": ..,\n"
          "\"case\": ..}. The first bad line stops the run with exit code 2.",
          args, options, positional, vm))
    return *exit;
  errno = 0;
  const int exit =
      io::solve_contact_stream(vm["model"].as<std::string>(), vm["golden-iterations"].as<int>(),
                               std::cin, std::cout, std::cerr, vm["friction-directions"].as<int>());
  // std::cin reads through stdio (synchronised): a read error, e.g. a directory as input
  // (`granite contact < DIR`), ends the stream like end-of-file and shows only in ferror.
  if (exit == 0 && std::ferror(stdin)) {
    std::cerr << "error: cannot read the standard input ("
              << (errno != 0 ? std::strerror(errno) : "read error") << ")\n";
    return kInputErrorExit;
  }
  return exit;
}

}  // namespace granite::app
