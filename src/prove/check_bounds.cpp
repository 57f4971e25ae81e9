// layout.bounds — every coordinate of every element (replicas included) is inside its range.
//
// Targets (bound_targets in ranges.cpp): each axis the layout uses must stay in range_for(axis)
// (warp size, warps per warpgroup, TMEM lanes, allocated TMEM columns, allocated elements, or
// just >= 0); the swizzled address of a ComposeLayout must also stay inside the tile's footprint
// (a swizzle that escapes its buffer).
//
// Engines: affine targets are decided exactly by interval arithmetic under `auto` (every digit
// varies independently, so the extremes are attained at a corner, which is the witness); the
// swizzled address goes to gf2 (max/min of an affine GF(2) map) when the layout is power-of-two
// and carry-free, else enumeration below the crossover point count, else Z3 — unless m's
// interval rounded out to the swizzle's aligned blocks already fits (swizzle_interval_holds). A forced engine
// (--engine) or --cross-check decides every target with enum / gf2 / z3 alike.
#include <bit>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/swizzle_block.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/gf2.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::prove {

namespace {

bool in_extents(const TileLayout& l, const Element& e) {
  if (e.digits.size() != l.shard.size() || e.replica.size() != l.replica.size()) return false;
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    if (e.digits[k] < 0 || e.digits[k] >= l.shard[k].extent) return false;
  for (std::size_t k = 0; k < l.replica.size(); ++k)
    if (e.replica[k] < 0 || e.replica[k] >= l.replica[k].extent) return false;
  return true;
}

// The CheckResult of one engine's answer over `targets`, the witness re-checked.
CheckResult to_result(const CheckInput& in, const BoundsAnswer& a, std::span<const BoundTarget> targets,
                      std::string engine) {
  CheckResult res;
  res.id = "layout.bounds";
  res.engine = std::move(engine);
  res.status = a.status;
  res.message = a.message;
  if (a.status != Status::kFail) return res;
  const TileLayout& tile = in.layout.tile();
  const BoundTarget& t = targets[a.target];
  if (!a.element || !in_extents(tile, *a.element)) return witness_rejected(res, "element outside the digit ranges");
  const Coord c = t.swizzled ? image_of(in.layout, *a.element) : image_of(Layout(tile), *a.element);
  const std::int64_t value = axis_value(c, t.axis);
  if (value >= t.lo && !(t.hi && value >= *t.hi))
    return witness_rejected(res, fmt::format("{} evaluates to {}, inside the range", t.axis.name(), value));
  const std::int64_t flat = flat_index(tile, *a.element), rep = replica_index(tile, *a.element);
  const std::string logical = nlohmann::json(logical_coord(flat, in.shape)).dump();
  if (t.swizzled) {
    const std::int64_t period = in.layout.swizzle()->period();
    res.witness = {{"element", point_json(in, flat, rep)},
                   {"axis", "m"},
                   {"value", value},
                   {"range", {t.lo, *t.hi}},
                   {"note", "swizzled address"}};
    res.message = fmt::format(
        "swizzled address m = {} for element {} is outside the buffer footprint [{}, {}): the swizzle period ({} "
        "elements) does not tile the buffer",
        value, logical, t.lo, *t.hi, period);
  } else {
    res.witness = {{"element", point_json(in, flat, rep)},
                   {"axis", std::string(t.axis.name())},
                   {"value", value},
                   {"range", {t.lo, t.hi ? nlohmann::json(*t.hi) : nlohmann::json(nullptr)}},
                   {"coord", coord_json(c)}};
    res.message = fmt::format("{} = {} for element {} is outside [{}, {}) ({})", t.axis.name(), value, logical, t.lo,
                              t.hi ? std::to_string(*t.hi) : std::string("inf"), t.why);
    // A register fragment past the register budget is correct code that spills (slow), not
    // wrong data: a warning. Every other coordinate out of range addresses the wrong storage.
    if (in.scope == Scope::kLocal && t.axis == Axis(AxisId::m) && value >= t.lo) res.severity = Severity::kWarning;
  }
  return res;
}

BoundsAnswer run_engine(Engine e, const CheckInput& in, std::span<const BoundTarget> targets) {
  switch (e) {
    case Engine::kGf2: return gf2::bounds(in.layout, targets);
    case Engine::kZ3: return z3engine::bounds(in.layout, targets, in.limits);
    default: return enumerate::bounds(in.layout, targets, in.limits);
  }
}

// "TLane in [0, 127], TCol in [0, 511]" for the affine targets (interval values), plus the footprint.
std::string pass_message(const CheckInput& in, std::span<const BoundTarget> targets) {
  const Sweep sw(in.layout.tile(), true);
  std::string s;
  for (const BoundTarget& t : targets) {
    if (!s.empty()) s += ", ";
    if (t.swizzled) {
      s += fmt::format("swizzled m in [{}, {})", t.lo, *t.hi);
      continue;
    }
    const int slot = sw.index_of(t.axis);
    s += fmt::format("{} in [{}, {}]", t.axis.name(), sw.min(slot), sw.max(slot));
  }
  return s.empty() ? "no coordinates" : s;
}

// When m's interval rounded out to the swizzle's aligned blocks (swizzle_block.hpp) is inside
// every swizzled target the targets hold; otherwise nothing follows and an engine decides.
// Returns the interval's text.
std::optional<std::string> swizzle_interval_holds(const CheckInput& in, std::span<const BoundTarget> swizzled) {
  const SwizzleSpec* z = in.layout.swizzle();
  if (!z || z->swizzle_len == 0) return std::nullopt;
  const Sweep sw(in.layout.tile(), true);
  const int slot = sw.index_of(Axis(AxisId::m));
  std::int64_t lo = 0, hi = 0;
  try {
    std::tie(lo, hi) = swizzled_range(*z, slot < 0 ? 0 : sw.min(slot), slot < 0 ? 0 : sw.max(slot));
  } catch (const InputError&) {
    return std::nullopt;  // past int64: let an engine decide
  }
  for (const BoundTarget& t : swizzled)
    if (lo < t.lo || (t.hi && hi >= *t.hi)) return std::nullopt;
  const std::int64_t block = swizzle_block(*z);
  return fmt::format("the swizzle changes only bits below bit {} of m: every swizzled address stays in its "
                     "aligned {}-element block, all in [{}, {}]",
                     std::countr_zero(static_cast<std::uint64_t>(block)), block, lo, hi);
}

}  // namespace

