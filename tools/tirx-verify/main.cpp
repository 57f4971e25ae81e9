// tirx-verify: command-line entry point. Each subcommand lives in its own cmd_<name>.cpp.
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_common.hpp"
#include "cmd_sim.hpp"
#include "commands.hpp"
#include "tirx_verify/prove/check.hpp"

int main(int argc, char** argv) {
  using namespace tirx::cli;
  CLI::App app{"tirx-verify: layout verification and simulation for TIRx GPU tensor layouts"};
  app.set_version_flag("--version", "tirx-verify 0.1.0");
  bool list_checks = false;
  app.add_flag("--list-checks", list_checks, "List every check id with its description and witness format");
  int exit_code = kVerified;
  register_apply(app, exit_code);
  register_print(app, exit_code);
  register_check(app, exit_code);
  register_run(app, exit_code);
  register_equiv(app, exit_code);
  register_sim(app, exit_code);
  register_fuzz(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kBadInput;
  }
  if (list_checks) {
    for (const auto& c : tirx::prove::checks())
      std::cout << fmt::format("{:<20} {}\n{:<20} witness: {}\n", c.id, c.description, "", c.witness_format);
    return kVerified;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << app.help();
    return kBadInput;
  }
  return exit_code;
}
