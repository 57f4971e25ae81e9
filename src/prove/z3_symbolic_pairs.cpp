// The symbolic engine's queries over two layouts tied by the flat element index
// (symbolic_internal.hpp): tmem.partition and layout.equivalent for every binding, and the
// params-only TCol base query of tmem.datapath. Same scheme as z3_symbolic.cpp: parameters as
// bit-vector indexes, digits as narrow variables zero-extended to W bits, one solver call.
#include <fmt/format.h>

#include <algorithm>

#include "symbolic_internal.hpp"
#include "z3_encode.hpp"
#include "z3_symbolic_terms.hpp"

namespace tirx::prove::symbolic {

namespace {

template <class F>
Answer guarded_pairs(const EngineLimits& limits, F&& body) {
  return z3enc::guarded<Answer>(limits, std::forward<F>(body));
}

// The constraints that tie element e of `a` (point pa) to element e of `b` (point pb). The
// shard iters both layouts end with, written alike (the same extent expressions), split e alike:
// those digits are equal. The rest are tied by their flat indexes (products of the remaining
// extents only: for layouts written alike no product is encoded, for a constant prefix the
// weights are constants).
std::vector<z3::expr> same_element(const Terms& t, const SymLayout& a, const Point& pa, const SymLayout& b,
                                   const Point& pb) {
  std::size_t na = a.shard.size(), nb = b.shard.size();
  std::vector<z3::expr> out;
  while (na > 0 && nb > 0 && a.shard[na - 1].extent.str() == b.shard[nb - 1].extent.str()) {
    --na, --nb;
    out.push_back(pa.vars[na] == pb.vars[nb]);
  }
  auto prefix_flat = [&](const SymLayout& l, const Point& p, std::size_t n) {
    z3::expr flat = t.num(0), weight = t.num(1);
    for (std::size_t k = n; k-- > 0;) {
      flat = flat + p.vars[k] * weight;
      weight = weight * t.term(l.shard[k].extent);
    }
    return flat;
  };
  if (na > 0 || nb > 0) out.push_back(prefix_flat(a, pa, na) == prefix_flat(b, pb, nb));
  return out;
}

z3::expr size_of(const Terms& t, const SymLayout& l) {
  z3::expr n = t.num(1);
  for (const SymIter& it : l.shard) n = n * t.term(it.extent);
  return n;
}

z3::expr all_of(z3::context& ctx, const std::vector<z3::expr>& v) {
  z3::expr_vector e(ctx);
  for (const auto& x : v) e.push_back(x);
  return e.empty() ? ctx.bool_val(true) : z3::mk_and(e);
}

// The query of every pair check: over the parameter domain and positive extents of both layouts,
// the sizes differ (from each other or from `size`), or every condition of `element` holds.
z3::solver size_or_element_query(const Terms& t, const SymLayout& a, const SymLayout& b,
                                 const std::optional<std::int64_t>& size, const std::vector<z3::expr>& element) {
  z3::context& ctx = t.ctx();
  std::vector<z3::expr> wf = extents_positive(t, a);
  for (const auto& e : extents_positive(t, b)) wf.push_back(e);
  const z3::expr na = size_of(t, a), nb = size_of(t, b);
  z3::expr bad_size = na != nb;
  if (size) bad_size = bad_size || na != t.num(*size) || nb != t.num(*size);
  z3::solver s = t.solver();
  for (const auto& d : t.domain()) s.add(d);
  s.add(all_of(ctx, wf));
  s.add(bad_size || all_of(ctx, element));
  return s;
}

// The replica digit assignments of `l` (those iters whose index `pick` accepts) over the largest
// extents of the ranges, each with the condition that the copy exists at the binding. nullopt:
// more than kMaxExpandedCopies assignments.
struct Copy {
  z3::expr_vector from, to;  // digit terms of `p` -> their values in this copy
  z3::expr exists;
};
template <class Pick>
std::optional<std::vector<Copy>> expand_copies(const Terms& t, const SymLayout& l, const std::vector<ParamRange>& ranges,
                                               const Point& p, Pick pick) {
  z3::context& ctx = t.ctx();
  std::vector<std::size_t> iters;
  std::vector<std::int64_t> top;
  __int128 count = 1;
  for (std::size_t k = 0; k < l.replica.size(); ++k) {
    if (!pick(k)) continue;
    const auto b = l.replica[k].extent.bounds(ranges);
    const std::int64_t hi = b.hi < 1 ? 1 : static_cast<std::int64_t>(std::min<__int128>(b.hi, kMaxExpandedCopies + 1));
    count *= hi;
    if (count > kMaxExpandedCopies) return std::nullopt;
    iters.push_back(k);
    top.push_back(hi);
  }
  std::vector<Copy> out;
  std::vector<std::int64_t> v(iters.size(), 0);
  while (true) {
    Copy c{z3::expr_vector(ctx), z3::expr_vector(ctx), ctx.bool_val(true)};
    std::vector<z3::expr> exists;
    for (std::size_t j = 0; j < iters.size(); ++j) {
      const std::size_t k = iters[j];
      // Substitute the narrow digit variable under its zero extension (encode()).
      const z3::expr d = p.vars[l.shard.size() + k];
      const z3::expr narrow = d.num_args() == 1 ? d.arg(0) : d;
      c.from.push_back(narrow);
      c.to.push_back(ctx.bv_val(static_cast<std::uint64_t>(v[j]), narrow.get_sort().bv_size()));
      if (v[j] > 0) exists.push_back(t.lt(t.num(v[j]), t.term(l.replica[k].extent)));
    }
    c.exists = all_of(ctx, exists);
    out.push_back(std::move(c));
    std::size_t j = iters.size();
    while (j > 0 && ++v[j - 1] == top[j - 1]) v[--j] = 0;
    if (j == 0) break;
  }
  return out;
}

z3::expr substituted(const z3::expr& e, const Copy& c) {
  if (c.from.empty()) return e;
  z3::expr_vector from = c.from, to = c.to;
  return z3::expr(e).substitute(from, to);
}

Answer solve(z3enc::Session& session, const Terms& t, z3::solver& s, double share = 1.0) {
  Answer ans;
  switch (session.check(s, share)) {
    case z3::unsat: ans.status = Status::kPass; ans.message = t.note(); break;
    case z3::sat: ans.status = Status::kFail; ans.binding = t.binding(s.get_model()); break;
    default: ans.status = Status::kUndecided; ans.message = session.why(); break;
  }
  return ans;
}

unsigned bits_of(std::int64_t v) { return bit_length(static_cast<u128>(v < 0 ? -v : v)); }

}  // namespace

Answer tmem_partition(const SymLayout& buffer, const SymLayout& fragment, const std::vector<ParamRange>& ranges,
                      const MachineLimits& ml, const EngineLimits& limits) {
  return guarded_pairs(limits, [&] {
    Answer ans;
    if (ml.warp_size < 1 || ml.warps_per_warpgroup < 1 || ml.tmem_lanes < 1) {
      ans.message = "the target has no tensor memory";
      return ans;
    }
    const std::int64_t ws = ml.warp_size, wpw = ml.warps_per_warpgroup, wg = ws * wpw;
    const std::int64_t part = ml.tmem_lanes / wpw;
    // The thread index sums five axes and scales two of them: a few bits over the layouts' own.
    const unsigned w = std::max(width(buffer, ranges), width(fragment, ranges)) + bits_of(wg) + bits_of(part) + 4;
    z3enc::Session session(limits);
    z3::context& ctx = session.ctx();
    const Terms t(ctx, false, w, ranges);
    const Point pb = encode(t, buffer, ranges, "b_", false), pf = encode(t, fragment, ranges, "f_", false);
    const Axis lane_axis(AxisId::TLane);
    // Copies of the buffer that may move the lane: its replica iters on TLane; the others do not
    // change the lane and stay at digit 0, as the fragment's replica digits (apply() gives copy 0).
    const auto copies = expand_copies(t, buffer, ranges, pb, [&](std::size_t k) { return buffer.replica[k].axis == lane_axis; });
    if (!copies) {
      ans.message = fmt::format("the buffer's replica iters on TLane give more than {} copies at the largest extents of "
                                "the ranges (an element passes when ANY copy is in the warp's lanes; the symbolic "
                                "encoding expands copies and does not quantify over them)",
                                kMaxExpandedCopies);
      return ans;
    }
    std::vector<z3::expr> element = pb.constraints;
    element.insert(element.end(), pf.constraints.begin(), pf.constraints.end());
    for (std::size_t k = 0; k < buffer.replica.size(); ++k)
      if (buffer.replica[k].axis != lane_axis) element.push_back(pb.vars[buffer.shard.size() + k] == t.num(0));
    for (std::size_t k = 0; k < fragment.replica.size(); ++k)
      element.push_back(pf.vars[fragment.shard.size() + k] == t.num(0));
    for (const auto& e : same_element(t, buffer, pb, fragment, pf)) element.push_back(e);
    auto on = [&](AxisId a) { return pf.on(t, Axis(a), false); };
    const z3::expr thread = on(AxisId::tx) + on(AxisId::tid_in_wg) + on(AxisId::laneid) +
                            t.num(ws) * (on(AxisId::wid_in_wg) + on(AxisId::warpid)) + t.num(wg) * on(AxisId::wgid);
    const z3::expr warp =
        z3::srem(z3::to_expr(ctx, Z3_mk_bvsdiv(ctx, thread, t.num(ws))), t.num(wpw));  // C++ / and %: truncating
    const z3::expr lo = t.num(part) * warp, hi = t.num(part) * (warp + t.num(1));
    const z3::expr lane = pb.on(t, lane_axis, false);
    for (const Copy& c : *copies) {
      const z3::expr l = substituted(lane, c);
      element.push_back(z3::implies(c.exists, t.lt(l, lo) || t.le(hi, l)));
    }
    z3::solver s = size_or_element_query(t, buffer, fragment, std::nullopt, element);
    Answer ans2 = solve(session, t, s);
    if (ans2.status == Status::kFail) {  // the element the model names (when the sizes agree there)
      const z3::model model = s.get_model();
      if (model.eval(size_of(t, buffer) == size_of(t, fragment), true).is_true()) {
        z3::expr flat = t.num(0), weight = t.num(1);
        for (std::size_t k = buffer.shard.size(); k-- > 0;) {
          flat = flat + pb.vars[k] * weight;
          weight = weight * t.term(buffer.shard[k].extent);
        }
        ans2.element = z3enc::numeral(model.eval(flat, true));
      }
    }
    return ans2;
  });
}

Answer equivalent(const SymLayout& a, const SymLayout& b, const std::vector<ParamRange>& ranges,
                  std::optional<std::int64_t> size, const EngineLimits& limits) {
  return guarded_pairs(limits, [&] {
    Answer ans;
    std::vector<SymExpr> extra;
    if (size) extra.emplace_back(*size);
    const unsigned w = std::max(width(a, ranges, extra), width(b, ranges, extra)) + 1;
    // The swizzle is a bijection of m applied to m alone: the same one on both sides changes
    // no comparison, so the tiles are compared (no XOR in the query).
    const bool same_swizzle = a.swizzle && b.swizzle && *a.swizzle == *b.swizzle;
    z3enc::Session session(limits);
    z3::context& ctx = session.ctx();
    const Terms t(ctx, false, w, ranges);
    const Point pa = encode(t, a, ranges, "a_", false), pb = encode(t, b, ranges, "b_", false);
    std::vector<Axis> axes = skeleton(a).axes();
    for (Axis x : skeleton(b).axes())
      if (std::find(axes.begin(), axes.end(), x) == axes.end()) axes.push_back(x);
    auto all = [](std::size_t) { return true; };
    // The same replica iters on both sides (written alike): equal replica-free images for every
    // element imply equal image sets (each set is the replica-free image plus one common set of
    // copy offsets). Tried first; only its "pass" is conclusive.
    bool same_replicas = a.replica.size() == b.replica.size() && !a.replica.empty();
    for (std::size_t k = 0; same_replicas && k < a.replica.size(); ++k)
      same_replicas = a.replica[k].axis == b.replica[k].axis && a.replica[k].extent.str() == b.replica[k].extent.str() &&
                      a.replica[k].stride.str() == b.replica[k].stride.str();
    if (same_replicas && !(a.swizzle && !same_swizzle)) {
      std::vector<z3::expr> element = pa.constraints;
      element.insert(element.end(), pb.constraints.begin(), pb.constraints.end());
      for (const auto& e : same_element(t, a, pa, b, pb)) element.push_back(e);
      for (std::size_t k = 0; k < a.replica.size(); ++k) {
        element.push_back(pa.vars[a.shard.size() + k] == t.num(0));
        element.push_back(pb.vars[b.shard.size() + k] == t.num(0));
      }
      z3::expr_vector ne(ctx);
      for (Axis ax : axes) ne.push_back(pa.on(t, ax, !same_swizzle) != pb.on(t, ax, !same_swizzle));
      element.push_back(ne.empty() ? ctx.bool_val(false) : z3::mk_or(ne));
      z3::solver s = size_or_element_query(t, a, b, size, element);
      Answer first = solve(session, t, s, 0.5);
      if (first.status == Status::kPass) {
        first.message += "; both layouts have the same replica iters and equal images without them";
        if (same_swizzle) first.message += "; the same swizzle, a bijection of m: the tiles were compared";
        return first;
      }
    }
    const auto ca = expand_copies(t, a, ranges, pa, all), cb = expand_copies(t, b, ranges, pb, all);
    if (!ca || !cb) {
      ans.message = fmt::format("the {} layout's replica iters give more than {} copies at the largest extents of the "
                                "ranges (image sets are compared by expanding the other side's copies, not by a "
                                "quantifier)",
                                !ca ? "first" : "second", kMaxExpandedCopies);
      return ans;
    }
    // "Some image of x (its replica digits free) is none of the images of y."
    auto escapes = [&](const Point& x, const Point& y, const std::vector<Copy>& y_copies) {
      std::vector<z3::expr> every;
      for (const Copy& c : y_copies) {
        z3::expr_vector ne(ctx);
        for (Axis ax : axes)
          ne.push_back(x.on(t, ax, !same_swizzle) != substituted(y.on(t, ax, !same_swizzle), c));
        every.push_back(z3::implies(c.exists, ne.empty() ? ctx.bool_val(false) : z3::mk_or(ne)));
      }
      return all_of(ctx, every);
    };
    std::vector<z3::expr> element = pa.constraints;
    element.insert(element.end(), pb.constraints.begin(), pb.constraints.end());
    for (const auto& e : same_element(t, a, pa, b, pb)) element.push_back(e);
    element.push_back(escapes(pa, pb, *cb) || escapes(pb, pa, *ca));
    z3::solver s = size_or_element_query(t, a, b, size, element);
    ans = solve(session, t, s);
    if (ans.status == Status::kPass && same_swizzle)
      ans.message += "; both layouts carry the same swizzle, a bijection of m: the tiles were compared";
    return ans;
  });
}

Answer tcol_base_outside(const SymExpr& col, int epb, const std::vector<ParamRange>& ranges, const EngineLimits& limits) {
  return guarded_pairs(limits, [&] {
    Answer ans;
    const std::int64_t top = std::int64_t{65536} * epb;
    const u128 mag = std::max<u128>(col.max_magnitude(ranges), static_cast<u128>(top));
    if (mag >= kMaxMagnitude) {
      ans.message = "the TCol offset can reach 2^63 over the ranges";
      return ans;
    }
    const unsigned w = std::max(bit_length(mag) + 3, 8u);
    z3enc::Session session(limits);
    for (const bool ints : {true, false}) {
      const Terms t(session.ctx(), ints, w, ranges);
      const z3::expr c = t.term(col);
      // c >= 0 here, so floor and truncating remainders agree.
      const z3::expr rem = ints ? z3::mod(c, t.num(epb)) : z3::srem(c, t.num(epb));
      z3::solver s = t.solver();
      for (const auto& d : t.domain()) s.add(d);
      s.add(t.lt(c, t.num(0)) || rem != t.num(0) || t.le(t.num(top), c));
      ans = solve(session, t, s, ints ? 0.25 : 1.0);
      if (ans.status != Status::kUndecided || session.out_of_time()) break;
    }
    return ans;
  });
}

}  // namespace tirx::prove::symbolic
