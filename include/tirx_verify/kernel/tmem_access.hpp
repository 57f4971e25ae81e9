// tirx_verify/kernel/tmem_access.hpp — does a set of tcgen05.ld/st issues move every element of a
// TMEM region to (or from) the register a fragment layout names for it?
//
// A tcgen05.ld/st op (instruction level) or the plan derived from a tile-level copy_async
// (kernel/lower_tcgen05.hpp) is a list of issues, one or more per warp. Issue i of warp w moves
// thread t's register r (r in [0, regs_per_thread)) to/from the TMEM cell hw::ldst_cell gives for
// the base address (first_lane, column field), where first_lane follows tirx-verify's lane-field
// model (hw::resolve_lane_field: 32 (w % 4) + lane field mod 32). Register r of the issue is
// register first_reg + r of the thread's fragment (the local buffer's `m` in 32-bit units).
//
// The regions correspond element by element (region.hpp). Element e agrees when every register
// image of e (the fragment layout, images.hpp) is moved by some issue of its warp from/to one of
// e's TMEM images (the TMEM layout), bit for bit:
//
//   element (17, 3) of acc[0:64, 0:8]  ->  layout: lane 33, column 3, bit 0
//                  of frag             ->  warp 5, lane 4, register 6, bit 0
//   warp 5's .16x256b.x1 at lane field 0  moves lane 4 register 6 from lane 33 column 3: agrees
//
// With .pack::16b / .unpack::16b register bits 15..0 are column col's bits 15..0 and bits
// 31..16 column col_hi's bits 15..0 (PTX ISA 9.1 §9.7.16.8.2). Besides the elements, each
// thread of each issuing warp must hold exactly as many fragment bits in the region as its
// issues move (32 x registers): a fragment with more elements per thread than the instruction's
// registers, or fewer but not none, is a disagreement of its own. A thread holding none of the
// region (the upper 16 lanes of a .32x32b read of a 16-lane Layout F view) is idle: it moves
// registers no element names (harmless for tcgen05.ld, a write of undefined data for .st).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tirx_verify/hw/tcgen05_ldst.hpp"
#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"

namespace tirx::kernel {

// One tcgen05.ld/st issue of one warp.
struct LdStIssue {
  int warp = 0;                // CTA-wide warp index
  hw::LdStInstr instr;
  TmemRef taddr;               // lane field and column field as passed, from the allocation base
  std::int64_t first_reg = 0;  // this issue's register r is fragment register first_reg + r
};

// Image tables of the buffers a check visits, built once per buffer (and warp list).
class ImageCache {
 public:
  ImageCache(const KernelContext& ctx, std::int64_t max_points) : ctx_(ctx), max_points_(max_points) {}
  // Throw as tmem_image_table / reg_image_table.
  const TmemImageTable& tmem(const ResolvedBuffer& b);
  const RegImageTable& regs(const ResolvedBuffer& b, const std::vector<int>& warps);
  // region_flat_indices of a bound region of buffer b (cached by its bounds).
  const std::vector<std::int64_t>& flats(const ResolvedBuffer& b, const Region& r);
  std::int64_t max_points() const { return max_points_; }
  // The sum of the kernel's tcgen05.alloc columns (nullopt: the kernel has no tcgen05.alloc),
  // computed on first use, so a check over many ops scans the op list once. Throws
  // InputError("layout.well-formed") if the sum overflows int64.
  std::optional<std::int64_t> kernel_alloc_columns();

 private:
  const KernelContext& ctx_;
  std::int64_t max_points_;
  std::optional<std::optional<std::int64_t>> alloc_columns_;
  std::map<std::size_t, TmemImageTable> tmem_;
  std::map<std::pair<std::size_t, std::vector<int>>, RegImageTable> regs_;
  std::map<std::pair<std::size_t, std::string>, std::vector<std::int64_t>> flats_;
};

// The first element whose images disagree.
struct LdStDisagreement {
  std::int64_t index = 0;                 // element of the regions (region order)
  std::vector<std::int64_t> tmem_coord;   // buffer coordinates of that element
  std::vector<std::int64_t> regs_coord;
  TmemCell layout;                        // the element's first TMEM image (the layout's answer)
  RegCell reg;                            // the register image the issues do not serve
  int issue = -1;                         // index of the issue that moves `reg`, -1 if none does
  TmemCell moved;                         // the cell that issue moves for `reg` (issue >= 0)
  int first_lane = 0;                     // that issue's first lane under the lane-field model
};

// A thread whose fragment bits in the region differ from what its warp's issues move.
struct LdStCountMismatch {
  int warp = 0;
  int lane = 0;
  std::int64_t bits_held = 0;   // fragment bits of the region this thread holds
  std::int64_t bits_moved = 0;  // 32 x registers of this warp's issues
};

struct LdStComparison {
  std::int64_t elements = 0;
  std::int64_t disagreements = 0;              // elements that disagree
  std::optional<LdStDisagreement> first;
  std::optional<LdStCountMismatch> count;      // first thread holding more, or fewer but not none
  std::int64_t idle_threads = 0;               // threads of issuing warps that hold no element
  std::optional<LdStCountMismatch> idle;       // the first of them
  bool ok() const { return disagreements == 0 && !count; }
};

// Compares `issues` (each warp's issues in any order; a warp's register windows must not
// overlap) against the TMEM region `tmem` and the register region `regs` (equal sizes) executed
// by `warps`. Throws InputError: kernel.layout / kernel.limit from the image tables,
// kernel.fragment for a region element held by a thread of none of `warps`.
LdStComparison compare_ldst(const KernelContext& ctx, ImageCache& cache, const Region& tmem, const Region& regs,
                            const std::vector<int>& warps, const std::vector<LdStIssue>& issues);

// The lowest 32-bit fragment register the region `regs` names in any thread: where an
// instruction-level op's register operand vector starts (docs/checks.md).
std::int64_t lowest_register(const KernelContext& ctx, ImageCache& cache, const Region& regs,
                             const std::vector<int>& warps);

// JSON of the disagreement for a witness: {"element": {"tmem", "regs"}, "layout": {...},
// "register": {...}, "instruction": {...}}.
nlohmann::json disagreement_json(const LdStDisagreement& d, const std::vector<LdStIssue>& issues, bool store);

}  // namespace tirx::kernel
