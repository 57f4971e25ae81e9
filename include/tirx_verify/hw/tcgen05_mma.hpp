// tirx_verify/hw/tcgen05_mma.hpp — where tcgen05.mma puts its accumulator and reads its scale factors.
//
// Accumulator data-path layouts, PTX ISA 9.1 §9.7.16.10.5 "Data Path Layout Organization"
// (the mapping figures are images; formulas from CUTLASS UMMA::tmem_frg*, spec §2).
// Element (m, n) of an M x N accumulator, TMEM base (L0, C0); D elements are never packed
// (§9.7.16.10.4.1): one 32-bit column per n.
//
//   layout  M    cta_group  org.  lane                          column              L0
//   D       128  ::1        4x1   L0 + m                        C0 + n              0
//   A       256  ::2        4x1   per CTA as D: CTA m / 128, lane L0 + m % 128      0
//   F        64  ::1        4x1/2 L0 + m % 16 + 32 (m / 16)     C0 + n              0, 16
//   E        64  ::1 .ws    2x2   L0 + m + 64 (n / (N/2))       C0 + n % (N/2)      0
//   G        32  ::1 .ws    1x4   L0 + m + 32 (n / (N/4))       C0 + n % (N/4)      0
//   B       128  ::2 dense  2x2   per CTA (CTA m / 64, m' = m % 64):
//                                 L0 + m' + 64 (n / (N/2))      C0 + n % (N/2)      0
//   C       128  ::2 sparse   -   rejected: PTX's table (4x1, half data path, like F) and
//                                 CUTLASS's 2-SM sparse atom (2x2, like B) disagree (spec §10.2)
//
//   Layout F, N = 32:  m = 0 -> lane L0,  m = 16 -> lane L0 + 32,  m = 63 -> lane L0 + 111
//   Layout B, N = 128: (m, n) = (31, 64) -> lane 95, column 0
//
// Which CTA of the pair holds which half of M (A, B) is inferred from CUTLASS's 2-SM
// partitioning (even CTA = first half), not stated in PTX.
//
// Instruction shapes (PTX §9.7.16.2.1 Table 39, kind::f16/tf32/f8f6f4, as CUTLASS's SM100 UMMA
// atoms static_assert them): ::1 M=64 N a multiple of 8, M=128 N a multiple of 16; ::2 M=256 N
// a multiple of 16, M=128 N a multiple of 32; all in [step, 256]; .ws
// N in {64, 128, 256}.
//
// Block scaling (PTX §9.7.16.10.7, Tables 43/44; CUTLASS tmem_sf_frg): a scale factor is one
// byte. "Scale factors for A and B need to be duplicated to all 32-lane partitions": for MN
// index x (row of A or column of B) and scale index s within the MMA's K,
//   4x1 data path (M=128 ::1, M=256 ::2):  lanes x % 32 + 32 j for j = 0..3,
//                                          column C_sf + x / 32, byte s + sf_id
//   SFB with the 2x2 data path (M=128 ::2): n < N/2: lanes n % 32, n % 32 + 32;
//                                          n >= N/2: lanes 64 + n % 32, 96 + n % 32;
//                                          column C_sf + (n % (N/2)) / 32, byte s + sf_id
//   scale_vec ::1X: s = 0, sf_id 0..3;  ::2X: s 0..1, sf_id 0 or 2;  ::4X: s 0..3, sf_id 0.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tmem.hpp"

