// kernel.tmem-datapath: every tcgen05 instruction that moves data between TMEM and registers or
// writes an accumulator agrees with the layouts of the buffers it touches (docs/checks.md).
//
//   op                                  part  checked against
//   tcgen05.ld / tcgen05.st             (a)   the TMEM region's layout and the register fragment,
//                                             lane field per warp, columns vs the allocation
//   tcgen05.mma                         (b)   d_region's layout (data path from M, cta_group,
//                                             .ws), a_tmem's buffer layout
//   copy / copy_async, dispatch tcgen05 (c)   as (a), through the plan TVM's dispatcher derives
//   gemm_async                          (c)   as (b), through the derived instruction tiles
//   copy / copy_async, dispatch         (d)   the TMEM region's layout: each element's images
//     tcgen05.cp with a shape                 are the lanes the shape's multicast writes
//
// One finding per such op (tmem_datapath_ldst.cpp, tmem_datapath_mma.cpp do the work).
#include <fmt/format.h>

#include "tirx_verify/hw/target.hpp"
#include "tmem_datapath.hpp"

namespace tirx::kernel::checks {

std::vector<KernelFinding> tmem_datapath(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  ImageCache cache(ctx, kTmemCheckMaxPoints);
  AccumulatorMemo memo;
  for (std::size_t i = 0; i < ctx.model->ops.size(); ++i) {
    const Op& op = ctx.op(i);
    const auto* l = std::get_if<LdStOp>(&op.data);
    const auto* m = std::get_if<MmaOp>(&op.data);
    const auto* c = std::get_if<CopyOp>(&op.data);
    const auto* g = std::get_if<GemmAsyncOp>(&op.data);
    const CopyOp* cp = c && c->dispatch == "tcgen05.cp" && c->cp_shape ? c : nullptr;
    if (c && c->dispatch != "tcgen05") c = nullptr;
    if (!l && !m && !c && !g && !cp) continue;
    if (!ctx.target->tmem) {
      out.push_back(op_finding(ctx, i, prove::Status::kNotApplicable,
                               fmt::format("target {} has no tensor memory", ctx.target->name)));
      continue;
    }
    if (l) out.push_back(tmem_ldst_op(ctx, cache, i, *l));
    if (m) out.push_back(tmem_mma_op(ctx, cache, memo, i, *m));
    if (c) out.push_back(tmem_copy_op(ctx, cache, i, *c));
    if (g) out.push_back(tmem_gemm_op(ctx, cache, memo, i, *g));
    if (cp) out.push_back(tmem_cp_copy_op(ctx, cache, i, *cp));
  }
  return out;
}

}  // namespace tirx::kernel::checks
