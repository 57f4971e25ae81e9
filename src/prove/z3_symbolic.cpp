// The symbolic engine's Z3 queries (symbolic_internal.hpp; the scheme is in
// tirx_verify/prove/symbolic.hpp): parameters, SymExpr terms and layout digits as W-bit vectors.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "symbolic_internal.hpp"
#include "z3_encode.hpp"

namespace tirx::prove::symbolic {

namespace {

using u128 = unsigned __int128;
constexpr u128 kMaxMagnitude = static_cast<u128>(1) << 62;

unsigned bit_length(u128 v) {
  unsigned n = 0;
  while (v) {
    ++n;
    v >>= 1;
  }
  return n;
}

u128 absv(__int128 v) { return static_cast<u128>(v < 0 ? -v : v); }

// The reach of one axis over all bindings: sum of (extent-1)*|stride| over the iters on it plus
// |offset| (an upper bound of |value| for every point of every binding).
std::map<int, u128> axis_reach(const SymLayout& l, const std::vector<ParamRange>& r) {
  std::map<int, u128> reach;
  for (const auto* list : {&l.shard, &l.replica})
    for (const SymIter& it : *list) {
      const auto e = it.extent.bounds(r);
      const u128 ext = e.hi > 0 ? static_cast<u128>(e.hi) : 0;
      const auto s = it.stride.bounds(r);
      reach[it.axis.index()] += (ext ? ext - 1 : 0) * std::max(absv(s.lo), absv(s.hi));
    }
  for (const auto& [a, v] : l.offset) {
    const auto b = v.bounds(r);
    reach[a.index()] += std::max(absv(b.lo), absv(b.hi));
  }
  return reach;
}

// Terms of the parameters and of SymExprs over them, in one of two arithmetics:
//   ints = true   unbounded integers (nonlinear integer arithmetic): for the params-only queries,
//                 where Z3's polynomial normalization proves identities such as
//                 (N-1)*M + (M-1) < N*M at once (bit-blasting two 40-bit multipliers times out)
//   ints = false  W-bit vectors, signed: for the queries over digits (the swizzle needs bits)
class Terms {
 public:
  Terms(z3::context& ctx, bool ints, unsigned w, const std::vector<ParamRange>& ranges)
      : ctx_(ctx), ints_(ints), w_(w), ranges_(ranges) {
    for (const ParamRange& p : ranges) {
      const std::int64_t top = p.count() - 1;
      if (top == 0) {
        value_.emplace(p.name, num(p.lo));
        continue;
      }
      if (ints) {
        const z3::expr k = ctx.int_const(fmt::format("ki_{}", p.name).c_str());
        domain_.push_back(k >= 0);
        domain_.push_back(k <= ctx.int_val(top));
        index_.emplace(p.name, k);
        value_.emplace(p.name, num(p.lo) + k * num(p.step));
        continue;
      }
      const unsigned bits = std::max(1u, bit_length(static_cast<u128>(top)));
      const z3::expr k = ctx.bv_const(fmt::format("k_{}", p.name).c_str(), bits);
      if ((static_cast<u128>(1) << bits) - 1 != static_cast<u128>(top))
        domain_.push_back(z3::ule(k, ctx.bv_val(static_cast<std::uint64_t>(top), bits)));
      index_.emplace(p.name, k);
      value_.emplace(p.name, num(p.lo) + z3::zext(k, w - bits) * num(p.step));
    }
  }

  z3::expr num(std::int64_t v) const { return ints_ ? ctx_.int_val(v) : ctx_.bv_val(v, w_); }
  z3::expr lt(const z3::expr& a, const z3::expr& b) const { return ints_ ? a < b : z3::slt(a, b); }
  z3::expr le(const z3::expr& a, const z3::expr& b) const { return ints_ ? a <= b : z3::sle(a, b); }
  z3::expr abs(const z3::expr& a) const { return z3::ite(lt(a, num(0)), -a, a); }
  z3::expr min0(const z3::expr& a) const { return z3::ite(lt(a, num(0)), a, num(0)); }
  z3::expr max0(const z3::expr& a) const { return z3::ite(lt(num(0), a), a, num(0)); }
  bool ints() const { return ints_; }
  unsigned width() const { return w_; }
  z3::context& ctx() const { return ctx_; }
  const std::vector<z3::expr>& domain() const { return domain_; }
  std::string note() const {
    return ints_ ? std::string("unsat, nonlinear integer arithmetic") : fmt::format("unsat, bit-vectors of width {}", w_);
  }
  // A solver for this arithmetic: simplify, solve-eqs, then smt (integers) or bit-blast + sat.
  // Tactic pipelines only: Z3 4.8's default combined solver nests timers and deadlocked under a
  // timeout here (observed with 4.8.12 on a params-only integer query).
  z3::solver solver() const {
    const z3::tactic pre = z3::tactic(ctx_, "simplify") & z3::tactic(ctx_, "solve-eqs");
    if (ints_) return (pre & z3::tactic(ctx_, "smt")).mk_solver();
    return (pre & z3::tactic(ctx_, "bit-blast") & z3::tactic(ctx_, "sat")).mk_solver();
  }

