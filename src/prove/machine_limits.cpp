#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {

MachineLimits machine_limits(const hw::Target& t) {
  MachineLimits m;
  m.warp_size = t.warp_size;
  m.warps_per_warpgroup = t.warps_per_warpgroup;
  m.max_threads_per_cta = t.max_threads_per_cta;
  m.max_registers_per_thread = t.max_registers_per_thread;
  if (t.tmem) {
    m.tmem_lanes = t.tmem->lanes;
    m.tmem_columns = t.tmem->columns;
    m.tmem_alloc_min_columns = t.tmem->alloc_min_columns;
  }
  return m;
}

}  // namespace tirx::prove
