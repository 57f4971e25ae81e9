// --time-limit and --memory-limit: the budget of one tirx-verify command (layout/budget.hpp).
//
// Every subcommand that computes takes both options. The budget is for the whole command: one
// deadline (default 60 s of wall time) and one memory allowance (default min(4096 MB, half of
// physical memory)) shared by every check, buffer, binding and property the command runs. A
// check that runs out is undecided naming the budget (exit 3); work outside the checks that runs
// out (an apply listing, a fuzz campaign, a parameter sweep) ends the command with exit 3 and the
// same message. As a backstop the process's data segment limit (RLIMIT_DATA) is set a little
// above the allowance (memory + max(256 MB, memory / 4)), so that an allocation nobody charged
// fails as std::bad_alloc (answered the same way) instead of exhausting the machine; not in
// sanitizer builds, whose shadow memory the limit would count.
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

#include "tirx_verify/layout/budget.hpp"

namespace tirx::cli {

struct BudgetOpts {
  double time_limit = Budget::kDefaultSeconds;          // seconds, (0, kMaxTimeLimit]
  std::int64_t memory_limit = Budget::default_memory_mb();  // megabytes, [kMinMemoryMb, kMaxMemoryMb]
};

inline constexpr double kMaxTimeLimit = 30.0 * 24 * 3600;  // 30 days
inline constexpr std::int64_t kMinMemoryMb = 16;
inline constexpr std::int64_t kMaxMemoryMb = std::int64_t{1} << 24;  // 16 TB

// Adds --time-limit SECONDS and --memory-limit MB to a subcommand.
void add_budget_options(CLI::App* cmd, BudgetOpts& o);

// Validates the options (InputError "cli.usage" naming the option and the valid range), starts
// the command's budget (its clock starts now) and sets the process memory backstop. Returns the
// budget, owned by the CLI until the next call (one command per process; an in-process caller
// that runs several commands gets a fresh budget each time).
Budget* start_budget(const BudgetOpts& o);

// The budget of the running command (nullptr before start_budget).
Budget* command_budget();
// Interrupts the running command's budget (Budget::interrupt) from any thread; a no-op when no
// command has started. For in-process callers (the Python module on Ctrl-C).
void interrupt_command();
// Whether start_budget lowers RLIMIT_DATA (default true). An embedding process (the Python
// module) turns it off: the limit would bind the whole interpreter, not one command.
void set_memory_backstop_enabled(bool on);

}  // namespace tirx::cli
