// tirx-verify check LAYOUT [--shape ...] [--dtype float16] [--scope shared|tmem|local|global]
//                          [--alloc-cols N] [--alloc-elems N] [--target sm_100a] [--json]
//                          [--engine auto|enum|gf2|z3] [--cross-check] [--z3-timeout-ms N] [--z3-memory-mb N]
// Runs every registered check on one layout. Exit: 0 all pass, 1 a check failed, 2 bad input
// (including a layout that is not well-formed for the given buffer), 3 undecided.
//
// With --param NAME=LO..HI[:STEP] the checks must hold for every binding:
//   * layout.well-formed, layout.injective and layout.bounds are decided for ALL bindings by one
//     Z3 query each (prove/symbolic.hpp) when the layout is in the symbolic subset of the
//     notation (layout/symbolic.hpp) and the engine is auto or z3;
//   * every check is also swept binding by binding when the range has at most kMaxSweep
//     bindings (with --engine enum|gf2, or outside the symbolic subset, only the sweep runs); the
//     sweep's first failing binding is reported, and where both ran their verdicts must agree
//     (else "ENGINES DISAGREE", a failure);
//   * tmem.partition and tmem.datapath are decided for all bindings too when the buffer is in TMEM
//     and --access is given (prove/symbolic.hpp; undecided, naming why, where no encoding exists);
//   * past kMaxSweep bindings, checks without a symbolic encoding are undecided, or n/a when they
//     do not apply at the first binding (applicability depends on scope and options only).
// --alloc-elems may use the parameters ("N*64").
#include <iostream>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "option_checks.hpp"
#include "commands.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/prove/symbolic.hpp"
#include "tirx_verify/layout/input_file.hpp"
#include "tirx_verify/render/svg.hpp"
#include "tirx_verify/render/views.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::cli {

