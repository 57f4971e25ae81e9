// Internal to src/kernel/checks: the parts of kernel.tmem-datapath (tmem_datapath.cpp runs
// them over the ops; docs/checks.md "kernel.tmem-datapath").
//   tmem_datapath_ldst.cpp  tcgen05.ld/st, and copy_async with dispatch tcgen05 (derived plan)
//   tmem_datapath_mma.cpp   tcgen05.mma (d_region, a_tmem), and gemm_async's D and TMEM A
//   tmem_datapath_cp.cpp    copy / copy_async with dispatch tcgen05.cp and a named shape
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tirx_verify/kernel/tmem_access.hpp"
#include "tmem_problems.hpp"

namespace tirx::kernel::checks {

// Most (element x image) points one op's check visits; above it the op is undecided.
inline constexpr std::int64_t kTmemCheckMaxPoints = std::int64_t{1} << 22;

KernelFinding tmem_ldst_op(const KernelContext& ctx, ImageCache& cache, std::size_t i, const LdStOp& l);
KernelFinding tmem_copy_op(const KernelContext& ctx, ImageCache& cache, std::size_t i, const CopyOp& c);
// A tile tcgen05.cp copy with c.cp_shape set: every element's TMEM images are the lanes the
// shape's multicast writes one source row to (tmem_datapath_cp.cpp's header).
KernelFinding tmem_cp_copy_op(const KernelContext& ctx, ImageCache& cache, std::size_t i, const CopyOp& c);
// The accumulator problems already computed in this run, by (region, data path, tiles): the K
// steps of one accumulation repeat them.
using AccumulatorMemo = std::map<std::string, std::vector<Problem>>;
KernelFinding tmem_mma_op(const KernelContext& ctx, ImageCache& cache, AccumulatorMemo& memo, std::size_t i,
                          const MmaOp& m);
KernelFinding tmem_gemm_op(const KernelContext& ctx, ImageCache& cache, AccumulatorMemo& memo, std::size_t i,
                           const GemmAsyncOp& g);

}  // namespace tirx::kernel::checks
