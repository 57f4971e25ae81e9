// tirx_verify/layout/factories.hpp — the layouts TVM's helpers build, built the same way.
//
// Each factory reproduces TVM's construction (spec section (g)) and throws
// InputError("layout.well-formed") with TVM's message for the arguments TVM rejects.
// Hardware facts are cited per function (PTX ISA 9.1 sections).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

// Element type of a buffer. bits: 4, 8, 16, 32 or 64.
struct DType {
  std::string name;  // TVM spelling: "float16", "bfloat16", "float32", "uint8", "float8_e4m3fn", ...
  int bits = 32;
  static DType parse(std::string_view name);  // throws InputError("layout.well-formed") if unknown
  friend bool operator==(const DType&, const DType&) = default;
};

// TMEM accumulator data-path layouts (PTX ISA 9.1 §9.7.16.10.5 "Data Path Layout
// Organization"). datapath is one letter A..G; rows must match the datapath (A,D: 128;
// B,C,E,F: 64; G: 32); sub_slab selects the upper 16-lane half-slab for F/C (+16@TLane).
TileLayout tmem_datapath_layout(std::string_view datapath, std::int64_t rows, std::int64_t cols,
                                int sub_slab = 0);

// Register-side fragment of one warpgroup for tcgen05.ld/st (PTX ISA 9.1 §9.7.16.2.3 "Data
// Movement Shape", Table 49 for the legal .num). instr_shape: "32x32b", "16x64b", "16x128b",
// "16x256b"; tensor_shape (rows, cols) with rows 64 or 128; dtype 16 or 32 bits.
TileLayout tcgen05_atom_layout(std::string_view instr_shape, std::int64_t rows, std::int64_t cols,
                               const DType& dtype);

// One row per warpgroup thread: S[(rows,cols):(1@tid_in_wg,1)].
TileLayout wg_local_layout(std::int64_t cols, std::int64_t rows = 128);

// Block-scaled MMA scale factors in TMEM (PTX ISA 9.1 §9.7.16.10.7: scale factors are
// duplicated to all four 32-lane sub-partitions, hence R[4:32@TLane]).
TileLayout sf_tmem_layout(std::int64_t rows, std::int64_t sf_k, std::int64_t sf_per_mma,
                          std::int64_t sf_reuse = 1, std::optional<std::int64_t> pipe_depth = std::nullopt);
// The shared-memory source of tcgen05.cp for scale factors (bytes).
TileLayout sf_smem_layout(std::int64_t rows, std::int64_t sf_k, std::int64_t sf_per_mma,
                          std::int64_t sf_reuse = 1, std::optional<std::int64_t> pipe_depth = std::nullopt);

// SwizzleMode: 0 NONE, 1 32B, 2 64B, 3 128B (TVM tma_utils.SwizzleMode).
enum class SwizzleMode : int { kNone = 0, k32B = 1, k64B = 2, k128B = 3 };
SwizzleMode parse_swizzle_mode(std::string_view text);  // "SWIZZLE_128B_ATOM", "128B", "3", ...

// MMA operand layout in shared memory (TVM tma_utils.mma_shared_layout; canonical K-major
// layouts of PTX ISA 9.1 §9.7.16.3.3).
Layout mma_shared_layout(const DType& dtype, SwizzleMode mode, std::span<const std::int64_t> shape);

// TMEM operand/accumulator layout picked from (M, cta_group, ws) as TVM's
// tmem_mma_operand_layout does. operand "A" or "D".
struct TmemOperandArgs {
  std::int64_t M = 128;
  int cta_group = 1;
  bool ws = false;
  bool sparse = false;
  std::vector<std::int64_t> group;  // optional (s,2,n)
};
TileLayout tmem_mma_operand_layout(std::string_view operand, std::span<const std::int64_t> shape,
                                   const DType& dtype, const TmemOperandArgs& args);

// The TMEM pool's default layout: Layout D for 128 rows, else S[(rows,cols):(1@TLane,1@TCol)].
TileLayout default_tmem_layout(std::int64_t rows, std::int64_t cols);

}  // namespace tirx
