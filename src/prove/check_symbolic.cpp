// run_symbolic (tirx_verify/prove/symbolic.hpp): layout.well-formed, layout.injective and
// layout.bounds for every parameter binding at once, each "fail" re-checked by the concrete
// check at the binding the solver found.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>

#include "checks_internal.hpp"
#include "symbolic_internal.hpp"
#include "symbolic_results.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/bank_engines.hpp"
#include "tirx_verify/prove/symbolic.hpp"

namespace tirx::prove {

namespace symres {

std::string ranges_text(const std::vector<ParamRange>& ranges) {
  std::string s;
  __int128 total = 1;
  for (const ParamRange& p : ranges) {
    s += (s.empty() ? "" : ", ") + p.str();
    total *= p.count();
  }
  const std::string n = total > INT64_MAX ? std::string("more than 2^63") : fmt::format("{}", static_cast<std::int64_t>(total));
  return fmt::format("{} ({} bindings)", s, n);
}

std::string binding_text(const Env& env) {
  std::string s;
  for (const auto& [k, v] : env) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", k, v);
  return s;
}

namespace {
nlohmann::json binding_json(const Env& env) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : env) j[k] = v;
  return j;
}
}  // namespace

CheckResult at_binding(CheckResult r, const Env& binding) {
  r.message = fmt::format("[{}] {}", binding_text(binding), r.message);
  if (r.witness.is_null()) r.witness = nlohmann::json::object();
  if (r.witness.is_object()) r.witness["params"] = binding_json(binding);
  return r;
}

CheckResult plain(const std::string& id, Status status, std::string message) {
  CheckResult r;
  r.id = id;
  r.status = status;
  r.engine = "z3-symbolic";
  r.message = std::move(message);
  return r;
}

namespace {

// Re-checks a symbolic counterexample with the concrete check `run` at the binding.
CheckResult confirm(const Context& c, const std::string& id, const Env& binding, const ConcreteCheck& run) {
  CheckResult r;
  try {
    r = run(c.at(binding));
  } catch (const InputError& e) {
    r.id = id;
    r.status = Status::kFail;
    r.engine = "error";
    r.message = fmt::format("[{}] {}", e.check_id(), e.message());
  }
  r.id = id;
  if (r.status == Status::kUndecided) {
    return plain(id, Status::kUndecided,
                 fmt::format("z3-symbolic found a counterexample at {}, but the concrete check there is undecided "
                             "({}), so it is not confirmed",
                             binding_text(binding), r.message));
  }
  if (r.status != Status::kFail) {
    return plain(id, Status::kUndecided,
                 fmt::format("ENGINES DISAGREE on {}: z3-symbolic found a counterexample at {} but the concrete check "
                             "there says {} ({}); treated as undecided (engine bug)",
                             id, binding_text(binding), status_name(r.status), r.message));
  }
  r.engine = "z3-symbolic+" + r.engine;
  return at_binding(std::move(r), binding);
}

}  // namespace

// The failing binding with the smallest parameter values, in --param order (the first parameter
// as small as possible, then the next with the first fixed, ...): bisection on each parameter's
// index, asking `query` whether a failure exists below the midpoint. Z3 names an arbitrary
// binding (N=762060); a person wants the smallest (N=3). Spends at most a quarter of the Z3 time
// budget; on a limit it keeps the best binding found so far (still a failing one).
Env minimize(const Context& c, Env best, const Query& query) {
  const Stopwatch clock;
  const double budget_ms =
      std::min(static_cast<double>(c.limits.z3_timeout_ms),
               c.limits.budget ? c.limits.budget->seconds_left() * 1e3 : 1e300) / 4;
  std::vector<ParamRange> r = c.params;
  for (ParamRange& p : r) {
    const ParamRange full = p;
    std::int64_t lo_k = 0, hi_k = (best.at(full.name) - full.lo) / full.step;
    while (lo_k < hi_k) {
      const double left = budget_ms - clock.seconds() * 1e3;
      if (left < 1) return best;
      const std::int64_t mid = lo_k + (hi_k - lo_k) / 2;
      p.hi = full.lo + mid * full.step;
      EngineLimits limits = c.limits;
      limits.z3_timeout_ms = static_cast<std::int64_t>(left);
      symbolic::Answer a;
      try {
        a = query(r, limits);
      } catch (const BudgetExceeded&) {
        return best;  // still a failing binding; the command's limit is reported where it ends
      }
      if (a.status == Status::kFail && a.binding) {
        best = *a.binding;
        hi_k = (best.at(full.name) - full.lo) / full.step;
      } else if (a.status == Status::kPass) {
        lo_k = mid + 1;
      } else {
        return best;
      }
    }
    p.lo = p.hi = best.at(full.name);  // fixed for the parameters after it
    p.step = 1;
  }
  return best;
}

