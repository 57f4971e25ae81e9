// What every option value must satisfy before a subcommand sees it: integers without wrapping
// or saturation, no empty values, UTF-8 everywhere, and no model file where a layout belongs.
//
//   option value            accepted                     refused (cli.usage, exit 2)
//   integer (INT/UINT)      -?[0-9]+ inside its range     "", " 5", "+5", "0x10", "1e3", "1.5", past the range
//                           ("010" is ten, not octal)     (a uint option refuses "-1"; nothing saturates)
//   number (FLOAT)          -?[0-9]+(.[0-9]+)?(e[+-]?[0-9]+)?   "0x10", "inf", "nan", " 1", "1."; the range
//                                                         is the option's own (--time-limit: start_budget)
//   any value               non-empty UTF-8               "" ("--shape ''"), an ill-formed byte (with its offset)
//   a layout (LAYOUT, A, B, --access): as above, but an ill-formed byte is layout.syntax, and
//                           a path to an existing *.json file is refused with a pointer to `run`
//
// CLI11's own integer conversion reads "010" as octal, accepts "-1" for unsigned options (as
// 2^64-1) and saturates at INT64_MAX; the range transform runs first and hands it a canonical
// decimal that is already known to fit.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tirx::cli {

// A CLI11 transform: the value is a decimal integer in [lo, hi] (table above), rewritten in
// canonical form. A refused value is a CLI::ValidationError, which run_cli reports as cli.usage
// naming the option and the range.
CLI::Validator int_range(std::int64_t lo, std::int64_t hi = std::numeric_limits<std::int64_t>::max());
// int_range over all of int32: for an int option whose subcommand checks the meaning itself
// (a TMEM lane against the target's lanes, a .num against the PTX table) and reports it with the
// domain's own check id.
CLI::Validator int32_range();
// A decimal integer that is one of `choices` (e.g. 4, 8, 16 bytes per access).
CLI::Validator int_choices(std::vector<std::int64_t> choices);
// The same for an unsigned option (no sign at all), in [lo, hi].
CLI::Validator uint_range(std::uint64_t lo, std::uint64_t hi = std::numeric_limits<std::uint64_t>::max());

// Applied once to the whole command tree, after every subcommand registered its options:
// a flag refuses a value ("--json=0"; "--json=true" is CLI11's own spelling of the flag and
// stays), every option that takes a value refuses an empty one (a layout is left to the
// notation, which reports empty text as layout.syntax), and every integer option that has no
// int_range/uint_range of its own gets the full range of int64 (INT) or uint64 (UINT), so no
// integer option can wrap or saturate even where nobody thought about its range. Returns the
// names ("check --max-points") of integer options that got only that default range, so a test
// can insist that every integer option states its real range.
std::vector<std::string> harden_options(CLI::App& app);

// After a successful parse, before any subcommand runs: every value of every option of `app`
// and of its parsed subcommands is well-formed UTF-8 (InputError layout.syntax for a layout
// value, cli.usage for the others, with the byte offset), and no layout value names an existing
// *.json file (cli.usage: use `run`). Throws InputError.
void check_parsed_values(const CLI::App& app);

}  // namespace tirx::cli
