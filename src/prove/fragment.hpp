// Internal: reading a register-fragment layout as (thread, register slot) per element.
//
// A fragment layout maps each logical element onto thread axes and `m` (the element slot in
// the thread's registers). The thread's index inside its warpgroup / CTA is rebuilt from the
// thread axes the layout uses:
//   thread = tx + tid_in_wg + laneid + warp_size * (wid_in_wg + warpid)
//            + warpgroup_size * wgid
// (the axes of one layout are consistent in practice: laneid with wid_in_wg or warpid, or
// tid_in_wg alone, or tx alone).
#pragma once

#include <cstdint>

#include "tirx_verify/layout/coord.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {

struct FragmentSlot {
  std::int64_t thread = 0;  // linear thread index (see above)
  std::int64_t slot = 0;    // element slot in the thread's registers (m)
};

inline FragmentSlot fragment_slot(const Coord& c, const MachineLimits& ml) {
  const std::int64_t ws = ml.warp_size, wg = ml.warp_size * ml.warps_per_warpgroup;
  FragmentSlot f;
  f.thread = c.get(AxisId::tx) + c.get(AxisId::tid_in_wg) + c.get(AxisId::laneid) +
             ws * (c.get(AxisId::wid_in_wg) + c.get(AxisId::warpid)) + wg * c.get(AxisId::wgid);
  f.slot = c.get(AxisId::m);
  return f;
}

}  // namespace tirx::prove