  z3::expr term(const SymExpr& e) const {
    using Op = SymExpr::Op;
    switch (e.op()) {
      case Op::kConst: return num(e.constant());
      case Op::kParam: return value_.at(e.name());
      case Op::kNeg: return -term(e.lhs());
      case Op::kAdd: return term(e.lhs()) + term(e.rhs());
      case Op::kSub: return term(e.lhs()) - term(e.rhs());
      case Op::kMul: return term(e.lhs()) * term(e.rhs());
      case Op::kFloorDiv:
      case Op::kFloorMod: {
        // Floor semantics (the divisor is never 0: SymExpr::bounds rejects that). Integers: Z3's
        // div/mod are Euclidean (0 <= r < |b|), off by one from floor when b < 0 and r != 0.
        // Bit-vectors: bvsdiv/bvsrem truncate, off by one when r != 0 and sign(r) != sign(b).
        const z3::expr a = term(e.lhs()), b = term(e.rhs()), zero = num(0);
        if (ints_) {
          const z3::expr q = a / b, r = z3::mod(a, b);
          const z3::expr adjust = lt(b, zero) && r != zero;
          return e.op() == Op::kFloorDiv ? z3::ite(adjust, q - num(1), q) : z3::ite(adjust, r + b, r);
        }
        const z3::expr q = z3::to_expr(ctx_, Z3_mk_bvsdiv(ctx_, a, b));
        const z3::expr rem = z3::srem(a, b);
        const z3::expr adjust = rem != zero && (lt(rem, zero) != lt(b, zero));
        return e.op() == Op::kFloorDiv ? z3::ite(adjust, q - num(1), q) : z3::ite(adjust, rem + b, rem);
      }
    }
    return num(0);
  }

  // The binding a model names.
  Env binding(const z3::model& m) const {
    Env env;
    for (const ParamRange& p : ranges_) {
      auto it = index_.find(p.name);
      const std::int64_t k = it == index_.end() ? 0 : z3enc::numeral(m.eval(it->second, true));
      env[p.name] = static_cast<std::int64_t>(static_cast<__int128>(p.lo) + static_cast<__int128>(k) * p.step);
    }
    return env;
  }