namespace tirx::hw {

enum class Datapath { A, B, C, D, E, F, G };

// "A".."G". Throws InputError("tmem.datapath") for anything else.
Datapath parse_datapath(std::string_view text);
char to_char(Datapath d);

// The instruction M of a data-path layout (A 256, B/C/D 128, E/F 64, G 32).
int datapath_m(Datapath d);

struct AccumulatorCell {
  int cta = 0;   // CTA of the pair (0 for cta_group::1 layouts)
  int lane = 0;
  int col = 0;
};

// Cell of accumulator element (m, n), m in [0, M), n in [0, N). base: the TMEM address of
// the accumulator (lane field = L0). Throws InputError:
//   tmem.datapath  Layout C ("unresolved: PTX and CUTLASS disagree ..."); L0 not allowed for
//                  the layout (0, or 0/16 for F);
//   tcgen05.shape  N not legal for the layout (Table 39); m or n out of range;
//   tmem.address   a column past the last TMEM column (checked for n = N-1), or no TMEM.
AccumulatorCell accumulator_cell(const Target& target, Datapath d, int n_total, int m, int n, TmemAddress base);
// The cells of rows 0 .. rows-1 (all N columns) at once, row-major: element (m, n) is
// [m * n_total + n]. Throws as accumulator_cell (rows past the layout's M: tcgen05.shape).
std::vector<AccumulatorCell> accumulator_tile(const Target& target, Datapath d, int n_total, int rows,
                                              TmemAddress base);

// The data-path layout an instruction uses (PTX ISA 9.1 §9.7.16.10.5 table; ptx_semantics §2):
//   ::1  M=32 .ws -> G   M=64 .ws -> E   M=64 -> F   M=128 (.ws or not) -> D
//   ::2  M=128 dense -> B   M=128 sparse -> C   M=256 -> A
// m is the instruction M (the pair's M under ::2). Throws InputError("tcgen05.shape") for any
// other (m, cta_group, ws) combination (.ws exists only with ::1).
Datapath mma_datapath(int m, int cta_group, bool ws, bool sparse = false);

// Accumulator rows one CTA holds: M for ::1 layouts, M / 2 for A (128) and B, C (64).
int datapath_rows_per_cta(Datapath d);

// TMEM cells that must hold element (m, k) of an A operand read from TMEM by an MMA with data
// path d, A elements of elem_bits bits packed along the columns (column C0 + k*bits/32, first
// bit (k*bits) % 32): the lane is the accumulator's lane of row m ("Layouts F and C must use
// the same lane alignment for A (if in TMEM), D", PTX §9.7.16.10.5), so D/A/F: one lane;
// the 2x2 data paths B and E compute columns n < N/2 in lanes 0..63 and n >= N/2 in lanes
// 64..127 from the A rows held there, so A row m must be in both lane m' and m' + 64
// (m' = m % 64; TIRx tmem_mma_operand_layout("A") replicates it the same way). m is per CTA
// (< datapath_rows_per_cta). Throws tmem.datapath for C and G (not modelled), tcgen05.shape
// for m out of range or elem_bits not 8/16/32, tmem.datapath for a base lane the layout does
// not allow (as accumulator_cell).
struct TmemBitCell {
  int lane = 0;
  int col = 0;
  int bit = 0;
};
std::vector<TmemBitCell> a_operand_cells(const Target& target, Datapath d, int m, int k, int elem_bits,
                                         TmemAddress base);

// K of one dense tcgen05.mma of a kind (PTX §9.7.16.2.1 Table 39): f16 16, tf32 8, f8f6f4 and
// i8 32, mxf8f6f4 32, mxf4 and mxf4nvf4 64 (96 on sm_103a is not modelled). Throws
// tcgen05.shape for an unknown kind.
int mma_kind_k(std::string_view kind);
// Whether the kind is block-scaled (mxf8f6f4, mxf4, mxf4nvf4).
bool is_block_scaled_kind(std::string_view kind);

enum class ScaleVec { k1X, k2X, k4X };
// "1X", "2X", "4X". Throws InputError("tcgen05.shape") otherwise.
ScaleVec parse_scale_vec(std::string_view text);

// Scale factors per row (or column) one MMA reads along K: 1X 1, 2X 2, 4X 4.
int scale_vec_scales(ScaleVec v);
std::string_view to_string(ScaleVec v);  // "1X", "2X", "4X"

// The block-scaling rule of PTX §9.7.16.10.7.1 (Tables 56/57): kind::mxf8f6f4 takes
// scale_vec::1X, kind::mxf4 2X, kind::mxf4nvf4 2X or 4X; 1X and 2X need UE8M0 scale factors
// (float8_e8m0fnu), 4X UE8M0 or UE4M3 (float8_e4m3fn); K is the kind's K (mma_kind_k), so one
// scale factor covers K / scales elements (32, 32, 16). Throws InputError("tcgen05.shape")
// naming the rule broken; sf_dtype empty skips the dtype rule.
void validate_block_scaling(std::string_view kind, ScaleVec vec, int k, std::string_view sf_dtype);

enum class SfDatapath { k4x1, k2x2 };

// Which scale-factor data path an MMA reads (PTX §9.7.16.10.7, CUTLASS tmem_sf_frg /
// ScaleFactorDuplicated2by2): 4x1 for M=128 ::1 and M=256 ::2 (SFA and SFB); 2x2 for SFB of
// M=128 ::2. SFA of M=128 ::2 is not modelled (the figures are unread): throws
// InputError("tmem.datapath"); other shapes throw tcgen05.shape.
SfDatapath sf_datapath(int m, int cta_group, bool for_b);

struct SfCell {
  int lane = 0;
  int col = 0;
  int byte = 0;  // byte inside the 32-bit cell
};

// Every cell holding the scale factor of MN index x, scale index s (header), replicas in
// ascending lane order. mn_total: the MN extent (M for SFA, N for SFB; at most 256, even
// for 2x2). Throws tcgen05.shape for s / sf_id not allowed by the scale_vec or x outside
// [0, mn_total); tmem.address for a column past the last one or a base lane other than 0.
std::vector<SfCell> scale_factor_cells(const Target& target, SfDatapath dp, ScaleVec vec, int x, int s, int sf_id,
                                       int mn_total, TmemAddress sf_base);

}  // namespace tirx::hw
