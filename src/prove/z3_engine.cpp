// The Z3 engine's three queries (z3_engine.hpp); the encoding lives in z3_encode.cpp.
#include "tirx_verify/prove/z3_engine.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "z3_encode.hpp"

namespace tirx::prove::z3engine {

namespace {

using z3enc::Encoding;
using z3enc::Session;

void add_all(z3::solver& s, const std::vector<z3::expr>& v) {
  for (const auto& e : v) s.add(e);
}

using z3enc::guarded;

}  // namespace

InjectivityAnswer injective(const Layout& l, Scope scope, const EngineLimits& limits) {
  return guarded<InjectivityAnswer>(limits, [&] {
    InjectivityAnswer ans;
    Session session(limits);
    z3::context& ctx = session.ctx();
    const z3enc::Arith ar = z3enc::arith_for(ctx, {&l});
    z3enc::EncodeOptions opt;
    opt.exclude_declared_broadcast = true;
    const Encoding p = z3enc::encode(ar, l, "p_", opt), q = z3enc::encode(ar, l, "q_", opt);
    z3::solver s = ar.solver();
    add_all(s, p.bounds);
    add_all(s, q.bounds);
    for (Axis a : storage_axes(l.tile(), scope)) s.add(p.value_or_zero(ar, a) == q.value_or_zero(ar, a));
    const auto pv = p.point_vars(), qv = q.point_vars();
    z3::expr_vector differ(ctx);
    for (std::size_t i = 0; i < pv.size(); ++i) differ.push_back(pv[i] != qv[i]);
    s.add(differ.empty() ? ctx.bool_val(false) : z3::mk_or(differ));
    switch (session.check(s)) {
      case z3::unsat:
        ans.status = Status::kPass;
        ans.message = ar.ints ? std::string("no two points share a cell (unsat, linear integer arithmetic)")
                              : fmt::format("no two points share a cell (unsat, bit-vectors of width {})", ar.width);
        return ans;
      case z3::sat: {
        const z3::model m = s.get_model();
        Element a = z3enc::element_from_model(m, l.tile(), p), b = z3enc::element_from_model(m, l.tile(), q);
        auto key = [&](const Element& e) { return std::pair{flat_index(l.tile(), e), replica_index(l.tile(), e)}; };
        if (key(b) < key(a)) std::swap(a, b);
        ans.status = Status::kFail;
        ans.a = std::move(a);
        ans.b = std::move(b);
        return ans;
      }
      default:
        ans.status = Status::kUndecided;
        ans.message = session.why();
        return ans;
    }
  });
}

BoundsAnswer bounds(const Layout& l, std::span<const BoundTarget> targets, const EngineLimits& limits) {
  return guarded<BoundsAnswer>(limits, [&] {
    BoundsAnswer ans;
    Session session(limits);
    z3::context& ctx = session.ctx();
    std::int64_t extra = 0;
    for (const BoundTarget& t : targets) {
      extra = std::max(extra, t.lo == INT64_MIN ? INT64_MAX : std::abs(t.lo));
      if (t.hi) extra = std::max(extra, *t.hi == INT64_MIN ? INT64_MAX : std::abs(*t.hi));
    }
    const z3enc::Arith ar = z3enc::arith_for(ctx, {&l}, extra);
    const Encoding e = z3enc::encode(ar, l, "");
    z3::solver s = ar.solver();
    add_all(s, e.bounds);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const BoundTarget& t = targets[i];
      const auto& slot = t.swizzled ? e.value[t.axis.index()] : e.tile[t.axis.index()];
      const z3::expr v = slot ? *slot : ar.num(0);
      z3::expr out = ar.lt(v, ar.num(t.lo));
      if (t.hi) out = out || ar.ge(v, ar.num(*t.hi));
      s.push();
      s.add(out);
      const z3::check_result r = session.check(s);
      if (r == z3::sat) {
        const z3::model m = s.get_model();
        ans.status = Status::kFail;
        ans.target = i;
        ans.element = z3enc::element_from_model(m, l.tile(), e);
        const Coord c = t.swizzled ? image_of(l, *ans.element) : image_of(Layout(l.tile()), *ans.element);
        ans.value = axis_value(c, t.axis);
        return ans;
      }
      if (r == z3::unknown) {
        ans.status = Status::kUndecided;
        ans.message = session.why();
        return ans;
      }
      s.pop();
    }
    ans.status = Status::kPass;
    ans.message = fmt::format("{} range queries unsat ({})", targets.size(), ar.ints ? "integers" : "bit-vectors");
    return ans;
  });
}

