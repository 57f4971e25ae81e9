// Command-line errors as diagnostics: every CLI11 parse error becomes InputError("cli.usage"),
// with "did you mean" where a name was mistyped.
//
//   tirx-verify chek S[8:1]            unknown subcommand 'chek'           note: did you mean 'check'?
//   tirx-verify check L --scoep x      unknown option '--scoep' for check  note: did you mean '--scope'?
//   tirx-verify check L --shape        option --shape of check needs a value
//   tirx-verify check A B              unexpected argument 'B' for check (it takes LAYOUT only)
//   tirx-verify sim tcgen05.lx ...     unknown subcommand 'tcgen05.lx' of sim   note: did you mean 'tcgen05.ld'?
//
// An argument that is not UTF-8 is reported as such first (its bytes would otherwise end up
// in the message). Positions: the error's text is the offending argument, pos the byte offset
// in it (0 for a name that is wrong as a whole).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "tirx_verify/layout/error.hpp"

namespace tirx::cli {

// The candidates closest to `word` by edit distance (insertions, deletions, substitutions and
// swaps of neighbours, each 1), if the best is close enough to be a typo (at most 1 for words
// of up to 4 characters, else 2); otherwise the candidates that start with `word` (3 or more
// characters). Empty when nothing is close. Ties are all returned, in candidate order.
std::vector<std::string> suggestions(std::string_view word, const std::vector<std::string>& candidates);

// "did you mean 'a'?" / "did you mean 'a' or 'b'?"; empty for no suggestions.
std::string did_you_mean(const std::vector<std::string>& s);

// The diagnostic for a CLI11 parse error `e` raised while `app` parsed `args` (the arguments
// after the program name, in order). Never throws.
InputError usage_error(const CLI::ParseError& e, CLI::App& app, std::span<const std::string> args);

}  // namespace tirx::cli
