#include "cli_common.hpp"
#include "option_checks.hpp"

#include "cli_budget.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/source_dir.hpp"
#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::cli {

std::vector<std::int64_t> parse_int_list(const std::string& text, const std::string& option) {
  std::vector<std::int64_t> out;
  std::size_t i = 0;
  const std::string t = text;
  while (i <= t.size()) {
    std::size_t j = t.find(',', i);
    if (j == std::string::npos) j = t.size();
    std::string item = t.substr(i, j - i);
    while (!item.empty() && (item.front() == ' ' || item.front() == '(' || item.front() == '[')) item.erase(0, 1);
    while (!item.empty() && (item.back() == ' ' || item.back() == ')' || item.back() == ']')) item.pop_back();
    if (item.empty()) {
      if (j == t.size() && !out.empty()) break;
      throw InputError("cli.usage", fmt::format("{}: expected a comma-separated list of integers", option), text, i);
    }
    try {
      std::size_t used = 0;
      const long long v = std::stoll(item, &used, 10);
      if (used != item.size()) throw std::invalid_argument("trailing");
      out.push_back(v);
    } catch (const std::exception&) {
      throw InputError("cli.usage", fmt::format("{}: '{}' is not an integer", option, item), text, i);
    }
    i = j + 1;
  }
  return out;
}

Env parse_params(const std::vector<std::string>& params) {
  Env env;
  for (const ParamRange& r : param_ranges(params)) {
    if (r.count() != 1)
      throw InputError("cli.usage", fmt::format("--param {} needs one integer value here (ranges: check, equiv)", r.name),
                       r.str());
    env[r.name] = r.lo;
  }
  return env;
}

void add_param_option(CLI::App* cmd, std::vector<std::string>& params) {
  cmd->add_option("--param", params,
                  "Bind a parameter used in the layout text: NAME=VALUE, or NAME=LO..HI[:STEP] to sweep a range "
                  "(check, equiv) (repeatable)");
}

std::vector<ParamRange> param_ranges(const std::vector<std::string>& params) {
  std::vector<ParamRange> out;
  for (const auto& p : params) {
    ParamRange r = parse_param_range(p);
    for (const ParamRange& q : out)
      if (q.name == r.name) throw InputError("cli.usage", fmt::format("--param {} is given twice", r.name), p);
    out.push_back(std::move(r));
  }
  return out;
}

__int128 binding_count(const std::vector<ParamRange>& ranges) {
  __int128 n = 1;
  for (const ParamRange& r : ranges) {
    n *= r.count();
    if (n > (static_cast<__int128>(1) << 100)) n = static_cast<__int128>(1) << 100;
  }
  return n;
}

std::vector<Env> expand_params(const std::vector<std::string>& params, std::size_t max_bindings) {
  const std::vector<ParamRange> ranges = param_ranges(params);
  if (binding_count(ranges) > static_cast<__int128>(max_bindings))
    throw InputError("cli.usage", fmt::format("--param ranges give more than {} bindings", max_bindings));
  std::vector<Env> out{Env{}};
  for (const ParamRange& r : ranges) {
    std::vector<Env> next;
    for (const Env& e : out)
      for (std::int64_t k = 0; k < r.count(); ++k) {
        Env x = e;
        x[r.name] = r.lo + k * r.step;
        next.push_back(std::move(x));
      }
    out = std::move(next);
  }
  return out;
}

std::string env_text(const Env& env, const std::vector<std::string>& params) {
  std::string s;
  for (const auto& p : params) {
    const std::string name = p.substr(0, p.find('='));
    if (auto it = env.find(name); it != env.end()) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", name, it->second);
  }
  return s;
}

std::vector<prove::CheckResult> fold_sweep(const std::vector<std::pair<Env, std::vector<prove::CheckResult>>>& runs,
                                           const std::vector<std::string>& params) {
  std::vector<prove::CheckResult> out;
  std::vector<std::string> ids;
  for (const auto& [env, results] : runs)
    for (const auto& r : results)
      if (std::find(ids.begin(), ids.end(), r.id) == ids.end()) ids.push_back(r.id);
  for (const auto& id : ids) {
    const prove::CheckResult* first_fail = nullptr;
    const prove::CheckResult* first_undecided = nullptr;
    const prove::CheckResult* first_pass = nullptr;
    const Env* fail_env = nullptr;
    const Env* undecided_env = nullptr;
    std::size_t passes = 0, seen = 0;
    double seconds = 0;
    std::vector<std::string> engines;
    for (const auto& [env, results] : runs)
      for (const auto& r : results) {
        if (r.id != id) continue;
        ++seen;
        seconds += r.seconds;
        if (std::find(engines.begin(), engines.end(), r.engine) == engines.end()) engines.push_back(r.engine);
        if (r.status == prove::Status::kFail && !first_fail) first_fail = &r, fail_env = &env;
        if (r.status == prove::Status::kUndecided && !first_undecided) first_undecided = &r, undecided_env = &env;
        if (r.status == prove::Status::kPass) {
          ++passes;
          if (!first_pass) first_pass = &r;
        }
      }
    std::string engine;
    for (const auto& e : engines) engine += (engine.empty() ? "" : ",") + e;
    prove::CheckResult r;
    if (first_fail || first_undecided) {
      r = first_fail ? *first_fail : *first_undecided;
      const Env& env = first_fail ? *fail_env : *undecided_env;
      r.message = fmt::format("[{}] {}", env_text(env, params), r.message);
      nlohmann::json p = nlohmann::json::object();
      for (const auto& [k, v] : env) p[k] = v;
      if (r.witness.is_null()) r.witness = nlohmann::json::object();
      if (r.witness.is_object()) r.witness["params"] = p;
    } else if (first_pass) {
      r = *first_pass;
      r.message = fmt::format("pass for all {} parameter bindings (swept); first: {}", passes, first_pass->message);
      if (passes != seen) r.message += fmt::format(" ({} n/a)", seen - passes);
    } else {
      r.id = id;
      r.status = prove::Status::kNotApplicable;
      r.message = fmt::format("n/a for all {} parameter bindings", seen);
    }
    r.engine = engine;
    r.seconds = seconds;
    out.push_back(std::move(r));
  }
  return out;
}

