// tirx-verify equiv A B [--shape D0,D1,...] [--engine auto|enum|gf2|z3] [--cross-check]
//                       [--z3-timeout-ms N] [--z3-memory-mb N] [--param NAME=VALUE] [--json]
// Proves that two layouts are the same map (layout.equivalent: every element has the same set of
// images), or prints the first element where they differ with both image sets.
// Exit: 0 equivalent, 1 they differ, 2 bad input, 3 undecided (a solver limit, named).
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
#include "tirx_verify/report/report.hpp"

namespace tirx::cli {

namespace {
struct Opts {
  std::string a, b, shape;
  bool json = false;
  std::vector<std::string> params;
  EngineOpts engine;
  BudgetOpts budget;
};

prove::CheckInput make_input(const Opts& o, const Env& env) {
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

int run_equiv(const Opts& o) {
  const std::vector<Env> envs = expand_params(o.params);
  if (envs.size() == 1) {
    const prove::CheckInput in = make_input(o, envs.front());
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
  // A parameter range: prove the equivalence for every binding (bad input for a binding stops).
  std::vector<std::pair<Env, std::vector<prove::CheckResult>>> runs;
  Pacer pace(command_budget(), "parameter sweep", static_cast<double>(envs.size()), "bindings");
  for (const Env& env : envs) {
    command_budget()->check_time([&] { return pace.progress(); });
    pace.step();
    runs.emplace_back(env, std::vector<prove::CheckResult>{run_one(make_input(o, env))});
  }
  const auto folded = fold_sweep(runs, o.params);
  if (o.json) {
    nlohmann::json j = {
        {"layout", o.a}, {"other", o.b}, {"params_swept", envs.size()}, {"checks", report::results_json(folded)}};
    std::cout << dump_json(j, 2) << "\n";
  } else {
    std::cout << fmt::format("{}\n{}\n  ({} parameter bindings swept)\n", o.a, o.b, envs.size())
              << report::render_results_text(folded);
  }
  return exit_code_of(folded.front());
}
}  // namespace

void register_equiv(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Opts>();
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
