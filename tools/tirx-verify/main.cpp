// tirx-verify: command-line entry point. Subcommands live one per file (cmd_*.cpp).
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"tirx-verify: layout verification and simulation for TIRx GPU tensor layouts"};
  app.require_subcommand(1);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