void add_engine_options(CLI::App* cmd, EngineOpts& o) {
  cmd->add_option("--engine", o.engine, "Proof engine: auto (cheapest that decides), enum, gf2 or z3");
  cmd->add_flag("--cross-check", o.cross_check, "Run every applicable engine; fail loudly if they disagree");
  cmd->add_option("--z3-timeout-ms", o.z3_timeout_ms, "Z3 time budget per check, milliseconds (then undecided; at most a day)")
      ->transform(int_range(0, kMaxZ3TimeoutMs));
  cmd->add_option("--z3-memory-mb", o.z3_memory_mb, "Z3 memory ceiling, megabytes (then undecided; at most 1 TiB)")
      ->transform(int_range(1, kMaxZ3MemoryMb));
}

void apply_engine_options(const EngineOpts& o, prove::CheckInput& in) {
  in.engine = prove::parse_engine(o.engine);
  in.cross_check = o.cross_check;
  if (o.z3_timeout_ms < 0 || o.z3_memory_mb < 1)
    throw InputError("cli.usage", "--z3-timeout-ms must be >= 0 and --z3-memory-mb >= 1");
  in.limits.z3_timeout_ms = o.z3_timeout_ms;
  in.limits.z3_memory_mb = o.z3_memory_mb;
}

std::string repo_root() {
  if (const char* r = std::getenv("TIRX_VERIFY_ROOT"); r && *r) return r;
  return std::string(source_dir());
}

std::string dump_json(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

// A budget that ran out outside any check: the command ends undecided (exit 3), naming it.
int undecided(bool json, const std::string& input_text, const BudgetExceeded& e) {
  const std::string message = e.describe("");
  std::cerr << "undecided: " << message << "\n";
  if (json) {
    nlohmann::json j = {{"undecided",
                         {{"budget", e.kind() == BudgetKind::kTime ? "time" : "memory"},
                          {"limit", e.limit()},
                          {"where", e.where()},
                          {"message", message}}}};
    if (!input_text.empty()) j["layout"] = input_text;
    std::cout << dump_json(j, 2) << "\n";
  }
  return kUndecided;
}

const Budget& budget_or_unlimited() {
  static const Budget unlimited;
  return command_budget() ? *command_budget() : unlimited;
}

}  // namespace

int guarded(bool json, const std::string& input_text, const std::function<int()>& body) {
  try {
    try {
      return body();
    } catch (const std::bad_alloc&) {
      throw budget_or_unlimited().out_of_memory("the command");
    } catch (const std::length_error&) {  // a std::vector larger than max_size()
      throw budget_or_unlimited().out_of_memory("the command (a structure too large to allocate)");
    }
  } catch (const BudgetExceeded& e) {
    return undecided(json, input_text, e);
  } catch (const InputError& e) {
    const InputError located = e.located(input_text, std::nullopt);
    std::cerr << located.render();
    if (json) {
      nlohmann::json j = {{"error", report::error_json(located)}};
      if (!input_text.empty()) j["layout"] = input_text;
      std::cout << dump_json(j, 2) << "\n";
    }
    return kBadInput;
  }
}

bool decisive(prove::Status s) { return s == prove::Status::kPass || s == prove::Status::kFail; }

prove::CheckResult merge_symbolic_sweep(const prove::CheckResult* sym, const prove::CheckResult* swept) {
  if (!sym) return *swept;
  if (!swept) return *sym;
  if (decisive(sym->status) && decisive(swept->status) && sym->status != swept->status) {
    prove::CheckResult r = *sym;
    r.status = prove::Status::kFail;
    r.engine = "z3-symbolic+sweep";
    r.message = fmt::format("ENGINES DISAGREE on {}: z3-symbolic says {} ({}); the sweep says {} ({})", sym->id,
                            prove::status_name(sym->status), sym->message, prove::status_name(swept->status),
                            swept->message);
    r.witness = {{"engines",
                  {{{"engine", "z3-symbolic"}, {"status", prove::status_name(sym->status)}, {"witness", sym->witness}},
                   {{"engine", "sweep:" + swept->engine},
                    {"status", prove::status_name(swept->status)},
                    {"witness", swept->witness}}}}};
    return r;
  }
  // Agreement (or one side undecided): the sweep's first failing binding is the more useful
  // witness; a pass is stated for all bindings by the symbolic proof.
  prove::CheckResult r = (swept->status == prove::Status::kFail || !decisive(sym->status)) ? *swept : *sym;
  if (decisive(sym->status) && decisive(swept->status)) {
    r.engine = "z3-symbolic+sweep(" + swept->engine + ")";
    r.message += r.status == prove::Status::kFail ? fmt::format(" [z3-symbolic agrees: {}]", sym->message)
                                                  : " [sweep agrees]";
  }
  r.seconds = sym->seconds + swept->seconds;
  return r;
}

}  // namespace tirx::cli