namespace {
struct CheckOpts {
  std::string layout;
  std::string shape, dtype, scope = "unknown", target = "sm_100a", target_file;
  std::optional<std::int64_t> alloc_cols;
  std::string alloc_elems;  // an integer expression, may use the parameters
  std::int64_t max_points = std::int64_t{1} << 28;
  std::string access;
  int access_bytes = 0;
  std::optional<int> row_imm;
  bool json = false;
  std::vector<std::string> params;
  EngineOpts engine;
  BudgetOpts budget;
  bool allow_broadcast = false;
  std::string render;  // --render FILE.svg
};

prove::CheckInput make_input(const CheckOpts& o, const Env& env, const hw::Target& target) {
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
  if (!o.alloc_elems.empty()) {
    try {
      in.alloc_elems = parse_int_expr(o.alloc_elems, env);
    } catch (const InputError& e) {
      throw InputError("cli.usage", "--alloc-elems: " + e.message(), o.alloc_elems, e.pos(), e.note());
    }
  }
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
  if (o.row_imm && target.tmem) {
    const int part = target.tmem->lanes / target.warps_per_warpgroup;  // a warp's sub-partition
    if (*o.row_imm >= part)
      throw InputError("cli.usage",
                       fmt::format("--row-imm {} is not a row of a warp's {}-lane TMEM sub-partition (0..{})",
                                   *o.row_imm, part, part - 1),
                       fmt::format("--row-imm {}", *o.row_imm), std::string_view("--row-imm ").size());
  }
  in.row_imm = o.row_imm;
  in.limits.max_enumeration_points = o.max_points;
  apply_engine_options(o.engine, in);
  in.limits.budget = command_budget();
  in.allow_broadcast = o.allow_broadcast;
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

// Largest number of bindings a sweep visits.
constexpr std::int64_t kMaxSweep = 65536;

void print_single(const CheckOpts& o, const prove::CheckInput& in, const std::vector<prove::CheckResult>& results) {
  if (o.json) {
    nlohmann::json j = {{"layout", o.layout}, {"resolved", print_layout(in.layout)}, {"checks", report::results_json(results)}};
    std::cout << dump_json(j, 2) << "\n";
  } else {
    std::cout << print_layout(in.layout) << "\n" << report::render_results_text(results);
  }
}

// Every check at every binding, folded (the first failing binding per check).
std::vector<prove::CheckResult> sweep(const CheckOpts& o, const std::vector<Env>& envs, const hw::Target& target) {
  std::vector<std::pair<Env, std::vector<prove::CheckResult>>> runs;
  Pacer pace(command_budget(), "parameter sweep", static_cast<double>(envs.size()), "bindings");
  for (const Env& env : envs) {
    command_budget()->check_time([&] { return pace.progress(); });
    pace.step();
    std::vector<prove::CheckResult> results;
    try {
      results = prove::run_all(make_input(o, env, target));
    } catch (const InputError& e) {  // not well-formed for this binding
      prove::CheckResult r;
      r.id = "layout.well-formed";
      r.status = prove::Status::kFail;
      r.engine = "error";
      r.message = fmt::format("[{}] {}", e.check_id(), e.message());
      results.push_back(std::move(r));
    }
    runs.emplace_back(env, std::move(results));
  }
  return fold_sweep(runs, o.params);
}

int run_ranged(const CheckOpts& o, const std::vector<ParamRange>& ranges, const hw::Target& target) {
  const __int128 count = binding_count(ranges);
  const bool sweepable = count <= kMaxSweep;
  const prove::Engine engine = prove::parse_engine(o.engine.engine);
  std::vector<std::string> names;
  for (const ParamRange& r : ranges) names.push_back(r.name);
  Env first, last;
  for (const ParamRange& r : ranges) first[r.name] = r.lo, last[r.name] = r.last();

  // The symbolic proofs (auto and z3).
  std::vector<prove::CheckResult> sym;
  std::string why_not;
  std::optional<InputError> input_error;  // the text is bad input whatever the binding
  if (engine == prove::Engine::kAuto || engine == prove::Engine::kZ3) {
    try {
      prove::SymbolicInput si;
      si.text = o.layout;
      si.layout = parse_symbolic_layout(o.layout, names);
      si.params = ranges;
      if (!o.alloc_elems.empty()) si.alloc_elems = parse_symbolic_int(o.alloc_elems, names);
      si.at = [&](const Env& env) { return make_input(o, env, target); };
      // The symbolic reader must agree with the notation where both can be evaluated.
      for (const Env& e : {first, last}) {
        std::optional<Layout> a, b;
        try {
          a = si.layout.instantiate(e);
        } catch (const InputError&) {
        }
        try {
          b = parse_layout(o.layout, e);
        } catch (const InputError&) {
        }
        if (a.has_value() != b.has_value() || (a && !(*a == *b)))
          throw NotSymbolic("internal: the symbolic reading differs from the notation at one binding", 0);
      }
      prove::CheckInput limits_only;
      apply_engine_options(o.engine, limits_only);
      si.limits = limits_only.limits;
      si.limits.budget = command_budget();
      si.allow_broadcast = o.allow_broadcast;
      if (!o.access.empty()) {
        try {
          si.access = parse_symbolic_layout(o.access, names);
        } catch (const NotSymbolic& e) {  // the fragment is swept (or undecided) instead
          si.access_why = e.what();
        } catch (const InputError&) {  // make_input reports it
        }
        if (!si.access) {
          // A fragment whose text evaluates without any binding is one layout at every binding
          // (a factory call too): the TMEM checks use it as a constant.
          try {
            Layout f = parse_layout(o.access, Env{});
            f.validate();
            si.access_fixed = std::move(f);
          } catch (const InputError&) {
          }
        }
      }
      sym = prove::run_symbolic(si);
    } catch (const NotSymbolic& e) {
      why_not = e.what();
    } catch (const InputError& e) {
      why_not = e.message();
      input_error = e;
    }
  } else {
    why_not = fmt::format("--engine {} sweeps", o.engine.engine);
  }
  if (sym.empty() && !sweepable && input_error) throw *input_error;
  if (sym.empty() && !sweepable)
    throw InputError("cli.usage",
                     fmt::format("--param ranges give more than {} bindings to sweep, and the symbolic engine cannot "
                                 "decide this layout: {}",
                                 kMaxSweep, why_not));

  std::vector<prove::CheckResult> swept;
  if (sweepable) swept = sweep(o, expand_params(o.params, kMaxSweep), target);

  // Registry order; a failing layout.well-formed ends the list as in run_all.
  std::vector<prove::CheckResult> results;
  std::optional<std::vector<prove::CheckResult>> at_first;
  for (const auto& c : prove::checks()) {
    if (!c.run) continue;
    const std::string id(c.id);
    auto find = [&](const std::vector<prove::CheckResult>& v) -> const prove::CheckResult* {
      for (const auto& r : v)
        if (r.id == id) return &r;
      return nullptr;
    };
    const prove::CheckResult* s = find(sym);
    const prove::CheckResult* w = find(swept);
    if (!s && !w && !sym.empty() && !sweepable) {
      // No symbolic encoding and too many bindings to sweep.
      if (!at_first) at_first = prove::run_all(make_input(o, first, target));
      const prove::CheckResult* f = find(*at_first);
      if (!f) continue;
      prove::CheckResult r;
      r.id = id;
      r.engine = "none";
      if (f->status == prove::Status::kNotApplicable) {
        r.status = prove::Status::kNotApplicable;
        r.message = "n/a (at the first binding; applicability depends on scope and options only)";
      } else {
        r.status = prove::Status::kUndecided;
        r.message = fmt::format("not decided: {} has no symbolic encoding and the ranges give more than {} bindings "
                                "to sweep",
                                id, kMaxSweep);
      }
      results.push_back(std::move(r));
      continue;
    }
    if (!s && !w) continue;
    results.push_back(merge_symbolic_sweep(s, w));
    if (id == "layout.well-formed" && results.back().status == prove::Status::kFail) break;
  }

  nlohmann::json decided_ids = prove::symbolic_check_ids();
  for (const prove::CheckResult& r : sym)
    if (r.id == "swizzle.legal" || r.id == "smem.bank-conflicts" ||
        ((r.id == "tmem.partition" || r.id == "tmem.datapath") && decisive(r.status)))
      decided_ids.push_back(r.id);
  // "well-formed, injective and bounds", then ", swizzle.legal" / ", smem.bank-conflicts".
  std::string decided_text = "; well-formed, injective";
  decided_text += decided_ids.size() > 3 ? ", bounds" : " and bounds";
  for (std::size_t i = 3; i < decided_ids.size(); ++i)
    decided_text += (i + 1 == decided_ids.size() ? " and " : ", ") + decided_ids[i].get<std::string>();
  decided_text += " decided symbolically for every binding";
  nlohmann::json pj = nlohmann::json::array();
  std::string ptext;
  for (const ParamRange& r : ranges) {
    pj.push_back({{"name", r.name}, {"lo", r.lo}, {"hi", r.hi}, {"step", r.step}, {"count", r.count()}});
    ptext += (ptext.empty() ? "" : ", ") + r.str();
  }
  const std::int64_t swept_n = sweepable ? static_cast<std::int64_t>(count) : 0;
  if (o.json) {
    nlohmann::json j = {{"layout", o.layout}, {"params", pj}, {"params_swept", swept_n}};
    j["symbolic"] = sym.empty() ? nlohmann::json({{"decided", nlohmann::json::array()}, {"unavailable", why_not}})
                                : nlohmann::json({{"decided", decided_ids}});
    j["checks"] = report::results_json(results);
    std::cout << dump_json(j, 2) << "\n";
  } else {
    // The header says what the symbolic proof decided, not what it was asked: the checks below
    // give each verdict (a failure carries the binding that shows it).
    std::cout << fmt::format("{}  ({}: {} parameter bindings swept{})\n", o.layout, ptext, swept_n,
                             sym.empty() ? fmt::format("; not symbolic: {}", why_not) : decided_text)
              << report::render_results_text(results);
  }
  return exit_code_of(results);
}

// --render FILE: the first failed check drawn where it is (render/views.hpp build_finding), or
// the layout's default view when nothing failed. Drawn before anything is printed, so that a
// picture that cannot be drawn (render.size) is the command's one answer (exit 2).
void write_picture(const CheckOpts& o, const prove::CheckInput& in, const std::vector<prove::CheckResult>& results) {
  const prove::CheckResult* first = nullptr;
  for (const auto& r : results)
    if (r.status == prove::Status::kFail) {
      first = &r;
      break;
    }
  render::RenderOptions ro;
  render::Grid g;
  if (first) {
    g = render::build_finding(in, *first, ro);
  } else {
    g = render::build_view(in, ro);
    g.notes.insert(g.notes.begin(), "no finding: every check passed, was n/a or undecided");
  }
  write_output_file(o.render, render::svg_document(g), "cli.usage", "picture");
  std::cerr << fmt::format("tirx-verify: drew {} to {}\n", first ? "the finding of " + first->id : std::string("the layout"),
                           o.render);
}

int run_check(const CheckOpts& o) {
  const hw::Target target = o.target_file.empty() ? hw::load_target(o.target) : hw::load_target_file(o.target_file);
  const std::vector<ParamRange> ranges = param_ranges(o.params);
  if (binding_count(ranges) > 1) {
    if (!o.render.empty())
      throw InputError("cli.usage", "--render draws one layout: give each --param one value", o.render, 0);
    return run_ranged(o, ranges, target);
  }
  Env env;
  for (const ParamRange& r : ranges) env[r.name] = r.lo;
  const prove::CheckInput in = make_input(o, env, target);
  const auto results = prove::run_all(in);
  if (!o.render.empty()) write_picture(o, in, results);
  print_single(o, in, results);
  return exit_code_of(results);
}
}  // namespace

void register_check(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<CheckOpts>();
  CLI::App* cmd = app.add_subcommand("check", "Run every check on one layout");
  cmd->add_option("layout", o->layout, "Layout in TIRx notation")->required();
  cmd->add_option("--shape", o->shape, "Logical buffer shape D0,D1,...");
  cmd->add_option("--dtype", o->dtype, "Element type (float16, bfloat16, float32, uint8, ...)");
  cmd->add_option("--scope", o->scope, "Storage scope: shared, shared.dyn, global, tmem, local");
  cmd->add_option("--alloc-cols", o->alloc_cols, "TMEM allocation in 32-bit columns")
      ->transform(int_range(std::numeric_limits<std::int64_t>::min()));  // tmem.alloc judges the value
  cmd->add_option("--alloc-elems", o->alloc_elems, "Memory allocation on m, in elements (an integer expression; may use --param names)");
  CLI::Option* target = cmd->add_option("--target", o->target, "Target name (models/targets/NAME.json)");
  cmd->add_option("--target-file", o->target_file, "Target description file (instead of --target)")
      ->excludes(target);  // both given: which one counts would be a silent choice
  cmd->add_option("--max-points", o->max_points, "Enumeration limit (points); past it a check is undecided")
      ->transform(int_range(1));
  cmd->add_option("--access", o->access,
                  "Register fragment layout of the threads that access this buffer (tmem.partition, tmem.datapath, "
                  "smem.bank-conflicts)");
  cmd->add_option("--access-bytes", o->access_bytes, "Shared memory: bytes per thread per access (4, 8 or 16)")
      ->transform(int_choices({4, 8, 16}));
  cmd->add_option("--row-imm", o->row_imm, "TMEM: the row immediate the compiler emitted (0 or 16), checked instead of the derived one")
      ->transform(int_range(0, std::numeric_limits<std::int32_t>::max()));  // and below the sub-partition (make_input)
  cmd->add_flag("--json", o->json, "JSON output");
  add_param_option(cmd, o->params);
  cmd->add_flag("--allow-broadcast", o->allow_broadcast,
                "The buffer is a read-only broadcast view: its stride-0 shard iters may share cells "
                "(layout.injective names them); without it a stride-0 iter is a collision");
  cmd->add_option("--render", o->render, "Draw the first failed check where it is (SVG; docs/render.md)");
  add_engine_options(cmd, o->engine);
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, o->layout, [&] {
      start_budget(o->budget);
      return run_check(*o);
    });
  });
}

}  // namespace tirx::cli