CheckResult from_answer(const Context& c, const std::string& id, const symbolic::Answer& a,
                        const std::string& pass_message, const ConcreteCheck& run, const Query& query) {
  if (a.status == Status::kFail && a.binding) return confirm(c, id, minimize(c, *a.binding, query), run);
  return plain(id, a.status,
               a.status == Status::kPass ? fmt::format("for all {}: {} ({})", ranges_text(c.params), pass_message, a.message)
                                         : a.message);
}

std::vector<Env> sample_bindings(const std::vector<ParamRange>& ranges) {
  std::vector<Env> out;
  auto add = [&](const Env& e) {
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  };
  std::vector<std::int64_t> k(ranges.size(), 0);
  for (int n = 0; n < 8; ++n) {
    Env e;
    for (std::size_t i = 0; i < ranges.size(); ++i) e[ranges[i].name] = ranges[i].lo + k[i] * ranges[i].step;
    add(e);
    std::size_t i = ranges.size();
    while (i > 0 && ++k[i - 1] == ranges[i - 1].count()) k[--i] = 0;
    if (i == 0) break;
  }
  const std::size_t corners = ranges.size() >= 4 ? 16 : std::size_t{1} << ranges.size();
  for (std::size_t c = 0; c < corners; ++c) {
    Env e;
    for (std::size_t i = 0; i < ranges.size(); ++i) e[ranges[i].name] = (i < 4 && ((c >> i) & 1)) ? ranges[i].last() : ranges[i].lo;
    add(e);
  }
  return out;
}

std::optional<CheckResult> sample_failure(const Context& c, const ConcreteCheck& run) {
  for (const Env& b : sample_bindings(c.params)) {
    CheckResult r;
    try {
      r = run(c.at(b));
    } catch (const InputError&) {
      continue;  // not well-formed there: layout.well-formed reports it
    }
    if (r.status == Status::kFail) {
      r.engine = "sample+" + r.engine;
      return at_binding(std::move(r), b);
    }
  }
  return std::nullopt;
}

symbolic::Answer sampled_or_query(const Context& c, const ConcreteCheck& run, const Query& query) {
  if (auto f = sample_failure(c, run)) {
    symbolic::Answer a;
    a.status = Status::kFail;
    Env b;
    for (const auto& [k, v] : f->witness.at("params").items()) b[k] = v.get<std::int64_t>();
    a.binding = std::move(b);
    return a;
  }
  return query(c.params, c.limits);
}

}  // namespace symres

namespace {

using symres::Query;
using symres::ranges_text;
using symres::at_binding;

symres::Context context(const SymbolicInput& in) { return {in.params, in.limits, in.at}; }

CheckResult from_answer(const SymbolicInput& in, const std::string& id, const symbolic::Answer& a,
                        const std::string& pass_message, CheckResult (*run)(const CheckInput&), const Query& query) {
  return symres::from_answer(context(in), id, a, pass_message, run, query);
}

// Iters (shard 0..n-1, then replica) sorted by |stride| in one concrete layout.
std::vector<std::size_t> stride_order(const TileLayout& t) {
  std::vector<std::pair<std::int64_t, std::size_t>> v;
  for (std::size_t k = 0; k < t.shard.size(); ++k) v.emplace_back(std::llabs(t.shard[k].stride), k);
  for (std::size_t k = 0; k < t.replica.size(); ++k) v.emplace_back(std::llabs(t.replica[k].stride), t.shard.size() + k);
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> out;
  for (const auto& [s, k] : v) out.push_back(k);
  return out;
}

// layout.injective for all bindings: the structural condition symbolically (params only), then
// concrete checks at sample bindings, then the full query over two points' digits; a
// counterexample from either is minimized (bisection with the digit query) and re-checked.
CheckResult injective(const SymbolicInput& in, const CheckInput& in0, const std::string& pass_message) {
  const std::string id = "layout.injective";
  std::vector<std::vector<std::size_t>> orders = {stride_order(in0.layout.tile())};
  try {
    Env last;
    for (const ParamRange& p : in.params) last[p.name] = p.last();
    const auto o = stride_order(in.at(last).layout.tile());
    if (o != orders.front()) orders.push_back(o);
  } catch (const InputError&) {
  }
  for (const auto& order : orders) {
    const symbolic::Answer a =
        symbolic::injective_structural(in.layout, in.params, in0.scope, order, in.allow_broadcast, in.limits);
    if (a.status == Status::kPass) {
      CheckResult r;
      r.id = id;
      r.status = Status::kPass;
      r.engine = "z3-symbolic(structural)";
      r.message = fmt::format("for all {}: {}: on every storage axis each stride exceeds the reach of the smaller ones "
                              "({})",
                              ranges_text(in.params), pass_message, a.message);
      return r;
    }
  }
  // A failure at a sample binding (often a corner) is minimized like the solver's own.
  const Query query = [&](const std::vector<ParamRange>& r, const EngineLimits& l) {
    return symbolic::injective(in.layout, r, in0.scope, in.allow_broadcast, l);
  };
  return from_answer(in, id, symres::sampled_or_query(context(in), check_injective, query), pass_message,
                     check_injective, query);
}

// smem.bank-conflicts for all bindings: the concrete check at sample bindings, then one Z3 query
// over the digits of the buffer and the fragment (bank_engines.hpp); a failure from either is
// minimized and re-checked at its binding.
CheckResult bank_conflicts(const SymbolicInput& in, const CheckInput& in0) {
  const std::string id = "smem.bank-conflicts";
  const int eb = in0.elem_bits / 8;
  const int width = in0.access_bytes ? in0.access_bytes : std::max(eb, 4);
  const Query query = [&](const std::vector<ParamRange>& r, const EngineLimits& l) {
    banks::SymbolicAccess sa;
    sa.buffer = in.layout;
    sa.access = *in.access;
    sa.params = r;
    sa.elem_bytes = eb;
    sa.width_bytes = width;
    sa.machine = in0.machine;
    const banks::SymbolicVerdict v = banks::z3_layout(*in0.target, sa, l);
    symbolic::Answer a;
    a.status = v.status;
    a.message = v.message;
    a.binding = v.binding;
    return a;
  };
  // A failure at a sample binding (often a corner) is minimized like the solver's own.
  return from_answer(in, id, symres::sampled_or_query(context(in), check_bank_conflicts, query),
                     fmt::format("every warp-wide {}-byte access at its ideal wavefront count", width),
                     check_bank_conflicts, query);
}

}  // namespace

