// tirx_verify/hw/tcgen05_ldst.hpp — tcgen05.ld / tcgen05.st: which register holds which TMEM cell.
//
// PTX ISA 9.1 §9.7.16.2.3 "Data Movement Shape" (figures 183-187), Tables 49/50 (legal
// .num), §9.7.16.8.2 "Packing and Unpacking", §9.7.16.8.3 tcgen05.ld, §9.7.16.8.4
// tcgen05.st. The figures are images; the maps below are those of CUTLASS's
// SM100_TMEM_LOAD_* traits, independently matched by TileLang (spec §3).
//
//   tcgen05.ld.sync.aligned.<shape>.<num>{.pack::16b}.b32  {r...}, [taddr]{, imm};
//   tcgen05.st.sync.aligned.<shape>.<num>{.unpack::16b}.b32 [taddr]{, imm}, {r...};
//
// One warp executes it; every thread passes the same taddr = (L0, C0). Thread t's register
// r is cell (L0 + dlane, C0 + dcol), where (dlane, dcol) is a sum of contributions, one per
// set bit of t and of the low bits of r, plus a column step per repetition (r >> k):
//
//   shape        lanes  regs/rep  t0     t1     t2    t3    t4      r0     r1     rep step
//   .32x32b        32      1      +1L    +2L    +4L   +8L   +16L    -      -      +1 col
//   .16x64b        16      1      +8L    +1c    +1L   +2L   +4L     -      -      +2 col
//   .16x128b       16      2      +1c    +2c    +1L   +2L   +4L     +8L    -      +4 col
//   .16x256b       16      4      +2c    +4c    +1L   +2L   +4L     +1c    +8L    +8 col
//   .16x32bx2      16      1      +1L    +2L    +4L   +8L   +imm c  -      -      +1 col
//   (L = lanes, c = columns; regs per thread = regs/rep x num)
//
// So for .16x256b.x1 thread 5 (t0, t2 set) register 3 (r0, r1 set) is lane L0+1+8 = L0+9,
// column C0+2+1 = C0+3: the mma.sync accumulator pattern.
//
// .pack::16b / .unpack::16b: each register holds two 16-bit values from adjacent columns.
// The column contribution d (everything except the .16x32bx2 imm) becomes 2d and 2d+1:
// column C0+2d goes to register bits 15..0, C0+2d+1 to bits 31..16; ld takes the low 16
// bits of each cell. st.unpack writes the low 16 bits of each cell; what it leaves in the
// upper 16 bits is not specified in the PTX text read (spec §3), so the simulator marks
// them unknown. Register count is unchanged, the column footprint doubles.
//
// Legal .num (Tables 49/50): powers of two x1..x128 for .32x32b, .16x64b, .16x32bx2;
// x1..x64 for .16x128b; x1..x32 for .16x256b (at most 128 registers per thread).
// The imm operand (immHalfSplitoff) exists only for .16x32bx2 and is required there.
//
// Sub-partition rule (tmem.hpp): lanes L0 .. L0+15 (or +31) must lie in the issuing warp's
// 32 lanes. For the 16-lane shapes a warp reads its lower half-slab with L0 = 32w and its
// upper half-slab with L0 = 32w + 16 (TIRx's "row immediate" 0 / 16).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tirx_verify/hw/registers.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tmem.hpp"

