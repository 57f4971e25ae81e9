#include "tirx_verify/hw/tcgen05_dispatch.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {
[[noreturn]] void incompatible(Datapath dp, int sub_slab, const LdStInstr& in, int rows, const std::string& why) {
  throw InputError("tmem.datapath",
                   fmt::format("TMEM layout {} (sub_slab {}) is incompatible with a {}-row .{} fragment: {}",
                               to_char(dp), sub_slab, rows, to_string(in.shape), why));
}
}  // namespace

std::vector<LdStIssue> tcgen05_ldst_plan(const Target& target, Datapath dp, int sub_slab, const LdStInstr& in,
                                         int frag_rows, TmemAddress base, int warp_in_wg) {
  const int sub = target.tmem_subpartition_lanes();  // 32
  const int half = sub / 2;                          // 16-lane half-slab
  const int full_rows = target.warpgroup_size();     // 128
  const int half_rows = full_rows / 2;               // 64
  if (sub_slab != 0 && sub_slab != 1)
    throw InputError("tmem.datapath", fmt::format("sub_slab must be 0 or 1, got {}", sub_slab));
  if (sub_slab == 1 && dp != Datapath::F) incompatible(dp, sub_slab, in, frag_rows, "only Layout F has an upper view");
  if (frag_rows != full_rows && frag_rows != half_rows)
    incompatible(dp, sub_slab, in, frag_rows, fmt::format("fragments have {} or {} rows", half_rows, full_rows));
  if (in.shape == LdStShape::k16x32bx2) incompatible(dp, sub_slab, in, frag_rows, "the dispatcher never uses .16x32bx2");
  if (base.lane() != 0) incompatible(dp, sub_slab, in, frag_rows, "the TMEM buffer must start at lane 0");
  const bool wide = in.shape == LdStShape::k32x32b;
  const TmemAddress warp_base = base.offset(sub * warp_in_wg, 0);
  const int regs = regs_per_thread(in);
  switch (dp) {
    case Datapath::D:
      if (wide && frag_rows != full_rows)
        incompatible(dp, sub_slab, in, frag_rows, ".32x32b reads all 32 lanes of each warp: 128 rows");
      if (wide || frag_rows == half_rows) return {{warp_base, 0}};
      return {{warp_base, 0}, {warp_base.offset(half, 0), regs}};
    case Datapath::F:
      if (wide) incompatible(dp, sub_slab, in, frag_rows, "Layout F holds 16 lanes per warp; .32x32b reads 32");
      if (frag_rows != half_rows) incompatible(dp, sub_slab, in, frag_rows, "Layout F holds 64 rows");
      return {{warp_base.offset(half * sub_slab, 0), 0}};
    case Datapath::B:
      if (!wide || frag_rows != half_rows)
        incompatible(dp, sub_slab, in, frag_rows, "Layout B is read as the 64-row .32x32b image only");
      return {{warp_base, 0}};
    default:
      incompatible(dp, sub_slab, in, frag_rows, "no tcgen05.ld/st path exists for this layout");
  }
}

}  // namespace tirx::hw
