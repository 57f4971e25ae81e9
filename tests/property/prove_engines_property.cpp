// Property tests of the proof engines (RapidCheck): on random small layouts, every engine that
// applies gives the same verdict as direct evaluation, and witnesses are real.
//   injective    gf2 / enum / z3 agree with a brute-force set of cells (power-of-two strides are
//                drawn often so gf2 applies to a good share; swizzles and replicas included)
//   bounds       the three engines agree on the swizzled-address footprint and on a random range
//   equivalent   L vs canonicalize(L) passes on every engine; L vs L + a changed stride or offset
//                fails on every engine at the same first element as brute force
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/prove/engine.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/equivalent.hpp"
#include "tirx_verify/prove/gf2.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::prove {
namespace {

rc::Gen<std::int64_t> gen_stride() {
  return rc::gen::oneOf(rc::gen::element<std::int64_t>(0, 1, 2, 4, 8, 16, 32, 64),
                        rc::gen::inRange<std::int64_t>(-6, 40));
}

// A layout on m (optionally swizzled) or on (TLane, TCol) with an optional replica.
rc::Gen<Layout> gen_layout() {
  return rc::gen::exec([] {
    TileLayout t;
    const bool tmem = *rc::gen::inRange(0, 3) == 0;
    const int n = *rc::gen::inRange(1, 4);
    for (int k = 0; k < n; ++k) {
      const std::int64_t e = *rc::gen::element<std::int64_t>(1, 2, 3, 4, 8);
      const AxisId a = tmem ? *rc::gen::element(AxisId::TLane, AxisId::TCol) : AxisId::m;
      t.shard.push_back(Iter{e, *gen_stride(), Axis(a)});
    }
    if (*rc::gen::inRange(0, 3) == 0)
      t.replica.push_back(Iter{*rc::gen::element<std::int64_t>(2, 3, 4), *gen_stride(),
                               Axis(tmem ? AxisId::TLane : AxisId::m)});
    if (*rc::gen::inRange(0, 3) == 0)
      t.offset.set(tmem ? AxisId::TLane : AxisId::m, *rc::gen::element<std::int64_t>(0, 1, 8, 64, 100, -32));
    if (!tmem && *rc::gen::inRange(0, 3) == 0) {
      const int b = *rc::gen::inRange(0, 4);
      return Layout(ComposeLayout(SwizzleSpec{*rc::gen::inRange(0, 3), b, std::max(b, 3), true}, std::move(t)));
    }
    return Layout(std::move(t));
  });
}

Scope scope_of(const Layout& l) { return l.tile().uses_axis(AxisId::TLane) || l.tile().uses_axis(AxisId::TCol) ? Scope::kTmem : Scope::kShared; }

// Brute force: do two distinct points (declared broadcast digits fixed at 0) share a cell?
bool brute_injective(const Layout& l, Scope scope) {
  const TileLayout& t = l.tile();
  std::set<std::vector<std::int64_t>> cells;
  bool ok = true;
  for (std::int64_t f = 0; f < t.size() && ok; ++f) {
    const Element base = element_at(t, f);
    bool broadcast = false;
    for (std::size_t k = 0; k < t.shard.size(); ++k) broadcast |= t.shard[k].is_declared_broadcast() && base.digits[k] != 0;
    if (broadcast) continue;
    for (std::int64_t r = 0; r < t.replica_count(); ++r) {
      const Coord c = image_of(l, element_at(t, f, r));
      std::vector<std::int64_t> key;
      for (Axis a : t.axes())
        if (scope != Scope::kTmem || a == Axis(AxisId::TLane) || a == Axis(AxisId::TCol)) key.push_back(axis_value(c, a));
      if (!cells.insert(key).second) ok = false;
    }
  }
  return ok;
}

RC_GTEST_PROP(ProveEngines, InjectivityAgreesWithBruteForce, ()) {
  const Layout l = *gen_layout();
  const Scope scope = scope_of(l);
  const bool truth = brute_injective(l, scope);
  const Status want = truth ? Status::kPass : Status::kFail;
  RC_ASSERT(enumerate::injective(l, scope, EngineLimits{}).status == want);
  const InjectivityAnswer z = z3engine::injective(l, scope, EngineLimits{});
  RC_ASSERT(z.status == want);
  const InjectivityAnswer g = gf2::injective(l, scope);
  RC_TAG(g.status == Status::kNotApplicable ? "gf2 n/a" : "gf2 decides");
  if (g.status != Status::kNotApplicable) RC_ASSERT(g.status == want);
  for (const InjectivityAnswer* a : {&z, &g})
    if (a->status == Status::kFail) {
      RC_ASSERT(!(*a->a == *a->b));
      const Coord ca = image_of(l, *a->a), cb = image_of(l, *a->b);
      for (Axis ax : l.tile().axes()) RC_ASSERT(axis_value(ca, ax) == axis_value(cb, ax));
    }
}

RC_GTEST_PROP(ProveEngines, BoundsAgree, ()) {
  const Layout l = *gen_layout();
  const Axis axis = l.tile().axes().front();
  const bool swizzled = l.swizzle() && axis == Axis(AxisId::m);
  const BoundTarget t{axis, swizzled, *rc::gen::inRange<std::int64_t>(-40, 10), *rc::gen::inRange<std::int64_t>(0, 400), ""};
  std::int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (std::int64_t f = 0; f < l.size(); ++f)
    for (std::int64_t r = 0; r < l.tile().replica_count(); ++r) {
      const Element e = element_at(l.tile(), f, r);
      const std::int64_t v = axis_value(swizzled ? image_of(l, e) : image_of(Layout(l.tile()), e), axis);
      lo = std::min(lo, v), hi = std::max(hi, v);
    }
  const Status want = lo < t.lo || hi >= *t.hi ? Status::kFail : Status::kPass;
  RC_ASSERT(enumerate::bounds(l, {&t, 1}, EngineLimits{}).status == want);
  RC_ASSERT(z3engine::bounds(l, {&t, 1}, EngineLimits{}).status == want);
  const BoundsAnswer g = gf2::bounds(l, {&t, 1});
  if (g.status != Status::kNotApplicable) {
    RC_ASSERT(g.status == want);
    if (g.status == Status::kFail) RC_ASSERT(g.value == (lo < t.lo ? lo : hi));  // the exact extreme
  }
}

RC_GTEST_PROP(ProveEngines, EquivalenceAgreesWithBruteForce, ()) {
  const Layout a = *gen_layout();
  // canonicalize keeps the map: every engine proves it.
  for (Engine e : {Engine::kEnum, Engine::kZ3}) {
    EquivalenceOptions o;
    o.engine = e;
    RC_ASSERT(equivalent(a, canonicalize(a), std::nullopt, o).status == Status::kPass);
  }
  // A perturbed copy: the first differing element by brute force, found by every engine.
  Layout b = a;
  TileLayout& bt = b.tile();
  if (*rc::gen::arbitrary<bool>())
    bt.shard.back().stride += *rc::gen::element<std::int64_t>(1, 2, 8);
  else
    bt.offset.add(bt.axes().front(), *rc::gen::element<std::int64_t>(1, 4, 16));
  const std::vector<Axis> axes = union_axes(a, b);
  std::optional<std::int64_t> first;
  for (std::int64_t f = 0; f < a.size() && !first; ++f)
    if (image_set(a, f, axes) != image_set(b, f, axes)) first = f;
  RC_TAG(first ? "differ" : "still equal");
  for (Engine e : {Engine::kEnum, Engine::kGf2, Engine::kZ3}) {
    EquivalenceOptions o;
    o.engine = e;
    const CheckResult r = equivalent(a, b, std::nullopt, o);
    if (e == Engine::kGf2 && r.status == Status::kUndecided) continue;
    RC_ASSERT(r.status == (first ? Status::kFail : Status::kPass));
    if (first) RC_ASSERT(r.witness["element"]["flat"].get<std::int64_t>() == *first);
  }
}

}  // namespace
}  // namespace tirx::prove
