// tirx_verify/layout/factories.hpp — the layouts TVM's helpers build, built the same way.
//
// Each factory reproduces TVM's construction (spec section (g)) iter for iter, so results are
// structurally equal to TVM's (the dispatchers compare canonical forms), and throws
// InputError("layout.well-formed") with a message naming the factory for the arguments TVM
// rejects (plus a few it silently mishandles: docs/semantics-differences.md). Hardware facts
// are cited per function (PTX ISA 9.1 sections); the sizes come from layout/arch.hpp.
//
// Units: TCol and m count buffer elements (a 32-bit TMEM cell holds 32/bits of them; scale
// factors are bytes, four per cell); TLane counts TMEM lanes; thread axes count threads/warps.
//
//   call                                              result
//   tmem_datapath_layout("F", 64, 32, 1)              S[(4,16,32):(32@TLane,1@TLane,1@TCol)] + 16@TLane
//   tcgen05_atom_layout("16x64b", 64, 2, float32)     S[(4,2,8,1,2):(1@wid_in_wg,1@laneid,4@laneid,1,2@laneid)]
//   wg_local_layout(16)                               S[(128,16):(1@tid_in_wg,1)]
//   sf_tmem_layout(128, 4, 4)                         S[(4,32,4):(4@TCol,1@TLane,1@TCol)] + R[4:32@TLane]
//   sf_smem_layout(128, 4, 4)                         S[(4,32,4):(4,16,1)]
//   mma_shared_layout(float16, k128B, (64,256))       ComposeLayout(3,3,3, S[(64,4,64):(64,4096,1)])
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

// Element type of a buffer. bits: 4, 8, 16, 32 or 64.
struct DType {
  std::string name;  // TVM spelling: "float16", "bfloat16", "float32", "uint8", "float8_e4m3fn", ...
  int bits = 32;
  // TVM names (intN/uintN/floatN, bfloat16, bool, float8_*, float4_e2m1fn) and the aliases
  // fp16/bf16/fp32/fp8/fp4. Throws InputError("layout.well-formed") if unknown.
  static DType parse(std::string_view name);
  friend bool operator==(const DType&, const DType&) = default;
};

// TMEM accumulator data-path layouts (PTX ISA 9.1 §9.7.16.10.5 "Data Path Layout
// Organization"): logical (row, col) of the per-CTA accumulator -> (TLane, TCol).
//   datapath  one letter A..G; rows must match it (A,D: 128; B,C,E,F: 64; G: 32)
//   cols      logical columns (elements), >= 1; B/E need an even count, G a multiple of 4
//   sub_slab  0 or 1; 1 selects the upper 16 lanes of each warp's 32-lane sub-partition
//             (a +16@TLane offset) and is legal only for F and C
// Layout F/C rows go to lanes {0..15,32..47,64..79,96..111} (sub_slab 0) or
// {16..31,48..63,80..95,112..127} (sub_slab 1). Throws on any other argument, with
// "sub_slab must be 0 or 1", "expects rows=64", "expects even cols", ... in the message.
TileLayout tmem_datapath_layout(std::string_view datapath, std::int64_t rows, std::int64_t cols,
                                int sub_slab = 0);

// Register-side fragment of one warpgroup for tcgen05.ld/st (PTX ISA 9.1 §9.7.16.2.3 "Data
// Movement Shape"; Table 49 for the legal .num): logical (row, col) -> (wid_in_wg, laneid, m)
// or, for 32x32b, (tid_in_wg, m); m is the per-thread register slot in elements (16-bit data:
// two per 32-bit register, no .pack::16b).
//   instr_shape  "32x32b", "16x64b", "16x128b" or "16x256b"
//   rows         64 or 128 (32x32b with 64 rows is the fp32 read-back image of datapath B)
//   cols         elements; .num = cols / (32-bit columns per repetition * 32/bits) must be a
//                power of two up to the Table 49 maximum (128, 128, 64, 32)
//   dtype        16 or 32 bits
// Throws for an unknown shape, another width, bad rows, cols not a multiple of the repetition
// width, or a .num outside Table 49 (message mentions "PTX Table 49").
TileLayout tcgen05_atom_layout(std::string_view instr_shape, std::int64_t rows, std::int64_t cols,
                               const DType& dtype);

// One row per warpgroup thread: S[(rows,cols):(1@tid_in_wg,1)]. Throws if rows or cols < 1.
TileLayout wg_local_layout(std::int64_t cols, std::int64_t rows = 128);

