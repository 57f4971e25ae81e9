// Engine selection: auto, forced, cross-check (checks_internal.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::prove {

std::string_view engine_name(Engine e) {
  switch (e) {
    case Engine::kAuto: return "auto";
    case Engine::kEnum: return "enum";
    case Engine::kGf2: return "gf2";
    case Engine::kZ3: return "z3";
  }
  return "?";
}

Engine parse_engine(std::string_view s) {
  for (Engine e : {Engine::kAuto, Engine::kEnum, Engine::kGf2, Engine::kZ3})
    if (engine_name(e) == s) return e;
  throw InputError("cli.usage", fmt::format("unknown engine '{}'", s), std::string(s), 0,
                   "use one of auto, enum, gf2, z3");
}

CheckResult witness_rejected(CheckResult r, const std::string& why) {
  r.message = fmt::format("engine {} produced a witness that does not re-check by direct evaluation ({}); "
                          "treated as undecided (engine bug)",
                          r.engine, why);
  r.status = Status::kUndecided;
  return r;
}

namespace {

std::string time_str(double s) {
  if (s < 1e-3) return fmt::format("{:.1f} us", s * 1e6);
  if (s < 1) return fmt::format("{:.2f} ms", s * 1e3);
  return fmt::format("{:.2f} s", s);
}

CheckResult timed(const EngineAttempt& attempt, Engine e) {
  Stopwatch sw;
  CheckResult r = attempt(e);
  r.seconds = sw.seconds();
  if (r.engine.empty()) r.engine = std::string(engine_name(e));
  return r;
}

bool decisive(const CheckResult& r) { return r.status == Status::kPass || r.status == Status::kFail; }

}  // namespace

std::string enum_gate(const CheckInput& in, double seconds, std::int64_t bytes, std::int64_t points) {
  const Budget* b = in.limits.budget;
  if (!b) return {};
  if (seconds > b->seconds_left())
    return fmt::format("not run: enumerating {} points takes about {:.3g} s, more than the {:.3g} s left of the {}",
                       count_text(static_cast<double>(points)), seconds, b->seconds_left(), b->time_text());
  if (!b->fits(bytes))
    return fmt::format("not run: enumerating {} points needs about {} MB, more than the {} MB left of the {}",
                       count_text(static_cast<double>(points)), bytes >> 20, b->memory_left_bytes() >> 20,
                       b->memory_text());
  return {};
}

CheckResult dispatch(const CheckInput& in, const std::vector<Engine>& auto_order, const std::vector<Engine>& engines,
                     const EngineAttempt& attempt, const EngineGate& gate) {
  if (!in.cross_check) {
    if (in.engine != Engine::kAuto) {
      CheckResult r = timed(attempt, in.engine);
      if (r.status == Status::kNotApplicable) {
        r.status = Status::kUndecided;
        r.message = fmt::format("{} cannot decide: {}", engine_name(in.engine), r.message);
      }
      return r;
    }
    std::optional<CheckResult> last;
    std::string skipped;
    for (Engine e : auto_order) {
      if (gate) {
        if (std::string why = gate(e); !why.empty()) {
          skipped += fmt::format("{}{}: {}", skipped.empty() ? "" : "; ", engine_name(e), why);
          continue;
        }
      }
      CheckResult r = timed(attempt, e);
      if (decisive(r)) return r;
      skipped += fmt::format("{}{}: {}", skipped.empty() ? "" : "; ", engine_name(e), r.message);
      last = std::move(r);
    }
    if (!last) throw std::logic_error("dispatch: no engine to run");
    last->status = Status::kUndecided;
    last->message = "no engine decided (" + skipped + ")";
    return *last;
  }
  // Cross-check: every engine, verdicts compared.
  std::vector<CheckResult> runs;
  for (Engine e : engines) runs.push_back(timed(attempt, e));
  std::vector<const CheckResult*> decided;
  auto take = [&](std::size_t i) {
    if (decisive(runs[i]) && std::find(decided.begin(), decided.end(), &runs[i]) == decided.end())
      decided.push_back(&runs[i]);
  };
  for (Engine e : auto_order)
    for (std::size_t i = 0; i < engines.size(); ++i)
      if (engines[i] == e) take(i);
  for (std::size_t i = 0; i < engines.size(); ++i) take(i);
  std::string summary;
  nlohmann::json per_engine = nlohmann::json::array();
  for (const CheckResult& r : runs) {
    summary += fmt::format("{}{} {} ({}{})", summary.empty() ? "" : "; ", r.engine, status_name(r.status),
                           time_str(r.seconds), decisive(r) || r.message.empty() ? "" : ": " + r.message);
    per_engine.push_back({{"engine", r.engine},
                          {"status", std::string(status_name(r.status))},
                          {"message", r.message},
                          {"seconds", r.seconds},
                          {"witness", r.witness}});
  }
  if (decided.empty()) {
    CheckResult r = runs.empty() ? CheckResult{} : runs.front();
    r.status = Status::kUndecided;
    r.message = "cross-check: no engine decided [" + summary + "]";
    r.engine = "cross-check";
    r.witness = {{"engines", per_engine}};
    return r;
  }
  bool agree = true;
  for (const CheckResult* r : decided) agree = agree && r->status == decided.front()->status;
  std::string names;
  for (const CheckResult* r : decided) names += (names.empty() ? "" : "+") + r->engine;
  if (!agree) {
    CheckResult r = *decided.front();
    r.status = Status::kFail;
    r.engine = names;
    r.message = fmt::format("ENGINES DISAGREE on {}: {}", r.id, summary);
    r.witness = {{"engines", per_engine}};
    return r;
  }
  CheckResult r = *decided.front();
  r.engine = names;
  r.message += " [cross-check: " + summary + "]";
  return r;
}

}  // namespace tirx::prove
