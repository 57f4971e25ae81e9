// tirx-verify: the program. Everything it does is run_cli (run_cli.hpp); each subcommand lives in
// its own cmd_<name>.cpp.
#include <iostream>
#include <string>
#include <vector>

#include "run_cli.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  return tirx::cli::run_cli(args, std::cout, std::cerr);
}