namespace tirx::hw {

enum class LdStShape { k32x32b, k16x64b, k16x128b, k16x256b, k16x32bx2 };

// "32x32b", ... Throws InputError("tcgen05.shape") for an unknown spelling (a leading '.'
// is accepted).
LdStShape parse_ldst_shape(std::string_view text);
std::string_view to_string(LdStShape s);
inline constexpr LdStShape kAllLdStShapes[] = {LdStShape::k32x32b, LdStShape::k16x64b, LdStShape::k16x128b,
                                               LdStShape::k16x256b, LdStShape::k16x32bx2};

struct LdStInstr {
  LdStShape shape = LdStShape::k32x32b;
  int num = 1;        // the .num repetition count (1, 2, 4, ... 128)
  bool pack = false;  // .pack::16b (ld) / .unpack::16b (st)
  int imm = -1;       // immHalfSplitoff in 32-bit columns; only .16x32bx2, required there
};

// Largest legal .num for a shape (Tables 49/50).
int max_num(LdStShape s);
// Lanes one instruction covers: 32 or 16.
int shape_lanes(LdStShape s);
// Registers per thread: regs/rep x num.
int regs_per_thread(const LdStInstr& in);
// Columns covered from C0 (for .16x32bx2: from C0 to the end of the second half).
int column_footprint(const LdStInstr& in);
// The PTX spelling, e.g. "tcgen05.ld.sync.aligned.16x256b.x4.pack::16b.b32".
std::string spelling(const LdStInstr& in, bool is_store);

// Throws InputError("tcgen05.shape"): num not a power of two in [1, max_num]; imm given
// for a shape other than .16x32bx2, missing or negative for .16x32bx2.
void validate(const LdStInstr& in);

// The cell(s) behind thread t's register r, relative to nothing: absolute (lane, col)
// computed from the base address. col_hi is the second column with pack, else -1.
struct LdStCell {
  int lane = 0;
  int col = 0;
  int col_hi = -1;
};
// No range or partition checks (warp_accesses does those). t in [0, 32), r in
// [0, regs_per_thread).
LdStCell ldst_cell(const LdStInstr& in, TmemAddress base, int t, int r);

struct LdStAccess {
  int thread = 0;
  int reg = 0;
  LdStCell cell;
};
// Every (thread, register) -> cell of warp `warp_in_wg` executing the instruction, thread
// major. Throws: validate()'s errors; target.feature without TMEM; tmem.partition if the
// lanes leave the warp's sub-partition; tmem.address if a column is past the last column.
std::vector<LdStAccess> warp_accesses(const Target& target, const LdStInstr& in, TmemAddress base, int warp_in_wg,
                                      bool is_store = false);

// The lane field of a tcgen05.ld/st address, and which lanes a warp then reaches.
//
// PTX ISA 9.1 §9.7.16.8.1 restricts warp w of a warpgroup (w = warp_id % 4) to TMEM lanes
// [32w, 32w+31]; it does not say how the lane field (taddr bits 31..16) selects them, and
// kernels disagree: TVM's dispatcher and DeepGEMM pass a warp-relative field (0, or 16 for the
// upper half-slab) from every warp; CUTLASS passes the absolute lane 32w (+16) and asserts it.
// tirx-verify's model (a modelling decision, docs/checks.md "kernel.tmem-datapath",
// docs/semantics-differences.md): a warp accesses lanes
//
//   first_lane = 32 w + (lane_field mod 32)  ..  first_lane + shape_lanes - 1
//
// i.e. always inside its own sub-partition, so both conventions read the same lanes:
//
//   warp (w)  lane field  named sub-partition  lanes reached   verdict
//   5 (1)     0           0                    32..47 (16x*)   ok (warp-relative)
//   5 (1)     48          1                    48..63 (16x*)   ok (absolute)
//   5 (1)     64          2                    32..47 (16x*)   names_other_subpartition
//   0 (0)     24          0                    24..39 (16x*)   crosses (24 + 16 > 32)
//
// A field naming a sub-partition other than 0 and w is legal under the model but relies on
// behaviour PTX does not state (a warning); a 16-lane access whose field mod 32 exceeds 16
// crosses into the next sub-partition (an error, as is a .32x32b field not a multiple of 32).
struct LaneFieldAccess {
  int lane_field = 0;            // as passed (TMEM lanes)
  int warp_in_wg = 0;            // w
  int named_subpartition = 0;    // lane_field / 32
  int first_lane = 0;            // 32 w + lane_field % 32
  int lanes = 0;                 // shape_lanes: 32 or 16
  bool names_other_subpartition = false;  // named_subpartition not in {0, w}
  bool crosses = false;          // lane_field % 32 + lanes > 32
  bool outside = false;          // lane_field < 0 or >= the TMEM lanes
};
// Throws target.feature without TMEM, tmem.address if warp_in_wg is not in [0, 4).
LaneFieldAccess resolve_lane_field(const Target& target, LdStShape shape, int lane_field, int warp_in_wg);

// Executes tcgen05.ld: returns the warp's registers (warp_size x regs_per_thread), each with
// the known-bit mask of the cells it came from. Throws as warp_accesses, plus tmem.alloc for
// a column that is not allocated.
WarpRegisters tcgen05_ld(Tmem& tmem, const LdStInstr& in, TmemAddress base, int warp_in_wg);

// Executes tcgen05.st from `regs` (warp_size x regs_per_thread). Throws as tcgen05_ld, and
// tcgen05.shape if `regs` has the wrong size or two threads would write one cell
// (.16x32bx2 with imm smaller than the half's footprint).
void tcgen05_st(Tmem& tmem, const LdStInstr& in, TmemAddress base, int warp_in_wg, const WarpRegisters& regs);

}  // namespace tirx::hw
