// The symbolic engine's Z3 queries (symbolic_internal.hpp; the scheme is in
// tirx_verify/prove/symbolic.hpp): parameters, SymExpr terms and layout digits as W-bit vectors.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "symbolic_internal.hpp"
#include "z3_encode.hpp"
#include "z3_symbolic_terms.hpp"

namespace tirx::prove::symbolic {

namespace {

template <class F>
Answer guarded(const EngineLimits& limits, F&& body) {
  return z3enc::guarded<Answer>(limits, std::forward<F>(body));
}

// A params-only question "is `bad` satisfiable for some binding?", first over integers with at
// most a quarter of the time left (nonlinear integer arithmetic may answer unknown), then over
// bit-vectors with the rest. build(t) returns the formula (nullopt: nothing can go wrong).
template <class Build>
Answer params_query(z3enc::Session& session, unsigned w, const std::vector<ParamRange>& ranges, Build build) {
  Answer ans;
  for (const bool ints : {true, false}) {
    const Terms t(session.ctx(), ints, w, ranges);
    const std::optional<z3::expr> bad = build(t);
    if (!bad) {
      ans.status = Status::kPass;
      ans.message = "nothing to check";
      return ans;
    }
    z3::solver s = t.solver();
    for (const auto& d : t.domain()) s.add(d);
    s.add(*bad);
    switch (session.check(s, ints ? 0.25 : 1.0)) {
      case z3::unsat: ans.status = Status::kPass; ans.message = t.note(); return ans;
      case z3::sat: ans.status = Status::kFail; ans.binding = t.binding(s.get_model()); return ans;
      default: ans.status = Status::kUndecided; ans.message = session.why(); break;
    }
    if (session.out_of_time()) break;
  }
  return ans;
}

}  // namespace

TileLayout skeleton(const SymLayout& l) {
  TileLayout t;
  for (const SymIter& it : l.shard) t.shard.push_back(Iter{1, 0, it.axis});
  for (const SymIter& it : l.replica) t.replica.push_back(Iter{1, 0, it.axis});
  for (const auto& [a, v] : l.offset) t.offset.add(a, 0);
  return t;
}

unsigned width(const SymLayout& l, const std::vector<ParamRange>& ranges, const std::vector<SymExpr>& extra) {
  u128 big = 1;
  auto take = [&](u128 v) {
    if (v >= kMaxMagnitude)
      throw NotSymbolic("a value of the layout can reach 2^63 over the parameter ranges (int64 overflow is possible)",
                        0);
    big = std::max(big, v);
  };
  for (const ParamRange& p : ranges) {
    take(absv(p.lo));
    take(absv(p.last()));
    take(static_cast<u128>(p.count()));
  }
  u128 size = 1;
  for (const auto* list : {&l.shard, &l.replica})
    for (const SymIter& it : *list) {
      take(it.extent.max_magnitude(ranges));
      take(it.stride.max_magnitude(ranges));
      const auto e = it.extent.bounds(ranges);
      size *= std::max<u128>({absv(e.lo), absv(e.hi), 1});
      take(size);
    }
  for (const auto& [a, v] : l.offset) take(v.max_magnitude(ranges));
  for (const SymExpr& e : extra) take(e.max_magnitude(ranges));
  for (const auto& [axis, r] : axis_reach(l, ranges)) take(r);
  unsigned w = bit_length(big) + 3;
  if (l.swizzle) {
    const SwizzleSpec& z = *l.swizzle;
    // The footprint bounds of a swizzled view go up to one period past the reach.
    take(big + (static_cast<u128>(1) << (z.per_element + z.swizzle_len + z.atom_len)));
    w = std::max<unsigned>(bit_length(big) + 3, static_cast<unsigned>(z.per_element + z.swizzle_len + z.atom_len + 3));
  }
  return std::max(w, 8u);
}

Answer well_formed(const SymLayout& l, const std::vector<ParamRange>& ranges, std::optional<std::int64_t> size,
                   const EngineLimits& limits) {
  return guarded(limits, [&] {
    z3enc::Session session(limits);
    std::vector<SymExpr> extra;
    if (size) extra.emplace_back(*size);
    return params_query(session, width(l, ranges, extra), ranges, [&](const Terms& t) -> std::optional<z3::expr> {
      z3::expr_vector bad(t.ctx());
      for (const auto& e : extents_positive(t, l)) bad.push_back(!e);
      if (size) {
        z3::expr prod = t.num(1);
        for (const SymIter& it : l.shard) prod = prod * t.term(it.extent);
        bad.push_back(prod != t.num(*size));
      }
      if (bad.empty()) return std::nullopt;
      return z3::mk_or(bad);
    });
  });
}

Answer injective(const SymLayout& l, const std::vector<ParamRange>& ranges, Scope scope, bool allow_broadcast,
                 const EngineLimits& limits) {
  return guarded(limits, [&] {
    Answer ans;
    z3enc::Session session(limits);
    z3::context& ctx = session.ctx();
    // The swizzle-is-a-bijection rule: a valid swizzle (S >= B) is a bijection of m applied to m
    // alone, so two points share a swizzled cell exactly when they share a tile cell: the tile
    // values are compared and no XOR is encoded (an invalid swizzle keeps the XOR; no binding of
    // it is well-formed anyway). Without an XOR the query is tried over integers first (linear
    // where the strides are constants: no bit-blasting of wide multipliers), with half the time.
    const bool by_tile = !l.swizzle || l.swizzle->atom_len >= l.swizzle->swizzle_len;
    std::vector<bool> arithmetics = {false};
    if (by_tile) arithmetics.insert(arithmetics.begin(), true);
    for (const bool ints : arithmetics) {
      const Terms t(ctx, ints, width(l, ranges), ranges);
      const Point p = encode(t, l, ranges, "p_", allow_broadcast), q = encode(t, l, ranges, "q_", allow_broadcast);
      z3::solver s = t.solver();
      for (const auto& d : t.domain()) s.add(d);
      for (const auto& e : extents_positive(t, l)) s.add(e);
      for (const auto& c : p.constraints) s.add(c);
      for (const auto& c : q.constraints) s.add(c);
      for (Axis a : storage_axes(skeleton(l), scope)) s.add(p.on(t, a, !by_tile) == q.on(t, a, !by_tile));
      z3::expr_vector differ(ctx);
      for (std::size_t i = 0; i < p.vars.size(); ++i) differ.push_back(p.vars[i] != q.vars[i]);
      s.add(differ.empty() ? ctx.bool_val(false) : z3::mk_or(differ));
      switch (session.check(s, ints ? 0.5 : 1.0)) {
        case z3::unsat:
          ans.status = Status::kPass;
          ans.message = t.note() + (l.swizzle ? "; decided on the tile (the swizzle is a bijection of m)" : "");
          return ans;
        case z3::sat: ans.status = Status::kFail; ans.binding = t.binding(s.get_model()); return ans;
        default: ans.status = Status::kUndecided; ans.message = session.why(); break;
      }
      if (session.out_of_time()) break;
    }
    return ans;
  });
}

Answer injective_structural(const SymLayout& l, const std::vector<ParamRange>& ranges, Scope scope,
                            const std::vector<std::size_t>& order, bool allow_broadcast, const EngineLimits& limits) {
  return guarded(limits, [&] {
    z3enc::Session session(limits);
    const std::vector<Axis> cell = storage_axes(skeleton(l), scope);
    // +1 bit: a reach sum plus one more |stride|.
    return params_query(session, width(l, ranges) + 1, ranges, [&](const Terms& t) -> std::optional<z3::expr> {
      z3::expr_vector broken(t.ctx());
      std::map<int, z3::expr> reach;
      const z3::expr zero = t.num(0), one = t.num(1);
      for (std::size_t idx : order) {
        const bool is_shard = idx < l.shard.size();
        const SymIter& it = is_shard ? l.shard[idx] : l.replica[idx - l.shard.size()];
        const z3::expr ext = t.term(it.extent), st = t.term(it.stride);
        // A stride-0 shard iter moves no cell; it is left out only as a declared broadcast,
        // otherwise it breaks the condition below (|0| <= the reach before it).
        const z3::expr moves = is_shard && allow_broadcast ? (t.lt(one, ext) && st != zero) : t.lt(one, ext);
        const bool on_cell = std::find(cell.begin(), cell.end(), it.axis) != cell.end();
        if (!on_cell) {  // a moving iter off the cell is not separated at all
          broken.push_back(moves);
          continue;
        }
        if (!is_shard) broken.push_back(moves && st == zero);  // replica copies on one cell
        auto r = reach.find(it.axis.index());
        const z3::expr before = r == reach.end() ? zero : r->second;
        broken.push_back(moves && t.le(t.abs(st), before));
        const z3::expr after = before + z3::ite(moves, (ext - one) * t.abs(st), zero);
        if (r == reach.end()) reach.emplace(it.axis.index(), after);
        else r->second = after;
      }
      if (broken.empty()) return std::nullopt;
      z3::expr_vector wf(t.ctx());
      for (const auto& e : extents_positive(t, l)) wf.push_back(e);
      return (wf.empty() ? t.ctx().bool_val(true) : z3::mk_and(wf)) && z3::mk_or(broken);
    });
  });
}

Answer bounds(const SymLayout& l, const std::vector<ParamRange>& ranges, const std::vector<Target>& targets,
              const EngineLimits& limits) {
  return guarded(limits, [&] {
    z3enc::Session session(limits);
    std::vector<SymExpr> extra;
    for (const Target& tg : targets)
      if (tg.hi) extra.push_back(*tg.hi);
    const unsigned w = width(l, ranges, extra);
    const Axis m(AxisId::m);
    // The smallest and largest value on an axis: offset + sum of min(0, (e-1)*s), resp. max(0, ..)
    // (every digit varies on its own, so the extremes of an affine value are at a corner).
    struct Extremes {
      z3::expr off, lo, hi, span;
    };
    auto extremes = [&](const Terms& t, Axis a) {
      Extremes x{t.num(0), t.num(0), t.num(0), t.num(1)};
      for (const auto& [axis, v] : l.offset)
        if (axis == a) x.off = t.term(v);
      for (const auto* list : {&l.shard, &l.replica})
        for (const SymIter& it : *list) {
          if (it.axis != a) continue;
          const z3::expr reach = (t.term(it.extent) - t.num(1)) * t.term(it.stride);
          x.lo = x.lo + t.min0(reach);
          x.hi = x.hi + t.max0(reach);
          x.span = x.span + reach;
        }
      x.lo = x.off + x.lo;
      x.hi = x.off + x.hi;
      x.span = x.span + x.off;
      return x;
    };
    auto well_formed_binding = [&](const Terms& t) {
      z3::expr_vector wf(t.ctx());
      for (const auto& e : extents_positive(t, l)) wf.push_back(e);
      return wf.empty() ? t.ctx().bool_val(true) : z3::mk_and(wf);
    };
    Answer ans;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const Target& tg = targets[i];
      if (!tg.swizzled) {  // params only: the extremes against the range
        ans = params_query(session, w, ranges, [&](const Terms& t) -> std::optional<z3::expr> {
          const Extremes x = extremes(t, tg.axis);
          z3::expr out = t.lt(x.lo, t.num(tg.lo));
          if (tg.hi) out = out || t.le(t.term(*tg.hi), x.hi);
          return well_formed_binding(t) && out;
        });
      } else {
        // bound_targets (ranges.cpp): a whole buffer (m offset 0) keeps the swizzled address in
        // [0, span); a view with an m offset stays inside the swizzle periods it touches.
        const int k = l.swizzle->per_element + l.swizzle->swizzle_len + l.swizzle->atom_len;
        // The period rule first: the swizzle keeps m inside its aligned 2^k block, so where the
        // tile's m interval rounded out to whole blocks lies inside the footprint, no swizzled
        // address leaves it. A params-only query for the bindings where the rule does not decide;
        // none: pass without encoding the XOR.
        auto rule_fails = [&](const Terms& t) {
          const Extremes x = extremes(t, m);
          const z3::expr period = t.num(std::int64_t{1} << k);
          auto floor_block = [&](const z3::expr& v) {  // floor(v / P) * P
            if (t.ints()) {
              const z3::expr q = v / period;  // Euclidean; P > 0, so this is floor
              return q * period;
            }
            return z3::shl(z3::ashr(v, t.num(k)), t.num(k));
          };
          const z3::expr whole = x.off == t.num(0);
          const z3::expr lo = z3::ite(whole, t.num(0), floor_block(x.lo));
          z3::expr limit = z3::ite(whole, x.span, floor_block(x.hi) + period);
          if (tg.hi) limit = z3::ite(t.lt(t.term(*tg.hi), limit), t.term(*tg.hi), limit);
          return t.lt(floor_block(x.lo), lo) || t.lt(limit, floor_block(x.hi) + period);
        };
        const Answer rule = params_query(session, w, ranges, [&](const Terms& t) -> std::optional<z3::expr> {
          return well_formed_binding(t) && rule_fails(t);
        });
        if (rule.status == Status::kPass) {
          ans.status = Status::kPass;
          ans.message = "the tile's m interval rounded out to whole swizzle periods lies in the footprint for every "
                        "binding (period rule, no XOR encoded)";
          continue;
        }
        // Where the rule does not decide: over the digits of one point, in bit-vectors (the
        // swizzle acts on bits), only at the bindings the rule leaves open.
        const Terms t(session.ctx(), false, w, ranges);
        const Point p = encode(t, l, ranges, "", false);
        const Extremes x = extremes(t, m);
        const z3::expr period = t.num(std::int64_t{1} << k), shift = t.num(k);
        const z3::expr whole = x.off == t.num(0);
        const z3::expr lo = z3::ite(whole, t.num(0), z3::shl(z3::ashr(x.lo, shift), shift));
        z3::expr limit = z3::ite(whole, x.span, z3::shl(z3::ashr(x.hi, shift), shift) + period);
        if (tg.hi) limit = z3::ite(t.lt(t.term(*tg.hi), limit), t.term(*tg.hi), limit);
        z3::solver s = t.solver();
        for (const auto& d : t.domain()) s.add(d);
        s.add(well_formed_binding(t));
        s.add(rule_fails(t));
        for (const auto& c : p.constraints) s.add(c);
        const z3::expr v = p.on(t, m, true);
        s.add(t.lt(v, lo) || t.le(limit, v));
        switch (session.check(s)) {
          case z3::unsat: ans.status = Status::kPass; ans.message = t.note(); break;
          case z3::sat: ans.status = Status::kFail; ans.binding = t.binding(s.get_model()); break;
          default: ans.status = Status::kUndecided; ans.message = session.why(); break;
        }
      }
      if (ans.status != Status::kPass) {
        ans.target = i;
        return ans;
      }
    }
    ans.status = Status::kPass;
    ans.message = fmt::format("{} range queries unsat", targets.size());
    return ans;
  });
}

}  // namespace tirx::prove::symbolic