namespace {

// Largest replica set expanded into a conjunction; beyond it, a bit-vector forall.
constexpr std::int64_t kMaxReplicaExpansion = 256;

// The constant `v` in the sort of digit variable `like` (Int or a narrow bit-vector).
z3::expr digit_value(const z3::expr& like, std::int64_t v) {
  return like.is_int() ? like.ctx().int_val(v) : like.ctx().bv_val(static_cast<std::uint64_t>(v), like.get_sort().bv_size());
}

// Every assignment of constants to a layout's replica digits, odometer order.
std::vector<std::vector<std::int64_t>> replica_assignments(const TileLayout& t) {
  std::vector<std::vector<std::int64_t>> out;
  std::vector<std::int64_t> r(t.replica.size(), 0);
  while (true) {
    out.push_back(r);
    std::size_t k = r.size();
    for (; k > 0; --k) {
      if (++r[k - 1] < t.replica[k - 1].extent) break;
      r[k - 1] = 0;
    }
    if (k == 0) return out;
  }
}

}  // namespace

EquivalenceAnswer equivalent(const Layout& a, const Layout& b, const EngineLimits& limits) {
  return guarded<EquivalenceAnswer>(limits, [&]() -> EquivalenceAnswer {
    EquivalenceAnswer ans;
    if (a.size() != b.size()) {
      ans.status = Status::kNotApplicable;
      ans.message = "sizes differ";
      return ans;
    }
    Session session(limits);
    z3::context& ctx = session.ctx();
    const z3enc::Arith ar = z3enc::arith_for(ctx, {&a, &b});
    const Encoding ea = z3enc::encode(ar, a, "a_"), eb = z3enc::encode(ar, b, "b_");
    const std::vector<Axis> axes = union_axes(a, b);
    const bool quantified_any = a.tile().replica_count() > kMaxReplicaExpansion || b.tile().replica_count() > kMaxReplicaExpansion;
    z3::solver s = quantified_any ? z3::solver(ctx) : ar.solver();
    add_all(s, ea.bounds);
    add_all(s, eb.bounds);
    s.add(*ea.flat == *eb.flat);
    // "Some image of `x` (with its replica digits free) is none of the images of `y`."
    auto escapes = [&](const Encoding& x, const Encoding& y, const TileLayout& yt) -> z3::expr {
      auto differs = [&](const Encoding& yy, const z3::expr_vector& from, const z3::expr_vector& to) {
        z3::expr_vector ne(ctx);
        for (Axis ax : axes) {
          z3::expr yv = yy.value_or_zero(ar, ax);
          if (!from.empty()) yv = yv.substitute(from, to);
          ne.push_back(x.value_or_zero(ar, ax) != yv);
        }
        return ne.empty() ? ctx.bool_val(false) : z3::mk_or(ne);
      };
      z3::expr_vector vars(ctx);
      for (const auto& r : y.replica) vars.push_back(r);
      if (vars.empty()) return differs(y, vars, vars);
      if (yt.replica_count() <= kMaxReplicaExpansion) {
        z3::expr_vector all(ctx);
        for (const auto& assign : replica_assignments(yt)) {
          z3::expr_vector to(ctx);
          for (std::size_t k = 0; k < assign.size(); ++k)
            to.push_back(digit_value(vars[static_cast<unsigned>(k)], assign[k]));
          all.push_back(differs(y, vars, to));
        }
        return z3::mk_and(all);
      }
      // Fresh bound copies of y's replica digits: for all in range, the images differ.
      z3::expr_vector bound(ctx);
      z3::expr_vector in_range(ctx);
      for (unsigned k = 0; k < vars.size(); ++k) {
        const z3::expr v = ctx.constant(fmt::format("{}_forall", vars[k].to_string()).c_str(), vars[k].get_sort());
        bound.push_back(v);
        const std::int64_t top = yt.replica[k].extent - 1;
        in_range.push_back(ar.ints ? (v >= 0 && v <= ctx.int_val(top)) : z3::ule(v, digit_value(v, top)));
      }
      return z3::forall(bound, z3::implies(z3::mk_and(in_range), differs(y, vars, bound)));
    };
    const z3::expr differ = escapes(ea, eb, b.tile()) || escapes(eb, ea, a.tile());
    s.add(differ);
    const z3::check_result r = session.check(s);
    if (r == z3::unsat) {
      ans.status = Status::kPass;
      ans.message = ar.ints ? std::string("no element with different images (unsat, linear integer arithmetic)")
                          : fmt::format("no element with different images (unsat, bit-vectors of width {})", ar.width);
      return ans;
    }
    if (r == z3::unknown) {
      ans.status = Status::kUndecided;
      ans.message = session.why();
      return ans;
    }
    std::int64_t hi = z3enc::numeral(s.get_model().eval(*ea.flat, true));
    // Bisection for the first differing element: is there one at or below mid?
    std::int64_t lo = 0;
    ans.first = true;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      s.push();
      s.add(ar.le(*ea.flat, ar.num(mid)));
      const z3::check_result rr = session.check(s);
      if (rr == z3::sat) hi = z3enc::numeral(s.get_model().eval(*ea.flat, true));
      else if (rr == z3::unsat) lo = mid + 1;
      s.pop();
      if (rr == z3::unknown) {
        ans.first = false;
        break;
      }
    }
    ans.status = Status::kFail;
    ans.flat = hi;
    return ans;
  });
}

}  // namespace tirx::prove::z3engine
