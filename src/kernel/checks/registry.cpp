// The one list of kernel checks (kernel_check.hpp). Add a check here and nowhere else; never
// rename an id once released. Each check lives in its own file in this folder.
#include "checks.hpp"

namespace tirx::kernel {

const std::vector<KernelCheckInfo>& kernel_checks() {
  static const std::vector<KernelCheckInfo> kChecks = {
      {"kernel.overlap",
       "buffers live at the same time share no TMEM cell or shared-memory byte; TMEM and shared-memory totals fit "
       "the target",
       "the two buffers, one shared cell or byte with the element of each; or the total and the capacity",
       Severity::kError, checks::overlap},
      {"kernel.tma-layout",
       "a TMA load/store (tma.load/tma.store, or copy_async lowered as TVM's tma_auto) moves every element to the "
       "shared byte the shared layout declares; box, coordinates, strides, swizzle and base agree with the regions",
       "the first disagreeing element: box element, global and shared element, global byte, TMA byte, layout byte; "
       "or the box element outside the regions, the element no box element moves, or the hardware rule",
       Severity::kError, checks::tma_layout},
      {"kernel.mma-descriptor",
       "the canonical layout each shared-memory matrix descriptor names (tcgen05.mma, wgmma, tcgen05.cp, and the "
       "descriptors TVM derives for gemm_async) equals the operand's layout on every element the instruction reads; "
       "the instruction descriptor agrees with the op, the descriptors and the buffers",
       "the operand, the first element (mn, k) with its buffer element, the descriptor's byte and the layout's byte; "
       "or the region/tile sizes; or the instruction-descriptor fields that disagree",
       Severity::kError, checks::mma_descriptor},
      {"kernel.tmem-datapath",
       "tcgen05.ld/st (lane field, shape, columns) move every element between the TMEM layout's cell and the register "
       "the fragment names; tcgen05.mma / gemm_async write the accumulator (and read TMEM A) where the buffer's layout "
       "puts it; tile-level copies through the plan TVM's dispatcher derives",
       "the first disagreeing element: its TMEM cell by the layout, its register by the fragment or the data path's "
       "cell, the instruction (warp, lane field, column) and the cell it moves",
       Severity::kError, checks::tmem_datapath},
      {"kernel.sf-layout",
       "block-scaled tcgen05.mma / gemm_async read every scale factor (all replicas) where the SF buffer's layout "
       "puts it; scale_vec fits the kind and K; tcgen05.cp fills the SF layout from its shared-memory source",
       "the first scale factor (MN index, scale index) with the cells the instruction reads and the layout's cells; "
       "or the source byte and destination cells of a tcgen05.cp element",
       Severity::kError, checks::sf_layout},
      {"kernel.coverage",
       "the ops that write a buffer write each storage cell once per pass, every cell an op reads was written before, "
       "no two threads store one element, broadcast views are not written, and no write is read only in part",
       "kind, buffer, cell (hardware units), first/second (op, buffer, element; regs for registers) or reader/writer",
       Severity::kError, checks::coverage},
      {"smem.bank-conflicts",
       "every warp-wide shared-memory access of an op (ld/st.shared of access_bytes, ldmatrix/stmatrix) takes the ideal "
       "number of wavefronts (H200-calibrated model); subject_kind \"op\" (the buffer-level check of the same id "
       "runs with check --access)",
       "warp, instruction, wavefronts vs ideal, the phase, bank and colliding threads (or rows), all addresses",
       Severity::kWarning, checks::bank_conflicts},
      {"kernel.fragment",
       "the register fragment of an ldmatrix/stmatrix, mma.sync m16n8k16 or wgmma op is the instruction's own: every "
       "thread's every register holds the element the instruction puts there (hw/ldmatrix.hpp, hw/mma_fragments.hpp)",
       "operand/buffer, the element, the fragment's (warp, lane, reg, bit) and the instruction's (thread, register or "
       "index, matrix row/col), shared bytes for ldmatrix",
       Severity::kError, checks::fragment},
  };
  return kChecks;
}

}  // namespace tirx::kernel
