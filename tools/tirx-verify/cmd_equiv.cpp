// tirx-verify equiv A B [--shape D0,D1,...] [--engine auto|enum|gf2|z3] [--cross-check]
//                       [--z3-timeout-ms N] [--z3-memory-mb N] [--param NAME=VALUE] [--json]
// Proves that two layouts are the same map (layout.equivalent: every element has the same set of
// images), or prints the first element where they differ with both image sets.
// Exit: 0 equivalent, 1 they differ, 2 bad input, 3 undecided (a solver limit, named).
// With --param NAME=LO..HI[:STEP] ranges: proved for every binding by one symbolic query (both
// layouts in the symbolic subset, engine auto or z3) and swept binding by binding up to 65,536
// bindings; the two must agree (cmd_check.cpp has the same scheme).
#include <chrono>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/equivalent.hpp"
#include "tirx_verify/prove/run_check.hpp"
#include "tirx_verify/prove/symbolic.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::cli {

namespace {
struct EquivOpts {
  std::string a, b, shape;
  bool json = false;
  std::vector<std::string> params;
  EngineOpts engine;
  BudgetOpts budget;
};

prove::CheckInput make_equiv_input(const EquivOpts& o, const Env& env) {
  prove::CheckInput in;
  in.layout = parse_layout(o.a, env);
  in.layout.validate();
  in.text = o.a;
  try {
    in.other = parse_layout(o.b, env);
  } catch (const InputError& e) {
    throw e.located(o.b, e.pos());
  }
  in.other->validate();
  in.other_text = o.b;
  if (!o.shape.empty()) in.shape = parse_int_list(o.shape, "--shape");
  apply_engine_options(o.engine, in);
  in.limits.budget = command_budget();
  return in;
}

prove::CheckResult run_one(const prove::CheckInput& in) { return prove::run_check("layout.equivalent", in); }

int exit_code_of(const prove::CheckResult& r) {
  return r.status == prove::Status::kPass ? kVerified : r.status == prove::Status::kFail ? kViolation : kUndecided;
}

// Largest number of bindings a sweep visits (as check).
constexpr std::int64_t kMaxEquivSweep = 65536;

// A parameter range: layout.equivalent for every binding, symbolically (engine auto or z3, both
// layouts in the symbolic subset: prove/symbolic.hpp run_symbolic_equivalent) and by a sweep of
// at most kMaxEquivSweep bindings; where both decide they must agree. Bad input at a binding stops.
int run_ranged(const EquivOpts& o, const std::vector<ParamRange>& ranges) {
  const __int128 count = binding_count(ranges);
  const bool sweepable = count <= kMaxEquivSweep;
  const prove::Engine engine = prove::parse_engine(o.engine.engine);
  std::vector<std::string> names;
  for (const ParamRange& r : ranges) names.push_back(r.name);
  std::optional<prove::CheckResult> sym;
  std::string why_not;
  if (engine == prove::Engine::kAuto || engine == prove::Engine::kZ3) {
    try {
      prove::SymbolicEquivalenceInput si;
      si.a = parse_symbolic_layout(o.a, names);
      try {
        si.b = parse_symbolic_layout(o.b, names);
      } catch (const InputError& e) {
        throw e.located(o.b, e.pos());
      }
      si.params = ranges;
      if (!o.shape.empty()) {
        std::int64_t prod = 1;
        for (std::int64_t d : parse_int_list(o.shape, "--shape"))
          if (__builtin_mul_overflow(prod, d, &prod)) throw NotSymbolic("the --shape product overflows int64", 0);
        si.shape_elems = prod;
      }
      si.at = [&](const Env& env) { return make_equiv_input(o, env); };
      // The symbolic readings must agree with the notation where both can be evaluated.
      Env first, last;
      for (const ParamRange& r : ranges) first[r.name] = r.lo, last[r.name] = r.last();
      for (const Env& e : {first, last})
        for (const auto& [sl, text] : {std::pair{&si.a, &o.a}, std::pair{&si.b, &o.b}}) {
          std::optional<Layout> x, y;
          try {
            x = sl->instantiate(e);
          } catch (const InputError&) {
          }
          try {
            y = parse_layout(*text, e);
          } catch (const InputError&) {
          }
          if (x.has_value() != y.has_value() || (x && !(*x == *y)))
            throw NotSymbolic("internal: the symbolic reading differs from the notation at one binding", 0);
        }
      prove::CheckInput limits_only;
      apply_engine_options(o.engine, limits_only);
      si.limits = limits_only.limits;
      si.limits.budget = command_budget();
      const auto t0 = std::chrono::steady_clock::now();
      try {
        try {
          sym = prove::run_symbolic_equivalent(si);
        } catch (const std::bad_alloc&) {
          throw command_budget()->out_of_memory("the symbolic proof");
        }
      } catch (const BudgetExceeded& e) {
        sym = prove::budget_result("layout.equivalent", e);
      }
      sym->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } catch (const NotSymbolic& e) {
      why_not = e.what();
    }
  } else {
    why_not = fmt::format("--engine {} sweeps", o.engine.engine);
  }
  if (!sym && !sweepable)
    throw InputError("cli.usage",
                     fmt::format("--param ranges give more than {} bindings to sweep, and the symbolic engine cannot "
                                 "decide these layouts: {}",
                                 kMaxEquivSweep, why_not));
  std::optional<prove::CheckResult> swept;
  if (sweepable) {
    const std::vector<Env> envs = expand_params(o.params, kMaxEquivSweep);
    std::vector<std::pair<Env, std::vector<prove::CheckResult>>> runs;
    Pacer pace(command_budget(), "parameter sweep", static_cast<double>(envs.size()), "bindings");
    for (const Env& env : envs) {
      command_budget()->check_time([&] { return pace.progress(); });
      pace.step();
      runs.emplace_back(env, std::vector<prove::CheckResult>{run_one(make_equiv_input(o, env))});
    }
    swept = fold_sweep(runs, o.params).front();
  }
  const prove::CheckResult result = merge_symbolic_sweep(sym ? &*sym : nullptr, swept ? &*swept : nullptr);
  const std::vector<prove::CheckResult> results{result};
  const std::int64_t swept_n = sweepable ? static_cast<std::int64_t>(count) : 0;
  nlohmann::json pj = nlohmann::json::array();
  std::string ptext;
  for (const ParamRange& r : ranges) {
    pj.push_back({{"name", r.name}, {"lo", r.lo}, {"hi", r.hi}, {"step", r.step}, {"count", r.count()}});
    ptext += (ptext.empty() ? "" : ", ") + r.str();
  }
  const bool decided = sym && decisive(sym->status);
  if (o.json) {
    nlohmann::json j = {{"layout", o.a}, {"other", o.b}, {"params", pj}, {"params_swept", swept_n}};
    j["symbolic"] = !sym ? nlohmann::json({{"decided", nlohmann::json::array()}, {"unavailable", why_not}})
                         : nlohmann::json({{"decided", decided ? nlohmann::json::array({"layout.equivalent"})
                                                               : nlohmann::json::array()}});
    j["checks"] = report::results_json(results);
    std::cout << dump_json(j, 2) << "\n";
  } else {
    std::cout << fmt::format("{}\n{}\n  ({}: {} parameter bindings swept{})\n", o.a, o.b, ptext, swept_n,
                             !sym      ? fmt::format("; not symbolic: {}", why_not)
                             : decided ? std::string("; layout.equivalent decided symbolically for every binding")
                                       : std::string())
              << report::render_results_text(results);
  }
  return exit_code_of(result);
}

int run_equiv(const EquivOpts& o) {
  const std::vector<ParamRange> ranges = param_ranges(o.params);
  if (binding_count(ranges) <= 1) {
    const std::vector<Env> envs = expand_params(o.params);
    const prove::CheckInput in = make_equiv_input(o, envs.front());
    std::vector<prove::CheckResult> results{run_one(in)};
    if (o.json) {
      nlohmann::json j = {{"layout", o.a},
                          {"other", o.b},
                          {"resolved", print_layout(in.layout)},
                          {"resolved_other", print_layout(*in.other)},
                          {"checks", report::results_json(results)}};
      std::cout << dump_json(j, 2) << "\n";
    } else {
      std::cout << print_layout(in.layout) << "\n"
                << print_layout(*in.other) << "\n"
                << report::render_results_text(results);
    }
    return exit_code_of(results.front());
  }
  return run_ranged(o, ranges);
}
}  // namespace

void register_equiv(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<EquivOpts>();
  CLI::App* cmd = app.add_subcommand("equiv", "Prove two layouts are the same map (layout.equivalent)");
  cmd->add_option("a", o->a, "First layout in TIRx notation")->required();
  cmd->add_option("b", o->b, "Second layout in TIRx notation")->required();
  cmd->add_option("--shape", o->shape, "Logical shape D0,D1,... (names elements in the witness)");
  cmd->add_flag("--json", o->json, "JSON output");
  add_param_option(cmd, o->params);
  add_engine_options(cmd, o->engine);
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, o->a, [&] {
      start_budget(o->budget);
      return run_equiv(*o);
    });
  });
}

}  // namespace tirx::cli
