// tirx_verify/kernel/lower_gemm.hpp — the tcgen05.mma instructions a tile-level gemm_async
// lowers to, with the shared-memory descriptors TVM's dispatcher derives from the operand
// layouts (python/tvm/backend/cuda/tile_primitive/gemm_async/tcgen05.py at the mirrored TVM
// commit; its rules re-implemented here, not copied).
//
// Per operand in shared memory (compute_canonical_params):
//   * swizzle mode: the buffer layout's swizzle_len (0 none, 1 32B, 2 64B, 3 128B);
//   * swizzled: the region's contiguous (last) axis is rounded up to whole swizzle atoms from 0
//     (a sub-atom slice must start on a 16-byte boundary); the sliced layout must be the atom
//     mma_atom_layout(dtype, mode) = ComposeLayout(log2(16 B / element), mode, 3, ...) of
//     shape [8, row bytes * 8 / bits] — or its MN-major transpose [row elements, 8] — tiled
//     (layout is_tile_inner) with one iter per matrix dimension; LBO/SBO = the tiler's strides
//     x atom size in 16-byte units (0 for an extent-1 dimension), swapped for MN-major;
//     128B is tried first, then 64B, 32B;
//   * no swizzle: a 16-byte-packed K-interleaved TileLayout (LBO = MN rows, SBO = 8, 16-bit
//     types) or a column-major view whose contiguous dimension is 128 bytes (LBO = its
//     stride, SBO = 8);
//   * every instruction (mi, ni, ki) starts at the buffer's address (ptr_to of element 0) +
//     16 x floor(m / elements-per-16-bytes), m = the pre-swizzle address of its tile's first
//     element in the sliced layout (add_16B_offset); base offset 0.
// Instruction tile (_choose_mma_tile): M per CTA from the largest of 128/64 (::1) or 256/128
// (::2, halved per CTA) dividing M x cta_group; N the whole N if <= 256, else the largest
// multiple of 8 (::1) / 16 (::2) <= 256 dividing it; K 16 (16-bit), 8 (tf32 = float32), 32
// (8-bit), 64 (float4_e2m1fn). B's rows per CTA: N / cta_group.
//
//   A (128, 64) fp16 mma_shared_layout 128B at byte 1024, B likewise, D (128, 128):
//   4 instructions (ki 0..3), A descriptor start 1024 + 32 ki, LBO 0, SBO 1024, 128B, K-major.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tirx_verify/hw/smem_descriptor.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"

namespace tirx::kernel {

struct GemmPlan {
  std::int64_t m_mma = 0;  // rows of A per CTA per instruction
  std::int64_t n_mma = 0;  // the instruction's N (B rows per CTA: n_mma / cta_group)
  std::int64_t k = 0;      // K per instruction
  int cta_group = 1;
  struct OperandDesc {
    std::int64_t row0 = 0, k0 = 0, rows = 0;  // the tile inside the operand region (MN, K)
    hw::SmemDescriptor desc;
    bool mn_major = false;
  };
  struct Instr {
    int mi = 0, ni = 0, ki = 0;
    std::optional<OperandDesc> a;  // nullopt: A in TMEM
    OperandDesc b;
  };
  std::vector<Instr> instrs;
  std::string summary;  // "4 x tcgen05.mma 128x128x16; A 128B K-major LBO 0 SBO 1024; B ..."
};

struct GemmLowering {
  std::optional<GemmPlan> plan;
  std::string error;          // why TVM refuses (or what is not modelled)
  bool not_modelled = false;  // the refusal is this tool's limit, not TVM's
};

// Derives the plan of `g` (issued with `cta_group`). Refuses more than `max_instrs`
// instructions (not_modelled). Never throws for a well-formed context.
GemmLowering lower_gemm_async(const KernelContext& ctx, const GemmAsyncOp& g, int cta_group,
                              std::int64_t max_instrs = 4096);

}  // namespace tirx::kernel
