// Enumeration engine, bounds: interval arithmetic for affine axes, a sweep for everything
// (see enum_engine.hpp).
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/prove/enum_engine.hpp"

namespace tirx::prove::enumerate {

namespace {

// The corner (shard and replica digits) at which axis `a` reaches its maximum (or minimum).
Element corner(const TileLayout& l, Axis a, bool want_max) {
  Element e;
  e.digits.assign(l.shard.size(), 0);
  e.replica.assign(l.replica.size(), 0);
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    if (l.shard[k].axis == a && l.shard[k].stride != 0 && ((l.shard[k].stride > 0) == want_max))
      e.digits[k] = l.shard[k].extent - 1;
  for (std::size_t k = 0; k < l.replica.size(); ++k)
    if (l.replica[k].axis == a && l.replica[k].stride != 0 && ((l.replica[k].stride > 0) == want_max))
      e.replica[k] = l.replica[k].extent - 1;
  return e;
}

bool outside(const BoundTarget& t, std::int64_t v) { return v < t.lo || (t.hi && v >= *t.hi); }

}  // namespace

BoundsAnswer interval_bounds(const Layout& l, std::span<const BoundTarget> targets) {
  BoundsAnswer ans;
  for (const BoundTarget& t : targets)
    if (t.swizzled) {
      ans.status = Status::kNotApplicable;
      ans.message = "interval arithmetic does not apply to a swizzled address";
      return ans;
    }
  const Sweep sw(l.tile(), /*include_replicas=*/true);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const BoundTarget& t = targets[i];
    const int slot = sw.index_of(t.axis);
    const std::int64_t lo = slot >= 0 ? sw.min(slot) : 0, hi = slot >= 0 ? sw.max(slot) : 0;
    const bool low_bad = lo < t.lo, high_bad = t.hi && hi >= *t.hi;
    if (low_bad || high_bad) {
      ans.status = Status::kFail;
      ans.target = i;
      ans.element = corner(l.tile(), t.axis, /*want_max=*/!low_bad);
      ans.value = low_bad ? lo : hi;
      return ans;
    }
  }
  ans.status = Status::kPass;
  ans.message = "interval arithmetic over the digit corners";
  return ans;
}

BoundsAnswer bounds(const Layout& l, std::span<const BoundTarget> targets, const EngineLimits& limits) {
  BoundsAnswer ans;
  const TileLayout& tile = l.tile();
  const Sweep sw(tile, /*include_replicas=*/true);
  if (sw.points() > limits.max_enumeration_points) {
    ans.status = Status::kUndecided;
    ans.message = fmt::format("enumeration limit: {} points exceed max_enumeration_points={}", sw.points(),
                              limits.max_enumeration_points);
    return ans;
  }
  std::vector<int> slots;
  for (const BoundTarget& t : targets) slots.push_back(sw.index_of(t.axis));
  const SwizzleSpec* swz = l.swizzle();
  bool bad = false;
  std::int64_t bflat = 0, brep = 0;
  Pacer pace(limits.budget, "enumeration", static_cast<double>(sw.points()));
  sw.for_each([&](std::int64_t flat, std::int64_t rep, const std::int64_t* v) {
    pace.step();
    for (std::size_t i = 0; i < targets.size(); ++i) {
      std::int64_t x = slots[i] >= 0 ? v[slots[i]] : 0;
      if (targets[i].swizzled && swz) x = swz->apply(x);
      if (outside(targets[i], x)) {
        bad = true;
        bflat = flat;
        brep = rep;
        ans.target = i;
        ans.value = x;
        return false;
      }
    }
    return true;
  });
  if (bad) {
    ans.status = Status::kFail;
    ans.element = element_at(tile, bflat, brep);
    return ans;
  }
  ans.status = Status::kPass;
  ans.message = fmt::format("{} points swept", sw.points());
  return ans;
}

}  // namespace tirx::prove::enumerate
