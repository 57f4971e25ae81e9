// The whole tirx-verify command line as a function: what main() calls, and what the tests and
// the libFuzzer target (tests/fuzz/fuzz_cli.cpp) call in-process.
//
//   run_cli({"check", "S[8:1]", "--json"}, out, err)  ->  0, the JSON report written to `out`
//
// Contract, for any arguments at all (any bytes, any number of them):
//   * the return value is an exit code: 0 verified, 1 violations found, 2 bad input or usage
//     (a diagnostic "error[<check id>]: ..." on `err`), 3 undecided (the limit is named), or
//     4 internal error (an exception that is a bug of tirx-verify; the message says so);
//   * with --json among the options (before any "--"), `out` receives exactly one JSON
//     document (nothing, when `run -o FILE` writes the report to FILE): the subcommand's report, {"error": {"id", "message", "pos"?, "note"?}} for bad input and
//     command-line errors, {"help": TEXT} for --help, {"version": TEXT} for --version;
//   * nothing escapes: CLI11 parse errors map to cli.usage with "did you mean" (cli_errors.hpp),
//     option values are checked before any subcommand runs (option_checks.hpp), std::bad_alloc
//     is exit 3, any other exception exit 4.
//
// The subcommands write to std::cout / std::cerr; run_cli binds those to `out` / `err` for the
// duration of the call (and restores them), so it is not reentrant and must not run on two
// threads at once.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace tirx::cli {

// Runs one command line. `args` are the arguments after the program name, e.g. {"check",
// "S[8:1]"}. An argument with a NUL byte (impossible through argv, possible in-process) is
// cli.usage. Never throws.
int run_cli(std::span<const std::string> args, std::ostream& out, std::ostream& err);

// The integer options of the command tree that state no range of their own (option_checks.hpp:
// they still get the full int64/uint64 range). A test insists this is empty.
std::vector<std::string> integer_options_without_range();

// Exit code of an internal error (a bug): see above.
inline constexpr int kInternalError = 4;

}  // namespace tirx::cli
