// tirx-verify check LAYOUT [--shape ...] [--dtype float16] [--scope shared|tmem|local|global]
//                          [--alloc-cols N] [--alloc-elems N] [--target sm_100a] [--json]
//                          [--engine auto|enum|gf2|z3] [--cross-check] [--z3-timeout-ms N] [--z3-memory-mb N]
// Runs every registered check on one layout. With --param NAME=LO..HI[:STEP] every binding of the
// range is checked (enumeration over the parameter) and the results are folded: the first failing
// binding is reported with its parameter values, and "params_swept" says how many were checked. Exit: 0 all pass, 1 a check failed, 2 bad input
// (including a layout that is not well-formed for the given buffer), 3 undecided.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "commands.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::cli {

namespace {
struct Opts {
  std::string layout;
  std::string shape, dtype, scope = "unknown", target = "sm_100a", target_file;
  std::optional<std::int64_t> alloc_cols, alloc_elems;
  std::int64_t max_points = std::int64_t{1} << 28;
  std::string access;
  int access_bytes = 0;
  std::optional<int> row_imm;
  bool json = false;
  std::vector<std::string> params;
  EngineOpts engine;
};

prove::CheckInput make_input(const Opts& o, const Env& env, const hw::Target& target) {
  prove::CheckInput in;
  in.text = o.layout;
  in.layout = parse_layout(o.layout, env);
  in.layout.validate();
  if (!o.shape.empty()) in.shape = parse_int_list(o.shape, "--shape");
  in.dtype = o.dtype;
  in.elem_bits = kernel::dtype_bits(o.dtype);
  if (!o.dtype.empty() && in.elem_bits == 0)
    throw InputError("cli.usage", "unknown --dtype '" + o.dtype + "'", o.dtype, 0);
  in.scope = prove::parse_scope(o.scope);
  in.alloc_cols = o.alloc_cols;
  in.alloc_elems = o.alloc_elems;
  in.machine = prove::machine_limits(target);
  if (o.alloc_cols) {  // an allocation tcgen05.alloc rejects is bad input (exit 2), not a finding
    try {
      kernel::check_alloc_cols(target, *o.alloc_cols);
    } catch (const InputError& e) {
      const std::string option = fmt::format("--alloc-cols {}", *o.alloc_cols);
      throw InputError(e.check_id(), e.message(), option, std::string_view("--alloc-cols ").size(), e.note());
    }
  }
  in.target = &target;
  if (!o.access.empty()) {
    in.access_text = o.access;
    try {
      in.access = parse_layout(o.access, env);
      in.access->validate();
    } catch (const InputError& e) {
      throw e.located(o.access, std::nullopt);
    }
  }
  in.access_bytes = o.access_bytes;
  in.row_imm = o.row_imm;
  in.limits.max_enumeration_points = o.max_points;
  apply_engine_options(o.engine, in);
  return in;
}

int exit_code_of(const std::vector<prove::CheckResult>& results) {
  int code = kVerified;
  bool undecided = false;
  for (const auto& r : results) {
    if (r.status == prove::Status::kFail) code = r.id == "layout.well-formed" ? kBadInput : kViolation;
    if (r.status == prove::Status::kUndecided) undecided = true;
    if (code != kVerified) break;
  }
  return code == kVerified && undecided ? kUndecided : code;
}

int run_check(const Opts& o) {
  const hw::Target target = o.target_file.empty() ? hw::load_target(o.target) : hw::load_target_file(o.target_file);
  const std::vector<Env> envs = expand_params(o.params);
  if (envs.size() == 1) {
    const prove::CheckInput in = make_input(o, envs.front(), target);
    const auto results = prove::run_all(in);
    if (o.json) {
      nlohmann::json j = {{"layout", o.layout},
                          {"resolved", print_layout(in.layout)},
                          {"checks", report::results_json(results)}};
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << print_layout(in.layout) << "\n" << report::render_results_text(results);
    }
    return exit_code_of(results);
  }
  // A parameter range: enumerate every binding (a layout that is not well-formed for one binding
  // is a layout.well-formed failure there).
  std::vector<std::pair<Env, std::vector<prove::CheckResult>>> runs;
  for (const Env& env : envs) {
    std::vector<prove::CheckResult> results;
    try {
      results = prove::run_all(make_input(o, env, target));
    } catch (const InputError& e) {
      prove::CheckResult r;
      r.id = "layout.well-formed";
      r.status = prove::Status::kFail;
      r.engine = "error";
      r.message = fmt::format("[{}] {}", e.check_id(), e.message());
      results.push_back(std::move(r));
    }
    runs.emplace_back(env, std::move(results));
  }
  const auto folded = fold_sweep(runs, o.params);
  if (o.json) {
    nlohmann::json j = {{"layout", o.layout}, {"params_swept", envs.size()}, {"checks", report::results_json(folded)}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{}  ({} parameter bindings swept)\n", o.layout, envs.size())
              << report::render_results_text(folded);
  }
  return exit_code_of(folded);
}
}  // namespace

void register_check(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand("check", "Run every check on one layout");
  cmd->add_option("layout", o->layout, "Layout in TIRx notation")->required();
  cmd->add_option("--shape", o->shape, "Logical buffer shape D0,D1,...");
  cmd->add_option("--dtype", o->dtype, "Element type (float16, bfloat16, float32, uint8, ...)");
  cmd->add_option("--scope", o->scope, "Storage scope: shared, shared.dyn, global, tmem, local");
  cmd->add_option("--alloc-cols", o->alloc_cols, "TMEM allocation in 32-bit columns");
  cmd->add_option("--alloc-elems", o->alloc_elems, "Memory allocation on m, in elements");
  cmd->add_option("--target", o->target, "Target name (models/targets/NAME.json)");
  cmd->add_option("--target-file", o->target_file, "Target description file");
  cmd->add_option("--max-points", o->max_points, "Enumeration limit (points); past it a check is undecided");
  cmd->add_option("--access", o->access,
                  "Register fragment layout of the threads that access this buffer (tmem.partition, tmem.datapath, "
                  "smem.bank-conflicts)");
  cmd->add_option("--access-bytes", o->access_bytes, "Shared memory: bytes per thread per access (4, 8 or 16)");
  cmd->add_option("--row-imm", o->row_imm, "TMEM: the row immediate the compiler emitted (0 or 16), checked instead of the derived one");
  cmd->add_flag("--json", o->json, "JSON output");
  add_param_option(cmd, o->params);
  add_engine_options(cmd, o->engine);
  cmd->callback([o, &exit_code] { exit_code = guarded(o->json, o->layout, [&] { return run_check(*o); }); });
}

}  // namespace tirx::cli
