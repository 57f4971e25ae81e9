// tirx-verify fuzz [--seed S] [--cases N] [--property NAME]... [--max-size N] [--no-shrink]
//                  [--list] [--json]
//
// Runs the property campaign (include/tirx_verify/props/properties.hpp) outside ctest, for
// long runs in a nightly job: every property (or the named ones) for N cases from seed S.
// Progress goes to stderr; the result of each property to stdout. A failure prints the shrunk
// counterexample, a ready-to-run `tirx-verify` command line that shows the disagreement, and
// the `tirx-verify fuzz` command that replays the same cases. Same seed, cases and max size
// give the same cases. Exit: 0 every property held, 1 a property failed, 2 bad usage.
// docs/fuzzing.md describes the properties and how to use this in CI.
#include <chrono>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "option_checks.hpp"
#include "commands.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/props/properties.hpp"

namespace tirx::cli {

namespace {

// Largest --cases: RapidCheck compares its discarded cases against 10 x the requested cases in an
// int, which 2.2 x 10^8 would overflow; the table it reserves per case (below) is charged to
// the memory budget on top.
constexpr std::int64_t kMaxCases = 100'000'000;
// Largest --max-size (a hundred times RapidCheck's nominal size; sizes near 2^29 overflowed
// inside RapidCheck: SIGSEGV).
constexpr int kMaxFuzzSize = 10000;
// What RapidCheck's search reserves per requested case: searchProperty() starts with
// searchResult.tags.reserve(maxSuccess), a std::vector of rc::detail::Tags, which is
// std::vector<std::string> (rapidcheck/detail/Results.h): 24 bytes a case with libstdc++, so
// 1e8 cases allocate 2.4 GB at once (the 16 bytes charged before let a libFuzzer run of
// `fuzz --cases 100000000 --memory-limit 2048` reach that allocation inside its budget).
constexpr std::int64_t kRapidCheckBytesPerCase = sizeof(std::vector<std::string>);

struct FuzzOpts {
  std::optional<std::uint64_t> seed;
  int cases = 1000;
  int max_size = 100;
  std::vector<std::string> names;
  bool no_shrink = false;
  bool list = false;
  bool json = false;
  BudgetOpts budget;
};

int run_fuzz(const FuzzOpts& o) {
  if (o.list) {
    if (o.json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& p : props::properties()) j.push_back({{"name", p.name}, {"description", p.description}});
      std::cout << dump_json({{"properties", j}}, 2) << "\n";
      return kVerified;
    }
    for (const auto& p : props::properties()) std::cout << fmt::format("{:<24} {}\n", p.name, p.description);
    return kVerified;
  }
  if (o.cases < 1) throw InputError("cli.usage", fmt::format("--cases {} must be at least 1", o.cases));
  // RapidCheck's generators are calibrated for sizes 0..100 and overflow their integer scaling
  // past 2^28 (an out-of-range index, SIGSEGV, was seen at 536870912).
  if (o.max_size < 0 || o.max_size > kMaxFuzzSize)
    throw InputError("cli.usage", fmt::format("--max-size {} is outside [0, {}]", o.max_size, kMaxFuzzSize), {},
                     std::nullopt, "RapidCheck's nominal size is 100; larger sizes only grow the inputs");
  std::vector<const props::Property*> chosen;
  for (const auto& n : o.names) {
    const props::Property* p = props::find_property(n);
    if (!p) {
      std::string all;
      for (const auto& q : props::properties()) all += (all.empty() ? "" : ", ") + std::string(q.name);
      throw InputError("cli.usage", fmt::format("unknown property '{}'", n), n, 0, "properties: " + all);
    }
    chosen.push_back(p);
  }
  if (chosen.empty())
    for (const auto& p : props::properties()) chosen.push_back(&p);
  const std::uint64_t seed = o.seed ? *o.seed : std::random_device{}();
  if (!o.json) std::cout << fmt::format("tirx-verify fuzz: seed {}, {} cases per property\n", seed, o.cases);

