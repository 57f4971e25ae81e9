#include "cli_budget.hpp"

#include <sys/resource.h>

#include <cmath>
#include <atomic>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define TIRX_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TIRX_UNDER_ASAN 1
#endif
#endif

namespace tirx::cli {

namespace {

std::unique_ptr<Budget> g_budget;
std::mutex g_budget_mu;  // g_budget is replaced by start_budget and read by interrupt_command
std::atomic<bool> g_backstop{true};

// RLIMIT_DATA (heap and private anonymous mappings) a little above the allowance; only ever
// lowers the soft limit.
void set_memory_backstop(std::int64_t memory_mb) {
#ifndef TIRX_UNDER_ASAN
  const std::int64_t margin = std::max<std::int64_t>(256, memory_mb / 4);
  const rlim_t want = static_cast<rlim_t>(memory_mb + margin) << 20;
  rlimit cur{};
  if (getrlimit(RLIMIT_DATA, &cur) != 0) return;
  if (cur.rlim_cur != RLIM_INFINITY && cur.rlim_cur <= want) return;
  rlimit next = cur;
  next.rlim_cur = cur.rlim_max == RLIM_INFINITY ? want : std::min(want, cur.rlim_max);
  (void)setrlimit(RLIMIT_DATA, &next);
#else
  (void)memory_mb;
#endif
}

}  // namespace

void add_budget_options(CLI::App* cmd, BudgetOpts& o) {
  cmd->add_option("--time-limit", o.time_limit,
                  fmt::format("Wall-time budget of the whole command, seconds (default {:g}); past it the "
                              "unfinished work is undecided (exit 3)",
                              Budget::kDefaultSeconds));
  cmd->add_option("--memory-limit", o.memory_limit,
                  fmt::format("Memory budget of the whole command, MB (default min(4096, half of physical "
                              "memory) = {} here); past it the unfinished work is undecided (exit 3)",
                              Budget::default_memory_mb()));
}

Budget* start_budget(const BudgetOpts& o) {
  if (!std::isfinite(o.time_limit) || o.time_limit <= 0 || o.time_limit > kMaxTimeLimit)
    throw InputError("cli.usage",
                     fmt::format("--time-limit {} is outside (0, {:.0f}] seconds (30 days)", o.time_limit, kMaxTimeLimit),
                     {}, std::nullopt, "give the wall-time budget of the whole command in seconds, e.g. --time-limit 600");
  if (o.memory_limit < kMinMemoryMb || o.memory_limit > kMaxMemoryMb)
    throw InputError("cli.usage",
                     fmt::format("--memory-limit {} is outside [{}, {}] MB", o.memory_limit, kMinMemoryMb, kMaxMemoryMb),
                     {}, std::nullopt, "give the memory budget of the whole command in megabytes, e.g. --memory-limit 8192");
  {
    const std::lock_guard<std::mutex> lock(g_budget_mu);
    g_budget = std::make_unique<Budget>(o.time_limit, o.memory_limit << 20);
  }
  if (g_backstop.load()) set_memory_backstop(o.memory_limit);
  return g_budget.get();
}

Budget* command_budget() { return g_budget.get(); }

void interrupt_command() {
  const std::lock_guard<std::mutex> lock(g_budget_mu);
  if (g_budget) g_budget->interrupt();
}

void set_memory_backstop_enabled(bool on) { g_backstop.store(on); }

}  // namespace tirx::cli

#undef TIRX_UNDER_ASAN  // unity builds: not defined in the files after this one
