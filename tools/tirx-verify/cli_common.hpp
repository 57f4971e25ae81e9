// Shared helpers of the tirx-verify subcommands: argument parsing, layout loading, exit codes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::cli {

// Exit codes (DESIGN.md): 0 verified, 1 violations found, 2 bad input or usage, 3 undecided.
enum Exit : int { kVerified = 0, kViolation = 1, kBadInput = 2, kUndecided = 3 };

// "8,16" -> {8, 16}; throws InputError("cli.usage") naming the option on bad text.
std::vector<std::int64_t> parse_int_list(const std::string& text, const std::string& option);

// --param N=128 (repeatable) -> Env.
Env parse_params(const std::vector<std::string>& params);

// Every --param as a ParamRange (layout/symbolic.hpp), in option order. Throws
// InputError("cli.usage") on bad text, an empty range or a name given twice.
std::vector<ParamRange> param_ranges(const std::vector<std::string>& params);
// Number of bindings of the ranges (saturates at 2^100).
__int128 binding_count(const std::vector<ParamRange>& ranges);

// --param NAME=VALUE or NAME=LO..HI[:STEP] (a range, swept by check and equiv): every binding,
// the cartesian product of the ranges in option order (last fastest). Throws
// InputError("cli.usage") on bad text, an empty range, or more than `max_bindings` bindings.
std::vector<Env> expand_params(const std::vector<std::string>& params, std::size_t max_bindings = 65536);
// "N=16, K=2" for messages.
std::string env_text(const Env& env, const std::vector<std::string>& params);

// Pass or fail (not undecided / n/a).
bool decisive(prove::Status s);
// The symbolic result of a check (`sym`, prove/symbolic.hpp) merged with the swept one (either
// may be absent): verdicts that disagree are a failure "ENGINES DISAGREE" (both in
// witness.engines); on agreement the sweep's first failing binding is the witness and a pass is
// the symbolic one, engine "z3-symbolic+sweep(<engine>)"; one side undecided: the other.
prove::CheckResult merge_symbolic_sweep(const prove::CheckResult* sym, const prove::CheckResult* swept);

// One check's results over a sweep of parameter bindings, folded into one result per check id:
// the first failing binding (message prefixed "[N=16] ", witness gains "params"), else the first
// undecided one, else a pass "for all K bindings" (n/a when n/a everywhere). Engines are joined,
// seconds summed.
std::vector<prove::CheckResult> fold_sweep(const std::vector<std::pair<Env, std::vector<prove::CheckResult>>>& runs,
                                           const std::vector<std::string>& params);

// Adds --param to a subcommand.
void add_param_option(CLI::App* cmd, std::vector<std::string>& params);

// Proof-engine options shared by check and equiv: --engine, --cross-check, --z3-timeout-ms,
// --z3-memory-mb.
struct EngineOpts {
  std::string engine = "auto";
  bool cross_check = false;
  std::int64_t z3_timeout_ms = prove::EngineLimits{}.z3_timeout_ms;
  std::int64_t z3_memory_mb = prove::EngineLimits{}.z3_memory_mb;
};
void add_engine_options(CLI::App* cmd, EngineOpts& o);
// Largest --z3-timeout-ms (one day) and --z3-memory-mb (1 TiB): Z3 takes both as 32-bit unsigned
// values, so larger ones would wrap inside it.
inline constexpr std::int64_t kMaxZ3TimeoutMs = 86'400'000;
inline constexpr std::int64_t kMaxZ3MemoryMb = std::int64_t{1} << 20;
// Copies the options into a CheckInput; throws InputError("cli.usage") for an unknown engine or a
// non-positive limit.
void apply_engine_options(const EngineOpts& o, prove::CheckInput& in);

// The repository root used to find models/ (env TIRX_VERIFY_ROOT, else the source dir).
std::string repo_root();

// `j` as JSON text (indent as nlohmann's dump). A string that is not UTF-8 cannot reach here
// (run_cli checks every input), but should one, its bad bytes become U+FFFD instead of an
// exception: --json output is always one valid JSON document.
std::string dump_json(const nlohmann::json& j, int indent = -1);

// Runs `body`, turning InputError into "error[id]: ..." on stderr (and JSON on stdout when
// json is set) with exit code 2, and a budget that ran out (BudgetExceeded, std::bad_alloc,
// std::length_error) into "undecided: <limit> reached (<where>)" on stderr (with --json
// {"undecided": {"budget", "limit", "where", "message"}} on stdout) with exit code 3. Returns
// the exit code.
int guarded(bool json, const std::string& input_text, const std::function<int()>& body);

}  // namespace tirx::cli
