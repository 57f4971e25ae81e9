#include "cli_common.hpp"

#include <cstdlib>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tirx_verify/layout/error.hpp"
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
  for (const auto& p : params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("cli.usage", fmt::format("--param expects NAME=VALUE, got '{}'", p), p);
    const auto vals = parse_int_list(p.substr(eq + 1), "--param " + p.substr(0, eq));
    if (vals.size() != 1)
      throw InputError("cli.usage", fmt::format("--param {} needs one integer value", p.substr(0, eq)), p);
    env[p.substr(0, eq)] = vals[0];
  }
  return env;
}

void add_param_option(CLI::App* cmd, std::vector<std::string>& params) {
  cmd->add_option("--param", params, "Bind a parameter used in the layout text: NAME=VALUE (repeatable)");
}

void add_engine_options(CLI::App* cmd, EngineOpts& o) {
  cmd->add_option("--engine", o.engine, "Proof engine: auto (cheapest that decides), enum, gf2 or z3");
  cmd->add_flag("--cross-check", o.cross_check, "Run every applicable engine; fail loudly if they disagree");
  cmd->add_option("--z3-timeout-ms", o.z3_timeout_ms, "Z3 time budget per check, milliseconds (then undecided)");
  cmd->add_option("--z3-memory-mb", o.z3_memory_mb, "Z3 memory ceiling, megabytes (then undecided)");
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
  return TIRX_SOURCE_DIR;
}

int guarded(bool json, const std::string& input_text, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    const InputError located = e.located(input_text, std::nullopt);
    std::cerr << located.render();
    if (json) {
      nlohmann::json j = {{"error", report::error_json(located)}};
      if (!input_text.empty()) j["layout"] = input_text;
      std::cout << j.dump(2) << "\n";
    }
    return kBadInput;
  }
}

}  // namespace tirx::cli
