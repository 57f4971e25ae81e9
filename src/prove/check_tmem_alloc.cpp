// tmem.alloc — a TMEM allocation the hardware accepts, large enough for the layout.
//
// tcgen05.alloc takes a column count that is a power of two in [32, 512] (PTX ISA 9.1
// §9.7.16.7.1; the bounds come from the target's tmem_alloc_min_columns and tmem_columns).
// TCol counts buffer elements; one 32-bit column holds 32/bits elements (PTX ISA 9.1
// §9.7.16.1), so the layout needs ceil(max TCol + 1) * bits / 32) columns.
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::prove {

CheckResult check_tmem_alloc(const CheckInput& in) {
  CheckResult res;
  res.id = "tmem.alloc";
  res.engine = "structural";
  if (in.scope != Scope::kTmem) {
    res.status = Status::kNotApplicable;
    res.message = "not a tmem buffer";
    return res;
  }
  const MachineLimits& ml = in.machine;
  const Sweep sw(in.layout.tile(), true);
  const int slot = sw.index_of(AxisId::TCol);
  const std::int64_t max_col_elem = slot >= 0 ? sw.max(slot) : 0;
  const int bits = in.elem_bits ? in.elem_bits : 32;
  // 32-bit columns touched: element index e occupies column floor(e * bits / 32).
  // A view (tmem_col_offset > 0) needs its offset plus its own span inside the allocation.
  const std::int64_t needed = checked_add(checked_mul(max_col_elem, bits, "TMEM columns") / 32 + 1, in.tmem_col_offset);
  std::int64_t minimal = std::max<std::int64_t>(ml.tmem_alloc_min_columns, 1);
  while (minimal < needed) minimal *= 2;
  res.witness = {{"needed_columns", needed}, {"minimal_allocation", minimal}};
  if (in.alloc_cols) {
    const std::int64_t a = *in.alloc_cols;
    res.witness["allocated_columns"] = a;
    if (!is_pow2(a) || a < ml.tmem_alloc_min_columns || a > ml.tmem_columns) {
      res.status = Status::kFail;
      res.message = fmt::format("allocation of {} columns is not a power of two in [{}, {}]", a,
                                ml.tmem_alloc_min_columns, ml.tmem_columns);
      return res;
    }
    if (needed > a) {
      res.status = Status::kFail;
      res.message = fmt::format("layout reaches 32-bit column {} but only {} columns are allocated (need {})",
                                needed - 1, a, minimal);
      return res;
    }
    res.status = Status::kPass;
    res.message = fmt::format("{} of {} allocated columns used", needed, a);
    return res;
  }
  if (needed > ml.tmem_columns) {
    res.status = Status::kFail;
    res.message = fmt::format("layout needs {} 32-bit columns; TMEM has {}", needed, ml.tmem_columns);
    return res;
  }
  res.status = Status::kPass;
  res.message = fmt::format("needs {} columns; smallest legal allocation {}", needed, minimal);
  return res;
}

}  // namespace tirx::prove
