// tmem.partition, tmem.datapath (run_symbolic, after the layout checks) and layout.equivalent
// (run_symbolic_equivalent) for every parameter binding: the encodings are in
// z3_symbolic_pairs.cpp, the scheme in tirx_verify/prove/symbolic.hpp.
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "symbolic_internal.hpp"
#include "symbolic_results.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/symbolic.hpp"

namespace tirx::prove {

namespace symres {

// A concrete layout as a symbolic one whose every integer is a constant.
SymLayout constant_layout(const Layout& l) {
  SymLayout s;
  for (const Iter& it : l.tile().shard) s.shard.push_back({SymExpr(it.extent), SymExpr(it.stride), it.axis});
  for (const Iter& it : l.tile().replica) s.replica.push_back({SymExpr(it.extent), SymExpr(it.stride), it.axis});
  for (const auto& info : axis_registry()) {
    const Axis a(info.id);
    if (l.tile().offset.has(a)) s.offset.emplace_back(a, SymExpr(l.tile().offset.get(a)));
  }
  if (const SwizzleSpec* z = l.swizzle()) s.swizzle = *z;
  return s;
}

namespace {

// The first integer of `l` (other than the TCol offset when `skip_tcol_offset`) that depends on
// the parameters, described; empty when there is none.
std::string varying_part(const SymLayout& l, bool skip_tcol_offset) {
  for (const auto& [list, kind] : {std::pair{&l.shard, "shard"}, std::pair{&l.replica, "replica"}})
    for (std::size_t k = 0; k < list->size(); ++k) {
      const SymIter& it = (*list)[k];
      if (!it.extent.is_const()) return fmt::format("{} iter {} has extent {}", kind, k, it.extent.str());
      if (!it.stride.is_const()) return fmt::format("{} iter {} has stride {}", kind, k, it.stride.str());
    }
  for (const auto& [a, v] : l.offset) {
    if (skip_tcol_offset && a == Axis(AxisId::TCol)) continue;
    if (!v.is_const()) return fmt::format("the {} offset is {}", a.name(), v.str());
  }
  return {};
}

}  // namespace

CheckResult tmem_partition_all(const SymbolicInput& in, const CheckInput& in0) {
  const std::string id = "tmem.partition";
  const Context c{in.params, in.limits, in.at};
  std::optional<SymLayout> frag = in.access;
  if (!frag && in.access_fixed) frag = constant_layout(*in.access_fixed);
  if (!frag)
    return plain(id, Status::kUndecided,
                 fmt::format("not decided symbolically: the --access fragment depends on the parameters and is outside "
                             "the symbolic subset ({})",
                             in.access_why));
  const MachineLimits ml = in0.machine;
  const Query query = [&](const std::vector<ParamRange>& r, const EngineLimits& l) {
    return symbolic::tmem_partition(in.layout, *frag, r, ml, l);
  };
  const std::int64_t part = ml.warps_per_warpgroup ? ml.tmem_lanes / ml.warps_per_warpgroup : 0;
  try {
    return from_answer(c, id, query(in.params, in.limits),
                       fmt::format("every element lies in the {}-lane TMEM sub-partition of the warp that holds it", part),
                       check_tmem_partition, query);
  } catch (const NotSymbolic& e) {  // the fragment's values are too large for the encoding
    return plain(id, Status::kUndecided, fmt::format("not decided symbolically: the --access fragment: {}", e.what()));
  }
}

CheckResult tmem_datapath_all(const SymbolicInput& in, const CheckInput& in0, const CheckResult& first) {
  const std::string id = "tmem.datapath";
  const Context c{in.params, in.limits, in.at};
  Env first_binding;
  for (const ParamRange& p : in.params) first_binding[p.name] = p.lo;
  // The check compares canonical forms with the data-path factories: decidable for all bindings
  // only when it sees the same layouts at every binding (the TCol base aside).
  std::string varies = varying_part(in.layout, true);
  if (!varies.empty()) varies = "the TMEM buffer's " + varies;
  if (varies.empty()) {
    if (in.access) {
      const std::string v = varying_part(*in.access, false);
      if (!v.empty()) varies = "the --access fragment's " + v;
    } else if (!in.access_fixed) {
      varies = fmt::format("the --access fragment depends on the parameters and is outside the symbolic subset ({})",
                           in.access_why);
    }
  }
  if (!varies.empty())
    return plain(id, Status::kUndecided,
                 fmt::format("not decided symbolically: tmem.datapath compares canonical forms with the data-path "
                             "factories and the atoms, which has no symbolic encoding, and {}",
                             varies));
  if (first.status == Status::kFail) {
    // The same layouts fail the same way at every binding whose base is a whole column in
    // range, and every other binding fails on the base: the first binding is the smallest witness.
    CheckResult r = first;
    r.engine = "z3-symbolic(binding-independent)+" + r.engine;
    return at_binding(std::move(r), first_binding);
  }
  if (first.status != Status::kPass) return first;
  SymExpr col(0);
  for (const auto& [a, v] : in.layout.offset)
    if (a == Axis(AxisId::TCol)) col = v;
  const int epb = 32 / in0.elem_bits;
  const Query query = [&](const std::vector<ParamRange>& r, const EngineLimits& l) {
    return symbolic::tcol_base_outside(col, epb, r, l);
  };
  CheckResult r = from_answer(
      c, id, query(in.params, in.limits),
      fmt::format("the buffer (TCol base aside) and the fragment are the same layouts at every binding and the TCol "
                  "base {} is a whole 32-bit column in [0, 65536) columns; at the first binding: {}",
                  col.str(), first.message),
      check_tmem_datapath, query);
  if (r.status == Status::kPass) r.engine = "z3-symbolic(binding-independent)";
  return r;
}

}  // namespace symres

CheckResult run_symbolic_equivalent(const SymbolicEquivalenceInput& in) {
  const std::string id = "layout.equivalent";
  const symres::Context c{in.params, in.limits, in.at};
  const Stopwatch clock;
  for (const SymLayout* l : {&in.a, &in.b}) (void)symbolic::width(*l, in.params);  // NotSymbolic before anything
  // Bad input at some binding (an extent < 1, a size other than the shape's): the concrete
  // check's error at the smallest such binding, as a sweep would stop on it.
  for (const SymLayout* l : {&in.a, &in.b}) {
    const symres::Query wf = [&](const std::vector<ParamRange>& r, const EngineLimits& lim) {
      return symbolic::well_formed(*l, r, in.shape_elems, lim);
    };
    const symbolic::Answer a = wf(in.params, in.limits);
    if (a.status == Status::kFail && a.binding) {
      const Env b = symres::minimize(c, *a.binding, wf);
      try {
        (void)check_equivalent(in.at(b));
      } catch (const InputError& e) {
        throw InputError(e.check_id(), fmt::format("[{}] {}", symres::binding_text(b), e.message()), e.text(), e.pos(),
                         e.note());
      }
      return symres::plain(id, Status::kUndecided,
                           fmt::format("ENGINES DISAGREE on {}: z3-symbolic found a binding {} that is not a valid "
                                       "input, but the concrete check accepts it; treated as undecided (engine bug)",
                                       id, symres::binding_text(b)));
    }
    if (a.status == Status::kUndecided) return symres::plain(id, Status::kUndecided, a.message);
  }
  const auto run = [](const CheckInput& ci) { return check_equivalent(ci); };
  const symres::Query query = [&](const std::vector<ParamRange>& r, const EngineLimits& l) {
    return symbolic::equivalent(in.a, in.b, r, in.shape_elems, l);
  };
  // A failure at a sample binding is minimized like a solver's (it may be a corner of the box).
  const symbolic::Answer a = symres::sampled_or_query(c, run, query);
  CheckResult r = symres::from_answer(c, id, a, "both layouts map every element to the same image set", run, query);
  r.seconds = clock.seconds();
  return r;
}

}  // namespace tirx::prove