  int failures = 0;
  nlohmann::json out = {{"seed", seed}, {"cases", o.cases}, {"max_size", o.max_size}, {"properties", nlohmann::json::array()}};
  for (const props::Property* p : chosen) {
    props::RunOptions ro;
    ro.seed = seed;
    ro.cases = o.cases;
    ro.max_size = o.max_size;
    ro.shrink = !o.no_shrink;
    // Progress on stderr at most every two seconds, so long campaigns show they are alive.
    auto last = std::chrono::steady_clock::now();
    ro.on_case = [&](int done) {
      // The command's deadline, between cases (thrown through RapidCheck to guarded(): exit 3).
      command_budget()->check_time([&] {
        return fmt::format("fuzz, property {}: {} of {} cases", p->name, done, o.cases);
      });
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::seconds(2) || done >= o.cases) return;
      last = now;
      std::cerr << fmt::format("  {}: {}/{} cases\n", p->name, done, o.cases);
    };
    // RapidCheck reserves a table of about 16 bytes per requested case up front (500000000 cases
    // ran out of memory at once): charge it so that the limit is named before it is hit.
    MemoryCharge table = command_budget()->charge(static_cast<std::int64_t>(o.cases) * kRapidCheckBytesPerCase,
                                                  fmt::format("RapidCheck's table of {} cases", o.cases));
    const props::RunResult r = props::run_property(*p, ro);
    const std::string replay = fmt::format("tirx-verify fuzz --property {} --seed {} --cases {} --max-size {}", p->name,
                                           seed, o.cases, o.max_size);
    nlohmann::json j = {{"name", p->name}, {"passed", r.passed}, {"cases", r.cases}, {"seconds", r.seconds}};
    nlohmann::json dist = nlohmann::json::object();
    for (const auto& [tags, n] : r.distribution) dist[tags] = n;
    j["distribution"] = dist;
    if (r.passed) {
      if (!o.json) {
        std::string d;
        for (const auto& [tags, n] : r.distribution) d += fmt::format("{}{}: {}", d.empty() ? "  [" : "; ", tags, n);
        std::cout << fmt::format("ok    {:<24} {:>8} cases  {:.2f} s{}\n", p->name, r.cases, r.seconds,
                                 d.empty() ? "" : d + "]")
                  << std::flush;
      }
    } else {
      ++failures;
      j["failure"] = r.failure;
      j["reproduce"] = r.reproduce;
      j["replay"] = replay;
      nlohmann::json ce = nlohmann::json::array();
      for (const auto& [type, value] : r.counterexample) ce.push_back({{"type", type}, {"value", value}});
      j["counterexample"] = ce;
      if (!o.json) {
        std::cout << fmt::format("FAIL  {:<24} after {} cases  {:.2f} s\n", p->name, r.cases, r.seconds);
        std::cout << "  " << r.failure << "\n";
        if (!r.counterexample.empty()) {
          std::cout << "  shrunk counterexample:\n";
          for (const auto& [type, value] : r.counterexample) std::cout << "    " << type << ": " << value << "\n";
        }
        if (!r.reproduce.empty()) std::cout << "  reproduce: " << r.reproduce << "\n";
        std::cout << "  replay:    " << replay << "\n" << std::flush;
      }
    }
    out["properties"].push_back(std::move(j));
  }
  if (o.json)
    std::cout << dump_json(out, 2) << "\n";
  else
    std::cout << fmt::format("{} of {} properties held (seed {})\n", chosen.size() - failures, chosen.size(), seed);
  return failures ? kViolation : kVerified;
}

}  // namespace

void register_fuzz(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<FuzzOpts>();
  CLI::App* cmd = app.add_subcommand("fuzz", "Run the property campaign: tirx-verify cross-checks itself on random layouts");
  cmd->add_option("--seed", o->seed, "Random seed (default: a fresh one, printed)")->transform(uint_range(0));
  cmd->add_option("--cases", o->cases, "Successful cases per property (at most 10^8)")
      ->capture_default_str()
      ->transform(int_range(1, kMaxCases));
  cmd->add_option("--property", o->names, "Run only this property (repeatable; see --list)");
  cmd->add_option("--max-size", o->max_size, "Largest RapidCheck size (inputs grow with it; at most 10000)")
      ->capture_default_str()
      ->transform(int_range(0, kMaxFuzzSize));
  cmd->add_flag("--no-shrink", o->no_shrink, "Report the first failing case as found, without shrinking");
  cmd->add_flag("--list", o->list, "List the properties and exit");
  cmd->add_flag("--json", o->json, "JSON output");
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, "", [&] {
      start_budget(o->budget);
      return run_fuzz(*o);
    });
  });
}

}  // namespace tirx::cli