 private:
  z3::context& ctx_;
  bool ints_;
  unsigned w_;
  const std::vector<ParamRange>& ranges_;
  std::vector<z3::expr> domain_;
  std::map<std::string, z3::expr> index_;
  std::map<std::string, z3::expr> value_;
};

// One copy of the layout's domain: digit variables, their ranges, the value per axis.
struct Point {
  std::vector<z3::expr> vars;                    // shard then replica digits (W bits)
  std::vector<z3::expr> constraints;             // digit ranges, broadcast digits fixed
  std::array<std::optional<z3::expr>, kNumAxes> tile, value;
  z3::expr on(const Terms& t, Axis a, bool swizzled = true) const {
    const auto& slot = swizzled ? value[a.index()] : tile[a.index()];
    return slot ? *slot : t.num(0);
  }
};

Point encode(const Terms& t, const SymLayout& l, const std::vector<ParamRange>& ranges, const std::string& prefix,
             bool exclude_zero_stride_shard) {
  z3::context& ctx = t.ctx();
  const unsigned w = t.width();
  Point p;
  auto add = [&](Axis a, const z3::expr& v) {
    auto& slot = p.tile[a.index()];
    slot = slot ? *slot + v : v;
  };
  auto digits = [&](const std::vector<SymIter>& iters, const char* tag, bool exclude) {
    for (std::size_t k = 0; k < iters.size(); ++k) {
      const SymIter& it = iters[k];
      const auto eb = it.extent.bounds(ranges);
      const u128 top = eb.hi > 1 ? static_cast<u128>(eb.hi - 1) : 0;
      const unsigned bits = std::max(1u, bit_length(top));
      const z3::expr narrow = ctx.bv_const(fmt::format("{}{}{}", prefix, tag, k).c_str(), bits);
      const z3::expr d = z3::zext(narrow, w - bits);
      const z3::expr ext = t.term(it.extent), stride = t.term(it.stride);
      p.constraints.push_back(z3::sle(d, ext - t.num(1)));
      if (exclude) p.constraints.push_back(z3::implies(stride == t.num(0), d == t.num(0)));
      p.vars.push_back(d);
      add(it.axis, d * stride);
    }
  };
  digits(l.shard, "c", exclude_zero_stride_shard);
  digits(l.replica, "r", false);
  for (const auto& [a, v] : l.offset) add(a, t.term(v));
  p.value = p.tile;
  const Axis m(AxisId::m);
  if (l.swizzle && l.swizzle->swizzle_len > 0 && p.tile[m.index()]) {
    const SwizzleSpec& z = *l.swizzle;
    const z3::expr v = *p.tile[m.index()];
    const std::uint64_t field = ((std::uint64_t{1} << z.swizzle_len) - 1) << z.per_element;
    const z3::expr S = ctx.bv_val(z.atom_len, w), F = ctx.bv_val(field, w);
    p.value[m.index()] = z.swizzle_inner ? (v ^ (z3::lshr(v, S) & F)) : (v ^ z3::shl(v & F, S));
  }
  return p;
}

// Every extent >= 1 (the well-formed bindings).
std::vector<z3::expr> extents_positive(const Terms& t, const SymLayout& l) {
  std::vector<z3::expr> out;
  for (const auto* list : {&l.shard, &l.replica})
    for (const SymIter& it : *list) out.push_back(t.le(t.num(1), t.term(it.extent)));
  return out;
}

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
      throw NotSymbolic("a value of the layout can reach 2^62 over the parameter ranges (int64 overflow is possible)",
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
    const Terms t(ctx, false, width(l, ranges), ranges);
    const Point p = encode(t, l, ranges, "p_", allow_broadcast), q = encode(t, l, ranges, "q_", allow_broadcast);
    z3::solver s = t.solver();
    for (const auto& d : t.domain()) s.add(d);
    for (const auto& e : extents_positive(t, l)) s.add(e);
    for (const auto& c : p.constraints) s.add(c);
    for (const auto& c : q.constraints) s.add(c);
    for (Axis a : storage_axes(skeleton(l), scope)) s.add(p.on(t, a) == q.on(t, a));
    z3::expr_vector differ(ctx);
    for (std::size_t i = 0; i < p.vars.size(); ++i) differ.push_back(p.vars[i] != q.vars[i]);
    s.add(differ.empty() ? ctx.bool_val(false) : z3::mk_or(differ));
    switch (session.check(s)) {
      case z3::unsat: ans.status = Status::kPass; ans.message = t.note(); break;
      case z3::sat: ans.status = Status::kFail; ans.binding = t.binding(s.get_model()); break;
      default: ans.message = session.why(); break;
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
        // [0, span); a view with an m offset stays inside the swizzle periods it touches. Over
        // the digits of one point, in bit-vectors (the swizzle acts on bits).
        const Terms t(session.ctx(), false, w, ranges);
        const Point p = encode(t, l, ranges, "", false);
        const Extremes x = extremes(t, m);
        const int k = l.swizzle->per_element + l.swizzle->swizzle_len + l.swizzle->atom_len;
        const z3::expr period = t.num(std::int64_t{1} << k), shift = t.num(k);
        const z3::expr whole = x.off == t.num(0);
        const z3::expr lo = z3::ite(whole, t.num(0), z3::shl(z3::ashr(x.lo, shift), shift));
        z3::expr limit = z3::ite(whole, x.span, z3::shl(z3::ashr(x.hi, shift), shift) + period);
        if (tg.hi) limit = z3::ite(t.lt(t.term(*tg.hi), limit), t.term(*tg.hi), limit);
        z3::solver s = t.solver();
        for (const auto& d : t.domain()) s.add(d);
        s.add(well_formed_binding(t));
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
