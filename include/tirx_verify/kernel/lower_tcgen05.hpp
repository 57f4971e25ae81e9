// tirx_verify/kernel/lower_tcgen05.hpp — the tcgen05 instructions TIRx's dispatcher emits for a
// tile-level op, derived the way TVM does it (python/tvm/backend/cuda/tile_primitive/
// copy_async/tcgen05_ldst.py and gemm_async/tcgen05.py at the mirrored commit; spec
// tirx_semantics (h)). The kernel checks then check the derived instructions like
// instruction-level ops.
//
// copy_async / copy with dispatch tcgen05 (TMEM <-> registers), per issuing warp:
//
//   TMEM buffer              register fragment (whole buffer)     issues per warp
//   Layout B (64, N) f32     tcgen05_atom_layout("32x32b",(64,N))  .32x32b.x(N/2) at row 0
//   rows 128 (D) or 64 (F)   tcgen05_atom_layout(".16x*b", ...)   .16x*b.x(num) at row
//                                                                  16 (sub_slab + slab) for each
//                                                                  16-row slab (1 or 2)
//   rows 128 (D)             anything else, 128 rows              .32x32b.x(width/epb) at row 0
//
// The column field is the TMEM window's first column (the sliced layout's TCol offset, in 32-bit
// columns, from the buffer's placement); the registers start at the local region's first column
// (.32x32b: local_st / epb; .16x*b: local_st x regs per slab / atom width, plus regs per slab
// for the second slab). The window (the TMEM layout sliced to the region) must be the D or F
// layout of its extent with any offset, the TLane offset 0 or 16 (16 = sub_slab 1, F only), as
// TVM asserts. `row_imm` on the op (the row immediate the compiler emitted, when known) replaces
// the derived row of the first slab (+16 for the second), as `tirx-verify check --row-imm` does.
// A copy whose warps are part of a warpgroup only (a warpgroup copy under a warp-divergent
// branch, each warp moving its own lanes) and whose regions name those warps' rows: the plan is
// derived from the full-row copy and issued by the listed warps.
//
// gemm_async: the per-CTA accumulator tile (M, N) = the d region's kept extents is cut into
// instruction tiles M_desc = the largest of [128, 64] (cta_group 1) or [256, 128] (2) dividing
// M x cta_group, M_mma = M_desc / cta_group, N_mma = N when N <= 256 and N % N_min == 0 (N_min
// 8 or 16), else the largest multiple of N_min <= 256 dividing N; .ws when the op says so or, for
// cta_group 1 and M 64, when d is laid out as the packed Layout-E fold (TVM infers it). Tile
// (mi, ni) writes D at the TMEM cell of d's first element + (mi M_mma lanes, ni x physical
// columns) where physical columns = N_mma / 2 for the 2x2 folds (Layout B, E), else N_mma. A in
// TMEM is read at a's first cell + (mi M_mma lanes, ki K x bits / 32 columns).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tirx_verify/hw/tcgen05_mma.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/tmem_access.hpp"

namespace tirx::kernel {

// The tcgen05.ld/st plan of a tile-level TMEM <-> register copy.
struct Tcgen05CopyPlan {
  bool store = false;               // registers -> TMEM (tcgen05.st)
  Region tmem, regs;                // the copy's TMEM and register regions (bound)
  std::string datapath;             // "D", "F" or "B"
  int sub_slab = 0;
  std::string path;                 // for messages: "Layout F sub_slab 1, .16x256b.x8 at row 16"
  std::vector<LdStIssue> issues;    // every warp's issues
  std::optional<std::int64_t> row_imm;  // the op's emitted row immediate, when given
  std::int64_t derived_row = 0;         // the row the dispatcher derives for the first slab
  bool partial_warpgroup = false;       // a warpgroup copy executed by some of its warps (below)
};

// Throws InputError("kernel.lowering") with TVM's reason when its dispatcher has no plan for
// the copy (it raises or asserts there), and the image/table errors of the buffers.
Tcgen05CopyPlan lower_tcgen05_copy(const KernelContext& ctx, const Op& op, const CopyOp& c);

// One tcgen05.mma instruction of a gemm_async plan.
struct MmaTile {
  int mi = 0, ni = 0, ki = 0;   // tile indices along M, N, K
  TmemRef d;                    // accumulator address (lane, 32-bit column)
  std::optional<TmemRef> a;     // A-in-TMEM address
};

struct GemmAsyncPlan {
  std::string kind;             // f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4
  int cta_group = 1;
  bool ws = false;
  bool ws_inferred = false;     // .ws inferred from d's packed Layout-E fold
  std::int64_t m = 0, n = 0, k = 0;          // per-CTA M, N, K of the whole op
  int m_desc = 0;               // instruction M (the pair's under cta_group 2)
  int m_mma = 0, n_mma = 0;     // per-CTA rows and N of one instruction
  int mma_k = 0;                // K of one instruction
  int n_phys = 0;               // TMEM columns one instruction's N takes
  hw::Datapath datapath = hw::Datapath::D;
  std::vector<MmaTile> tiles;   // (mi, ni, ki), ki fastest
  std::string path;             // "M=128 N=256 cta_group::1 (Layout D), 1 x 1 x 4 instructions"
};

// Throws InputError("kernel.lowering") where TVM's dispatcher raises (no valid instruction M,
// N, A/B dtypes without an MMA kind, K not a multiple of the instruction K, ...).
// `cache` holds the image tables of the buffers (tmem_access.hpp).
GemmAsyncPlan lower_gemm_async(const KernelContext& ctx, ImageCache& cache, const Op& op, const GemmAsyncOp& g);

// The MMA kind TVM picks for A/B dtypes and (block-scaled) the SF dtype, and the scale_vec it
// emits (TVM descriptors.py _get_tcgen05_mma_kind / _get_tcgen05_mma_scale_vec_size). float32
// operands are taken as tf32. Throws kernel.lowering when there is none.
std::string tcgen05_mma_kind(const std::string& a_dtype, const std::string& b_dtype, const std::string& sf_dtype);
hw::ScaleVec tcgen05_scale_vec(const std::string& kind, const std::string& sf_dtype);

}  // namespace tirx::kernel
