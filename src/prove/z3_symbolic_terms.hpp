// Internal: the symbolic engine's Z3 terms (parameters and SymExpr terms as W-bit vectors or
// integers) and one encoded copy of a SymLayout's domain, shared by the symbolic queries
// (z3_symbolic.cpp) and the bank-conflict encoding (z3_banks.cpp). Includes z3++.h: only
// z3_*.cpp files include it.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "symbolic_internal.hpp"
#include "z3_encode.hpp"

namespace tirx::prove::symbolic {

using u128 = unsigned __int128;
// Every term of an encoded layout (each expression and subexpression, each axis's reach, the
// flat index) must stay below 2^63 in magnitude: then every value of every concrete layout the
// ranges describe fits int64 (as the concrete checks require), and width() gives the bit-vectors
// 3 bits of headroom over it (at most 66 bits; sums of two terms and signed compares never wrap).
constexpr u128 kMaxMagnitude = static_cast<u128>(1) << 63;

inline unsigned bit_length(u128 v) {
  unsigned n = 0;
  while (v) {
    ++n;
    v >>= 1;
  }
  return n;
}

inline u128 absv(__int128 v) { return static_cast<u128>(v < 0 ? -v : v); }

// The reach of one axis over all bindings: sum of (extent-1)*|stride| over the iters on it plus
// |offset| (an upper bound of |value| for every point of every binding).
inline std::map<int, u128> axis_reach(const SymLayout& l, const std::vector<ParamRange>& r) {
  std::map<int, u128> reach;
  // Saturating at 2^100 (each term is below 2^126; far past kMaxMagnitude either way).
  auto add = [](u128& acc, u128 v) { acc = std::min<u128>(acc + std::min<u128>(v, u128{1} << 100), u128{1} << 100); };
  for (const auto* list : {&l.shard, &l.replica})
    for (const SymIter& it : *list) {
      const auto e = it.extent.bounds(r);
      const u128 ext = e.hi > 0 ? static_cast<u128>(e.hi) : 0;
      const auto s = it.stride.bounds(r);
      add(reach[it.axis.index()], (ext ? ext - 1 : 0) * std::max(absv(s.lo), absv(s.hi)));
    }
  for (const auto& [a, v] : l.offset) {
    const auto b = v.bounds(r);
    add(reach[a.index()], std::max(absv(b.lo), absv(b.hi)));
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

// One copy of the layout's domain: digit variables, their ranges, the value per axis. Over
// integers (t.ints()) the digits are Int constants and `value` is the tile value (no swizzle).
struct Point {
  std::vector<z3::expr> vars;                    // shard then replica digits (W bits)
  std::vector<z3::expr> constraints;             // digit ranges, broadcast digits fixed
  std::array<std::optional<z3::expr>, kNumAxes> tile, value;
  z3::expr on(const Terms& t, Axis a, bool swizzled = true) const {
    const auto& slot = swizzled ? value[a.index()] : tile[a.index()];
    return slot ? *slot : t.num(0);
  }
};

inline Point encode(const Terms& t, const SymLayout& l, const std::vector<ParamRange>& ranges, const std::string& prefix,
             bool exclude_zero_stride_shard) {
  z3::context& ctx = t.ctx();
  const unsigned w = t.width();
  (void)w;
  Point p;
  auto add = [&](Axis a, const z3::expr& v) {
    auto& slot = p.tile[a.index()];
    slot = slot ? *slot + v : v;
  };
  auto digits = [&](const std::vector<SymIter>& iters, const char* tag, bool exclude) {
    for (std::size_t k = 0; k < iters.size(); ++k) {
      const SymIter& it = iters[k];
      const z3::expr ext = t.term(it.extent), stride = t.term(it.stride);
      z3::expr d = ctx.int_val(0);
      if (t.ints()) {  // integers: no XOR can be encoded (value = tile)
        d = ctx.int_const(fmt::format("{}{}{}", prefix, tag, k).c_str());
        p.constraints.push_back(d >= 0);
      } else {
        const auto eb = it.extent.bounds(ranges);
        const u128 top = eb.hi > 1 ? static_cast<u128>(eb.hi - 1) : 0;
        const unsigned bits = std::max(1u, bit_length(top));
        const z3::expr narrow = ctx.bv_const(fmt::format("{}{}{}", prefix, tag, k).c_str(), bits);
        d = z3::zext(narrow, w - bits);
      }
      p.constraints.push_back(t.le(d, ext - t.num(1)));
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
  if (!t.ints() && l.swizzle && l.swizzle->swizzle_len > 0 && p.tile[m.index()]) {
    const SwizzleSpec& z = *l.swizzle;
    const z3::expr v = *p.tile[m.index()];
    const std::uint64_t field = ((std::uint64_t{1} << z.swizzle_len) - 1) << z.per_element;
    const z3::expr S = ctx.bv_val(z.atom_len, w), F = ctx.bv_val(field, w);
    p.value[m.index()] = z.swizzle_inner ? (v ^ (z3::lshr(v, S) & F)) : (v ^ z3::shl(v & F, S));
  }
  return p;
}

// Every extent >= 1 (the well-formed bindings).
inline std::vector<z3::expr> extents_positive(const Terms& t, const SymLayout& l) {
  std::vector<z3::expr> out;
  for (const auto* list : {&l.shard, &l.replica})
    for (const SymIter& it : *list) out.push_back(t.le(t.num(1), t.term(it.extent)));
  return out;
}


}  // namespace tirx::prove::symbolic