// Block-scaled MMA scale factors in TMEM (PTX ISA 9.1 §9.7.16.10.7: scale factors are
// duplicated to all four 32-lane sub-partitions, hence R[4:32@TLane]; four 8-bit factors per
// 32-bit cell, so TCol counts bytes). Buffer shape (rows, sf_k * sf_reuse), or
// (pipe_depth, rows, sf_k * sf_reuse).
//   rows        multiple of 32 (rows/32 row chunks, one 32-bit column each per MMA step)
//   sf_k        distinct scale factors per row along K; multiple of sf_per_mma
//   sf_per_mma  scale factors one MMA reads (nvfp4 4, mxfp4 2, fp8 1)
//   sf_reuse    > 1 appends a stride-0 iter (one factor serves several MMAs), marked a declared
//               broadcast (Iter::broadcast) so layout.injective accepts it
//   pipe_depth  prepends a stage iter of stride (rows/32)*4 TCol
// Throws on non-positive arguments, sf_k % sf_per_mma != 0 or rows % 32 != 0.
TileLayout sf_tmem_layout(std::int64_t rows, std::int64_t sf_k, std::int64_t sf_per_mma,
                          std::int64_t sf_reuse = 1, std::optional<std::int64_t> pipe_depth = std::nullopt);
// The shared-memory source of tcgen05.cp.32x128b.warpx4 for scale factors (m in bytes):
// 128-row super blocks of 32 lane rows x 16 bytes; row r = 32i + lane, K index k ->
// byte 16*lane + 4*i + 512*(k/4) + k%4 (+ super-block and stage strides). Throws unless
// rows % 128 == 0, sf_per_mma divides 4 and sf_k % 4 == 0.
TileLayout sf_smem_layout(std::int64_t rows, std::int64_t sf_k, std::int64_t sf_per_mma,
                          std::int64_t sf_reuse = 1, std::optional<std::int64_t> pipe_depth = std::nullopt);

// SwizzleMode: 0 NONE, 1 32B, 2 64B, 3 128B (TVM tma_utils.SwizzleMode).
enum class SwizzleMode : int { kNone = 0, k32B = 1, k64B = 2, k128B = 3 };
// "SWIZZLE_128B_ATOM", "SwizzleMode.SWIZZLE_64B_ATOM", "32B", "none", "0".."3", "auto" (128B,
// what TVM's SMEM pool picks). Case-insensitive. Throws InputError("layout.well-formed") else.
SwizzleMode parse_swizzle_mode(std::string_view text);

// MMA operand layout in shared memory (TVM tma_utils.mma_shared_layout; K-major canonical
// layouts of PTX ISA 9.1 §9.7.16.3.3), m in elements.
//   shape  (lead..., rows, K): rank >= 2; swizzled modes need rows % 8 == 0 and K a multiple
//          of the atom width (swizzle bytes * 8 / bits elements)
//   mode   kNone: 8-row x 16-byte core matrices, K-interleaved (row-major if K is not a
//          multiple of 16 bytes); swizzled: ComposeLayout(log2(16 bytes/elem), mode, 3, ...)
// Throws on a shape that violates the above (TVM does not check) or a dtype that does not
// divide 16 bytes.
Layout mma_shared_layout(const DType& dtype, SwizzleMode mode, std::span<const std::int64_t> shape);

// TMEM operand/accumulator layout picked from (M, cta_group, ws) as TVM's
// tmem_mma_operand_layout does: cta_group 1 M 128 -> D, M 64 -> F (E with ws); cta_group 2
// M 256 -> A, M 128 -> B; per-CTA rows = M / cta_group. operand "D" (accumulator) accepts
// (m, N), and for B/E also (2, m, N/2), (m, 2, N/2), (m, s, 2, n) or group = (s, 2, n);
// operand "A" accepts (m, K) (B: replicated to both 64-lane halves) or (2, m, K) for B/E.
// The result is canonical. Throws for sparse, ws outside cta_group 1 M 64, other (M,
// cta_group), wrong per-CTA rows, a bad group or shape, or an operand other than "A"/"D".
struct TmemOperandArgs {
  std::int64_t M = 128;
  int cta_group = 1;
  bool ws = false;
  bool sparse = false;
  std::vector<std::int64_t> group;  // optional (s,2,n)
};
TileLayout tmem_mma_operand_layout(std::string_view operand, std::span<const std::int64_t> shape,
                                   const DType& dtype, const TmemOperandArgs& args);

// The TMEM pool's default layout: Layout D for 128 rows (structurally equal to
// tmem_datapath_layout("D", 128, cols)), else S[(rows,cols):(1@TLane,1@TCol)].
TileLayout default_tmem_layout(std::int64_t rows, std::int64_t cols);

}  // namespace tirx