unsigned symbolic_width(const SymbolicInput& in) {
  std::vector<SymExpr> extra;
  if (in.alloc_elems) extra.push_back(*in.alloc_elems);
  return symbolic::width(in.layout, in.params, extra);
}

std::vector<CheckResult> run_symbolic(const SymbolicInput& in) {
  std::vector<CheckResult> out;
  // A check that runs out of the command's budget is undecided naming it (as in run_all).
  auto budgeted = [&](std::string_view id, const std::function<CheckResult()>& f) {
    try {
      try {
        return f();
      } catch (const std::bad_alloc&) {
        throw out_of_memory(in.limits.budget, "the symbolic proof");
      }
    } catch (const BudgetExceeded& e) {
      return budget_result(id, e);
    }
  };
  Env first;
  for (const ParamRange& p : in.params) first[p.name] = p.lo;
  (void)symbolic_width(in);  // throws NotSymbolic before anything is reported

  // ---- layout.well-formed: the structural part at the first binding, extents >= 1 everywhere ----
  Stopwatch clock;
  CheckInput in0;
  try {
    in0 = in.at(first);
  } catch (const InputError& e) {
    CheckResult r;
    r.id = "layout.well-formed";
    r.status = Status::kFail;
    r.engine = "error";
    r.message = fmt::format("[{}] {}", e.check_id(), e.message());
    r.seconds = clock.seconds();
    out.push_back(at_binding(std::move(r), first));
    return out;
  }
  CheckResult wf = check_well_formed(in0);
  if (wf.status == Status::kFail) {
    wf.seconds = clock.seconds();
    out.push_back(at_binding(std::move(wf), first));
    return out;
  }
  // The shape (when given) is concrete: the layout size must equal its element count everywhere.
  std::optional<std::int64_t> size;
  if (in0.shape) size = in0.layout.size();
  const Query wf_query = [&](const std::vector<ParamRange>& r, const EngineLimits& l) {
    return symbolic::well_formed(in.layout, r, size, l);
  };
  wf = budgeted("layout.well-formed", [&] {
    return from_answer(in, "layout.well-formed", wf_query(in.params, in.limits),
                       size ? fmt::format("every extent >= 1 and {} elements", *size) : std::string("every extent >= 1"),
                       check_well_formed, wf_query);
  });
  wf.seconds = clock.seconds();
  out.push_back(wf);
  if (wf.status == Status::kFail) return out;

  // ---- layout.injective ----
  clock = Stopwatch();
  const TileLayout skel = symbolic::skeleton(in.layout);
  std::string axes_text;
  for (Axis a : storage_axes(skel, in0.scope)) axes_text += fmt::format("{}{}", axes_text.empty() ? "" : ", ", a.name());
  CheckResult inj = budgeted("layout.injective", [&] {
    return injective(in, in0, fmt::format("no two points share a storage cell on ({})", axes_text));
  });
  inj.seconds = clock.seconds();
  out.push_back(std::move(inj));

  // ---- layout.bounds ----
  clock = Stopwatch();
  std::vector<symbolic::Target> targets;
  std::string ranges_note;
  for (Axis a : skel.axes()) {
    symbolic::Target t;
    t.axis = a;
    const AxisRange r = range_for(a, in0);
    t.lo = r.lo;
    if (a == Axis(AxisId::m) && in.alloc_elems) {
      t.hi = *in.alloc_elems;
      t.why = "allocated elements " + in.alloc_elems->str();
    } else {
      if (r.hi) t.hi = SymExpr(*r.hi);
      t.why = r.why;
    }
    ranges_note += fmt::format("{}{} in [{}, {})", ranges_note.empty() ? "" : ", ", a.name(), t.lo,
                               t.hi ? t.hi->str() : std::string("inf"));
    targets.push_back(t);
    if (a == Axis(AxisId::m) && in.layout.swizzle && in.layout.swizzle->swizzle_len > 0) {
      symbolic::Target z = t;
      z.swizzled = true;
      z.why = "swizzled address inside the buffer footprint";
      targets.push_back(z);
      ranges_note += ", swizzled m inside the footprint";
    }
  }
  const Query bounds_query = [&](const std::vector<ParamRange>& r, const EngineLimits& l) {
    return symbolic::bounds(in.layout, r, targets, l);
  };
  CheckResult bnd = budgeted("layout.bounds", [&] {
    // Concrete checks at the sample bindings first (a failure is minimized like a solver's):
    // the digit query of a swizzled footprint is the slow one.
    return from_answer(in, "layout.bounds", symres::sampled_or_query(context(in), check_bounds, bounds_query),
                       ranges_note.empty() ? "no coordinates" : ranges_note, check_bounds, bounds_query);
  });
  bnd.seconds = clock.seconds();
  out.push_back(std::move(bnd));

  // ---- swizzle.legal: it reads only the swizzle parameters and the dtype, and a parameter
  // cannot appear in a swizzle argument (the symbolic subset, layout/symbolic.hpp), so the
  // first binding's answer is every binding's ----
  if (in.layout.swizzle) {
    clock = Stopwatch();
    CheckResult sw = check_swizzle_legal(in0);
    if (sw.status == Status::kPass || sw.status == Status::kFail) {
      sw.engine = "structural(binding-independent)";
      sw.message = fmt::format("for all {}: {} (the swizzle parameters and the dtype do not depend on the parameters)",
                               ranges_text(in.params), sw.message);
      sw.seconds = clock.seconds();
      out.push_back(std::move(sw));
    }
  }

  // ---- smem.bank-conflicts (with a symbolic --access fragment) ----
  if (in.access && in0.target && check_bank_conflicts(in0).status != Status::kNotApplicable) {
    clock = Stopwatch();
    CheckResult bank = budgeted("smem.bank-conflicts", [&] { return bank_conflicts(in, in0); });
    bank.seconds = clock.seconds();
    out.push_back(std::move(bank));
  }

  // ---- tmem.partition and tmem.datapath (a TMEM buffer and an --access fragment) ----
  if (in0.scope == Scope::kTmem && in0.access) {
    using Run = CheckResult (*)(const CheckInput&);
    for (const auto& [id, run] : {std::pair<const char*, Run>{"tmem.partition", check_tmem_partition},
                                  std::pair<const char*, Run>{"tmem.datapath", check_tmem_datapath}}) {
      clock = Stopwatch();
      CheckResult r = budgeted(id, [&] {
        CheckResult f;
        try {
          f = run(in0);
        } catch (const InputError& e) {  // as run_all reports it
          f.id = id;
          f.status = Status::kFail;
          f.engine = "error";
          f.message = fmt::format("[{}] {}", e.check_id(), e.message());
        }
        if (f.status == Status::kNotApplicable) return f;
        if (std::string_view(id) == "tmem.datapath") return symres::tmem_datapath_all(in, in0, f);
        if (f.status == Status::kFail) {  // the first binding is the smallest witness
          f.engine = "z3-symbolic(first binding)+" + f.engine;
          return at_binding(std::move(f), first);
        }
        return symres::tmem_partition_all(in, in0);
      });
      if (r.status == Status::kNotApplicable) continue;  // n/a at the first binding: as the sweep says
      r.seconds = clock.seconds();
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace tirx::prove