CheckResult check_bounds(const CheckInput& in) {
  const std::vector<BoundTarget> targets = bound_targets(in);
  std::vector<BoundTarget> plain, swizzled;
  for (const BoundTarget& t : targets) (t.swizzled ? swizzled : plain).push_back(t);
  const std::int64_t points = Sweep(in.layout.tile(), true).points();
  const std::vector<Engine> engines = {Engine::kEnum, Engine::kGf2, Engine::kZ3};
  const std::vector<Engine> order = points <= in.limits.enum_crossover_points
                                        ? std::vector<Engine>{Engine::kGf2, Engine::kEnum, Engine::kZ3}
                                        : std::vector<Engine>{Engine::kGf2, Engine::kZ3, Engine::kEnum};
  auto gate = [&](Engine e) -> std::string {
    if (e != Engine::kEnum) return {};
    return enum_gate(in, static_cast<double>(points) * kEnumDenseNsPerPoint * 1e-9, 0, points);
  };
  auto finish = [&](CheckResult r) {
    if (r.status == Status::kPass) r.message = pass_message(in, targets) + (r.message.empty() ? "" : " — " + r.message);
    return r;
  };
  if (in.engine == Engine::kAuto && !in.cross_check) {
    const BoundsAnswer iv = enumerate::interval_bounds(in.layout, plain);
    if (iv.status == Status::kFail || swizzled.empty()) return finish(to_result(in, iv, plain, "interval"));
    if (const auto why = swizzle_interval_holds(in, swizzled)) {
      BoundsAnswer pass;
      pass.status = Status::kPass;
      pass.message = *why;
      return finish(to_result(in, pass, targets, "interval"));
    }
    CheckResult r = dispatch(
        in, order, engines,
        [&](Engine e) { return to_result(in, run_engine(e, in, swizzled), swizzled, std::string(engine_name(e))); },
        gate);
    r.engine = "interval+" + r.engine;
    return finish(std::move(r));
  }
  return finish(dispatch(
      in, order, engines,
      [&](Engine e) { return to_result(in, run_engine(e, in, targets), targets, std::string(engine_name(e))); }, gate));
}

}  // namespace tirx::prove
