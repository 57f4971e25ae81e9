// The ranges layout.bounds proves (checks_internal.hpp): per-axis machine/allocation ranges and
// the swizzled-address footprint.
#include <algorithm>

#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::prove {

AxisRange range_for(Axis a, const CheckInput& in) {
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
      if (ml.tmem_lanes) {
        // A buffer whose TLane 0 is lane L (its placement, a view's start) has the lanes after it.
        if (in.tmem_lane_offset)
          return {0, std::max<std::int64_t>(0, ml.tmem_lanes - in.tmem_lane_offset),
                  fmt::format("{} TMEM lanes after the buffer's first lane {}", ml.tmem_lanes, in.tmem_lane_offset)};
        return {0, ml.tmem_lanes, "TMEM lanes"};
      }
      break;
    case AxisId::TCol: {
      const std::int64_t all = in.alloc_cols.value_or(ml.tmem_columns);
      if (!all) break;
      // A view starting at column tmem_col_offset of the allocation may use the columns after it.
      const std::int64_t cols = std::max<std::int64_t>(0, all - in.tmem_col_offset);
      const int bits = in.elem_bits ? in.elem_bits : 32;
      const std::int64_t per_col = bits >= 32 ? 1 : 32 / bits;
      const std::string from = in.tmem_col_offset ? fmt::format(" after the view's first column {}", in.tmem_col_offset)
                                                  : std::string();
      return {0, checked_mul(cols, per_col, "TCol range"),
              in.alloc_cols ? fmt::format("{} allocated 32-bit columns{} x {} element(s) per column", cols, from, per_col)
                            : fmt::format("{} TMEM columns{} x {} element(s) per column", cols, from, per_col)};
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

std::vector<BoundTarget> bound_targets(const CheckInput& in) {
  std::vector<BoundTarget> out;
  const TileLayout& tile = in.layout.tile();
  const Sweep sw(tile, /*include_replicas=*/true);
  for (std::size_t s = 0; s < sw.axes().size(); ++s) {
    const Axis a = sw.axes()[s];
    const AxisRange r = range_for(a, in);
    out.push_back(BoundTarget{a, false, r.lo, r.hi, r.why});
    const SwizzleSpec* z = in.layout.swizzle();
    if (!z || z->swizzle_len == 0 || a != Axis(AxisId::m)) continue;
    // A whole buffer (no m offset) must keep every swizzled address inside [0, span). A view
    // with an m offset lives inside a larger buffer, assumed aligned to the swizzle period: its
    // addresses must stay inside the periods the view touches.
    const std::int64_t lo = sw.min(static_cast<int>(s)), hi = sw.max(static_cast<int>(s));
    std::int64_t lo_lim = 0, limit = tile.span(AxisId::m);
    if (tile.offset.get(AxisId::m) != 0) {
      lo_lim = floor_div(lo, z->period()) * z->period();
      limit = checked_add(floor_div(hi, z->period()) * z->period(), z->period(), "swizzle footprint");
    }
    if (r.hi) limit = std::min(limit, *r.hi);
    out.push_back(BoundTarget{a, true, lo_lim, limit, "swizzled address inside the buffer footprint"});
  }
  return out;
}

}  // namespace tirx::prove
