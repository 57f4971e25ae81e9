#include "run_cli.hpp"

#include <iostream>
#include <new>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "cli_errors.hpp"
#include "cmd_sim.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::cli {

namespace {

// Binds std::cout / std::cerr to the caller's streams while it lives.
class StreamBinding {
 public:
  StreamBinding(std::ostream& out, std::ostream& err)
      : out_(std::cout.rdbuf(out.rdbuf())), err_(std::cerr.rdbuf(err.rdbuf())) {}
  // Runs while an exception unwinds too: a stream that went bad (its buffer threw) is not
  // flushed, and nothing here may throw (a stream with an exception mask would).
  ~StreamBinding() {
    try {
      if (std::cout.good()) std::cout.flush();
      if (std::cerr.good()) std::cerr.flush();
    } catch (...) {
    }
    try {
      std::cout.rdbuf(out_);
      std::cerr.rdbuf(err_);
    } catch (...) {
    }
  }
  StreamBinding(const StreamBinding&) = delete;
  StreamBinding& operator=(const StreamBinding&) = delete;

 private:
  std::streambuf* out_;
  std::streambuf* err_;
};

// --json among the options (after "--" every argument is a positional value).
bool wants_json(std::span<const std::string> args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (a == "--json" || a.rfind("--json=", 0) == 0) return true;
  }
  return false;
}

int report(const InputError& e, bool json) {
  std::cerr << e.render();
  if (json) std::cout << dump_json({{"error", report::error_json(e)}}, 2) << "\n";
  return kBadInput;
}

// The command tree: every subcommand registered, every option checked (option_checks.hpp).
// Returns the integer options that have no range of their own.
struct Tree {
  bool list_checks = false, top_json = false;
  int exit_code = kVerified;
};
std::vector<std::string> build(CLI::App& app, Tree& t) {
  app.set_version_flag("--version", std::string("tirx-verify ") + report::kToolVersion);  // one version everywhere
  app.add_flag("--list-checks", t.list_checks, "List every check id with its description and witness format");
  app.add_flag("--json", t.top_json, "With --list-checks, --help, --version or a command-line error: JSON output");
  register_apply(app, t.exit_code);
  register_print(app, t.exit_code);
  register_check(app, t.exit_code);
  register_run(app, t.exit_code);
  register_equiv(app, t.exit_code);
  register_info(app, t.exit_code);
  register_render(app, t.exit_code);
  register_sim(app, t.exit_code);
#ifndef TIRX_CLI_NO_FUZZ  // the Python module's copy (tirx_cli_embedded) has no `fuzz`: RapidCheck is not PIC
  register_fuzz(app, t.exit_code);
#endif
  register_audit(app, t.exit_code);
  register_extract(app, t.exit_code);
  return harden_options(app);
}

constexpr const char* kDescription = "tirx-verify: layout verification and simulation for TIRx GPU tensor layouts";

int parse_and_run(std::span<const std::string> args, bool json) {
  for (std::size_t i = 0; i < args.size(); ++i)
    if (const auto nul = args[i].find('\0'); nul != std::string::npos)
      return report(InputError("cli.usage", fmt::format("argument {} contains a NUL byte at byte {}", i + 1, nul)),
                    json);

  CLI::App app{kDescription, "tirx-verify"};
  Tree tree;
  build(app, tree);
  const bool& list_checks = tree.list_checks;
  const bool& top_json = tree.top_json;
  const int& exit_code = tree.exit_code;
  // Runs after the whole command line parsed and before any subcommand does.
  app.parse_complete_callback([&] {
    // CLI11 runs every subcommand named on the line, one after the other (`apply S[8:1] check
    // S[4:1]` ran both, and printed two reports); the contract is one command, one report.
    if (const auto subs = app.get_subcommands(); subs.size() > 1)
      throw InputError("cli.usage",
                       fmt::format("two subcommands on one command line: '{}' and '{}'", subs[0]->get_name(),
                                   subs[1]->get_name()),
                       {}, std::nullopt, "tirx-verify runs one subcommand; give each its own command line");
    check_parsed_values(app);
    if (!app.get_subcommands().empty()) {
      const std::string sub = app.get_subcommands().front()->get_name();
      if (top_json)
        throw InputError("cli.usage", fmt::format("--json before the subcommand '{}'", sub), {}, std::nullopt,
                         fmt::format("--json is an option of each subcommand: tirx-verify {} ... --json", sub));
      if (list_checks)
        throw InputError("cli.usage", fmt::format("--list-checks with the subcommand '{}'", sub), {}, std::nullopt,
                         "--list-checks is a command of its own: tirx-verify --list-checks [--json]");
    }
  });

  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 consumes from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    if (!json) return app.exit(CLI::CallForHelp());
    std::cout << dump_json({{"help", app.help()}}, 2) << "\n";
    return kVerified;
  } catch (const CLI::CallForAllHelp&) {
    if (!json) return app.exit(CLI::CallForAllHelp());
    std::cout << dump_json({{"help", app.help("", CLI::AppFormatMode::All)}}, 2) << "\n";
    return kVerified;
  } catch (const CLI::CallForVersion& e) {
    if (json)
      std::cout << dump_json({{"version", e.what()}}, 2) << "\n";
    else
      std::cout << e.what() << "\n";
    return kVerified;
  } catch (const CLI::ParseError& e) {
    return report(usage_error(e, app, args), json);
  } catch (const InputError& e) {
    return report(e, json);
  }
  if (list_checks) {
    if (json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& c : prove::checks())
        j.push_back({{"id", c.id}, {"description", c.description}, {"witness", c.witness_format}});
      std::cout << dump_json({{"checks", j}}, 2) << "\n";
    } else {
      for (const auto& c : prove::checks())
        std::cout << fmt::format("{:<20} {}\n{:<20} witness: {}\n", c.id, c.description, "", c.witness_format);
    }
    return kVerified;
  }
  if (app.get_subcommands().empty()) {
    report(InputError("cli.usage", "no subcommand given", {}, std::nullopt,
                      "subcommands: apply, print, check, run, equiv, info, render, sim, fuzz, audit, extract; 'tirx-verify --help' shows the usage"),
           json);
    if (!json) std::cerr << "\n" << app.help();
    return kBadInput;
  }
  return exit_code;
}

}  // namespace

std::vector<std::string> integer_options_without_range() {
  CLI::App app{kDescription, "tirx-verify"};
  Tree tree;
  return build(app, tree);
}

int run_cli(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  StreamBinding bind(out, err);
  const bool json = wants_json(args);
  try {
    return parse_and_run(args, json);
  } catch (const std::bad_alloc&) {
    // The budgets answer undecided before memory runs out; this is the last line behind them.
    const InputError e("memory", "undecided: memory exhausted (std::bad_alloc)", {}, std::nullopt,
                       "give the command a smaller problem or more memory");
    std::cerr << e.render();
    if (json) std::cout << dump_json({{"undecided", report::error_json(e)}}, 2) << "\n";
    return kUndecided;
  } catch (const std::exception& x) {
    const InputError e("internal", fmt::format("internal error: {}", x.what()), {}, std::nullopt,
                       "this is a bug in tirx-verify; please report the command line");
    std::cerr << e.render();
    if (json) std::cout << dump_json({{"error", report::error_json(e)}}, 2) << "\n";
    return kInternalError;
  }
}

}  // namespace tirx::cli
