// layout.bounds — every coordinate of every element (replicas included) is inside its range.
//
// Ranges (from the target's MachineLimits and the allocation):
//   laneid    [0, warp_size)             wid_in_wg [0, warps_per_warpgroup)
//   tid_in_wg [0, warp_size * wpw)       tx        [0, max_threads_per_cta) (if known)
//   TLane     [0, tmem_lanes)            TCol      [0, columns * 32/bits) in elements
//   m         [0, alloc_elems) if known; for a register fragment (local scope) below the
//             registers per thread x elements per register; else >= 0; a swizzled address must also stay inside
//             the tile's own footprint [0, span) (a swizzle that escapes its buffer)
//   other thread axes (warpid, wgid, bx.., cbx..) and P/F/Bank: >= 0
// Engine: exact interval arithmetic — every digit varies independently, so the minimum and
// maximum of each affine axis sum are attained at a corner; the witness is that corner.
// The swizzled m is checked by enumeration of the m values.
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::prove {

namespace {

struct Range {
  std::int64_t lo = 0;
  std::optional<std::int64_t> hi;  // exclusive
  std::string why;
};

Range range_for(Axis a, const CheckInput& in) {
  const MachineLimits& ml = in.machine;
  switch (a.id()) {
    case AxisId::laneid:
      if (ml.warp_size) return {0, ml.warp_size, "warp size"};
      break;
    case AxisId::wid_in_wg:
      if (ml.warps_per_warpgroup) return {0, ml.warps_per_warpgroup, "warps per warpgroup"};
      break;
    case AxisId::tid_in_wg:
      if (ml.warp_size && ml.warps_per_warpgroup)
        return {0, ml.warp_size * ml.warps_per_warpgroup, "threads per warpgroup"};
      break;
    case AxisId::tx:
      if (ml.max_threads_per_cta) return {0, ml.max_threads_per_cta, "threads per CTA"};
      break;
    case AxisId::TLane:
      if (ml.tmem_lanes) return {0, ml.tmem_lanes, "TMEM lanes"};
      break;
    case AxisId::TCol: {
      const std::int64_t cols = in.alloc_cols.value_or(ml.tmem_columns);
      if (!cols) break;
      const int bits = in.elem_bits ? in.elem_bits : 32;
      const std::int64_t per_col = bits >= 32 ? 1 : 32 / bits;
      return {0, checked_mul(cols, per_col, "TCol range"),
              in.alloc_cols ? fmt::format("{} allocated 32-bit columns x {} element(s) per column", cols, per_col)
                            : fmt::format("{} TMEM columns x {} element(s) per column", cols, per_col)};
    }
    case AxisId::m:
      if (in.alloc_elems) return {0, *in.alloc_elems, "allocated elements"};
      if (in.scope == Scope::kLocal && ml.max_registers_per_thread) {
        // A register fragment: m is the element slot inside one thread's registers.
        const int bits = in.elem_bits ? in.elem_bits : 32;
        const std::int64_t per_reg = bits >= 32 ? 1 : 32 / bits;
        return {0, checked_mul(ml.max_registers_per_thread, per_reg, "register slots"),
                fmt::format("{} registers per thread x {} element(s) per register", ml.max_registers_per_thread,
                            per_reg)};
      }
      break;
    default: break;
  }
  return {0, std::nullopt, "non-negative"};
}

// Digits (shard, replica) at which axis slot reaches its max (or min).
void corner(const TileLayout& l, Axis a, bool want_max, std::vector<std::int64_t>& shard_digits,
            std::vector<std::int64_t>& rep_digits) {
  shard_digits.assign(l.shard.size(), 0);
  rep_digits.assign(l.replica.size(), 0);
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    if (l.shard[k].axis == a && ((l.shard[k].stride > 0) == want_max) && l.shard[k].stride != 0)
      shard_digits[k] = l.shard[k].extent - 1;
  for (std::size_t k = 0; k < l.replica.size(); ++k)
    if (l.replica[k].axis == a && ((l.replica[k].stride > 0) == want_max) && l.replica[k].stride != 0)
      rep_digits[k] = l.replica[k].extent - 1;
}

std::int64_t flat_of(const TileLayout& l, const std::vector<std::int64_t>& digits) {
  std::int64_t f = 0;
  for (std::size_t k = 0; k < l.shard.size(); ++k) f = f * l.shard[k].extent + digits[k];
  return f;
}

std::int64_t replica_index(const TileLayout& l, const std::vector<std::int64_t>& digits) {
  std::int64_t r = 0;
  for (std::size_t k = 0; k < l.replica.size(); ++k) r = r * l.replica[k].extent + digits[k];
  return r;
}

}  // namespace

CheckResult check_bounds(const CheckInput& in) {
  CheckResult res;
  res.id = "layout.bounds";
  res.engine = "interval";
  const TileLayout& tile = in.layout.tile();
  const Sweep sw(tile, /*include_replicas=*/true);
  std::vector<std::string> checked;
  for (std::size_t s = 0; s < sw.axes().size(); ++s) {
    const Axis a = sw.axes()[s];
    const Range r = range_for(a, in);
    const bool swizzled_m = in.layout.swizzle() && a == Axis(AxisId::m);
    const std::int64_t lo = sw.min(static_cast<int>(s)), hi = sw.max(static_cast<int>(s));
    const bool low_bad = lo < r.lo;
    const bool high_bad = r.hi && hi >= *r.hi;
    if (low_bad || high_bad) {
      std::vector<std::int64_t> sd, rd;
      corner(tile, a, /*want_max=*/!low_bad, sd, rd);
      const std::int64_t flat = flat_of(tile, sd);
      // The one image at the corner (not every replica image: there may be billions).
      Coord c = tile.apply_iters(sd);
      for (std::size_t k = 0; k < tile.replica.size(); ++k)
        c.add(tile.replica[k].axis, checked_mul(rd[k], tile.replica[k].stride, "replica"));
      res.status = Status::kFail;
      const std::int64_t value = low_bad ? lo : hi;
      res.witness = {{"element", point_json(in, flat, replica_index(tile, rd))},
                     {"axis", std::string(a.name())},
                     {"value", value},
                     {"range", {r.lo, r.hi ? nlohmann::json(*r.hi) : nlohmann::json(nullptr)}},
                     {"coord", coord_json(c)}};
      res.message = fmt::format("{} = {} for element {} is outside [{}, {}) ({})", a.name(), value,
                                nlohmann::json(logical_coord(flat, in.shape)).dump(), r.lo,
                                r.hi ? std::to_string(*r.hi) : std::string("inf"), r.why);
      return res;
    }
    checked.push_back(fmt::format("{} in [{}, {}]", a.name(), lo, hi));
    if (swizzled_m) {
      // The XOR swizzle may move an address past the end of the tile's footprint.
      const SwizzleSpec& z = *in.layout.swizzle();
      // A whole buffer (no m offset) must keep every swizzled address inside [0, span). A view with
      // an m offset lives inside a larger buffer, assumed aligned to the swizzle period: its
      // addresses must stay inside the periods the view touches.
      std::int64_t lo_lim = 0, limit = tile.span(AxisId::m);
      if (tile.offset.get(AxisId::m) != 0) {
        lo_lim = floor_div(lo, z.period()) * z.period();
        limit = checked_add(floor_div(hi, z.period()) * z.period(), z.period(), "swizzle footprint");
      }
      if (r.hi) limit = std::min(limit, *r.hi);
      if (sw.points() > in.limits.max_enumeration_points) {
        res.status = Status::kUndecided;
        res.message = fmt::format("enumeration limit: {} points for the swizzled m range", sw.points());
        return res;
      }
      bool bad = false;
      std::int64_t bflat = 0, brep = 0, bval = 0;
      sw.for_each([&](std::int64_t flat, std::int64_t rep, const std::int64_t* v) {
        const std::int64_t x = z.apply(v[s]);
        if (x < lo_lim || x >= limit) {
          bad = true;
          bflat = flat;
          brep = rep;
          bval = x;
          return false;
        }
        return true;
      });
      if (bad) {
        res.status = Status::kFail;
        res.engine = "enum";
        res.witness = {{"element", point_json(in, bflat, brep)},
                       {"axis", "m"},
                       {"value", bval},
                       {"range", {lo_lim, limit}},
                       {"note", "swizzled address"}};
        res.message = fmt::format(
            "swizzled address m = {} for element {} is outside the buffer footprint [{}, {}): the swizzle "
            "period ({} elements) does not tile the buffer",
            bval, nlohmann::json(logical_coord(bflat, in.shape)).dump(), lo_lim, limit, z.period());
        return res;
      }
    }
  }
  res.status = Status::kPass;
  std::string s;
  for (std::size_t i = 0; i < checked.size(); ++i) s += (i ? ", " : "") + checked[i];
  res.message = s.empty() ? "no coordinates" : s;
  return res;
}

}  // namespace tirx::prove
