// Register-side layouts of one warpgroup: tcgen05_atom_layout (tcgen05.ld/st fragments) and
// wg_local_layout (TVM python/tvm/tirx/layout.py).
//
// tcgen05.ld.<shape>.x<num> moves a TMEM block into registers (PTX ISA 9.1 §9.7.16.2.3 "Data
// Movement Shape", mapping per thread t = %laneid and register r, in 32-bit TMEM columns):
//
//   shape     regs/thread   lane (in the warp's 32-lane block)    column
//   32x32b    num           t                                     r
//   16x64b    num           t/4 + 8*(t%2)                         2r + (t/2)%2
//   16x128b   2*num         t/4 + 8*(r%2)                         t%4 + 4*(r/2)
//   16x256b   4*num         t/4 + 8*((r/2)%2)                     2*(t%4) + r%2 + 8*(r/4)
//
// The layout maps a fragment element (row, col) to (wid_in_wg, laneid, m) where m is the
// per-thread register slot in element units: for 16-bit dtypes two elements share a 32-bit
// register (m = 2*register + col%2; no .pack::16b, TMEM also holds two per cell). The M=64
// fragment puts rows 16w..16w+15 on warp w (the .16x*b shapes touch 16 lanes); the M=128
// fragment issues the shape twice (lane rows 0..15 and 16..31 of each warp) and the second
// issue's registers follow the first's: an extra (2, R@m) iter after the wid_in_wg iter.
//
// Example: ("16x64b", (64, 2), float32) -> S[(4,2,8,1,2):(1@wid_in_wg,1@laneid,4@laneid,1,2@laneid)]
// (row = 16w + 8*(t%2) + t/4, col = (t/2)%2, register 0).
#include <fmt/format.h>

#include "tirx_verify/layout/arch.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {

namespace {

[[noreturn]] void tcgen05_fail(const std::string& msg) {
  throw InputError("layout.well-formed", "tcgen05_atom_layout: " + msg);
}

constexpr Axis kLaneid = AxisId::laneid;
constexpr Axis kWid = AxisId::wid_in_wg;
constexpr Axis kTid = AxisId::tid_in_wg;
constexpr Axis kM = AxisId::m;

// 32-bit TMEM columns one repetition of the shape covers per warp (PTX ISA 9.1 §9.7.16.2.3:
// 32x32b is 32 lanes x 32 bits, 16xNb is 16 lanes x N bits).
std::int64_t columns_per_rep(std::string_view shape) {
  if (shape == "32x32b") return 1;
  if (shape == "16x64b") return 2;
  if (shape == "16x128b") return 4;
  if (shape == "16x256b") return 8;
  return 0;
}

bool legal_num(std::string_view shape, std::int64_t num) {
  return is_pow2(num) && num <= arch::tcgen05_max_num(shape);
}

std::string table49(std::string_view shape) {
  return fmt::format("powers of two 1..{}", arch::tcgen05_max_num(shape));
}

}  // namespace

TileLayout tcgen05_atom_layout(std::string_view instr_shape, std::int64_t rows, std::int64_t cols,
                               const DType& dtype) {
  const std::int64_t per_rep = columns_per_rep(instr_shape);
  if (per_rep == 0)
    tcgen05_fail(fmt::format("unknown instruction shape '{}' (expected 32x32b, 16x64b, 16x128b or 16x256b)", instr_shape));
  if (dtype.bits != 16 && dtype.bits != 32)
    tcgen05_fail(fmt::format("dtype must be 16 or 32 bits, got {} ({} bits)", dtype.name, dtype.bits));
  const std::int64_t full_rows = arch::kThreadsPerWarpgroup;               // 128
  const std::int64_t half_rows = arch::kWarpsPerWarpgroup * arch::kTmemHalfSlabLanes;  // 64
  if (rows != full_rows && rows != half_rows)
    tcgen05_fail(fmt::format("{} expects rows {} or {}, got {}", instr_shape, half_rows, full_rows, rows));
  if (cols < 1) tcgen05_fail(fmt::format("cols must be >= 1, got {}", cols));

  if (instr_shape == "32x32b" && rows == half_rows) {
    // The Layout B read-back image: the logical (64, N) tile sits in all 128 lanes with N/2
    // columns each (datapath B, PTX ISA 9.1 §9.7.16.10.5), so thread r + 64*(c / (N/2))
    // holds it in register c % (N/2).
    if (dtype.bits != 32)
      tcgen05_fail(fmt::format("32x32b with 64 rows is the datapath B read-back image and is fp32-only, got {}",
                       dtype.name));
    if (cols % 2 != 0) tcgen05_fail(fmt::format("32x32b (64, N) datapath B image expects even N, got {}", cols));
    const std::int64_t half = cols / 2;
    if (!legal_num("32x32b", half))
      tcgen05_fail(fmt::format("32x32b (64, N) datapath B image needs N/2 = {} to be a legal .num (PTX Table 49: {})",
                       half, table49("32x32b")));
    return TileLayout({Iter{half_rows, 1, kTid}, Iter{2, half_rows, kTid}, Iter{half, 1, kM}});
  }

  const std::int64_t epb = arch::kTmemCellBits / dtype.bits;  // elements per 32-bit register
  const std::int64_t factor = per_rep * epb;
  if (cols % factor != 0)
    tcgen05_fail(fmt::format("cols={} is not a multiple of {} ({} 32-bit columns per repetition of {}, {} {} "
                     "elements per column)",
                     cols, factor, per_rep, instr_shape, epb, dtype.name));
  const std::int64_t num = cols / factor;
  if (!legal_num(instr_shape, num))
    tcgen05_fail(fmt::format("inferred .num x{} (cols={}) is not in PTX Table 49 for {} ({})", num, cols, instr_shape,
                     table49(instr_shape)));

  if (instr_shape == "32x32b") return TileLayout({Iter{rows, 1, kTid}, Iter{cols, 1, kM}});

  // Row and column iters in 32-bit register units (m strides scaled by epb below), outermost
  // first; t = laneid, w = wid_in_wg, r = register.
  std::vector<Iter> row_iters, col_iters;
  std::int64_t regs_per_slab = 0;
  const std::int64_t N = num;
  if (instr_shape == "16x64b") {
    // row = 16w + 8*(t%2) + t/4, col = 2r + (t/2)%2
    row_iters = {{arch::kWarpsPerWarpgroup, 1, kWid}, {2, 1, kLaneid}, {8, 4, kLaneid}};
    col_iters = {{N, 1, kM}, {2, 2, kLaneid}};
    regs_per_slab = N;
  } else if (instr_shape == "16x128b") {
    // row = 16w + 8*(r%2) + t/4, col = 4*(r/2) + t%4
    row_iters = {{arch::kWarpsPerWarpgroup, 1, kWid}, {2, 1, kM}, {8, 4, kLaneid}};
    col_iters = {{N, 2, kM}, {4, 1, kLaneid}};
    regs_per_slab = 2 * N;
  } else {  // 16x256b
    // row = 16w + 8*((r/2)%2) + t/4, col = 8*(r/4) + 2*(t%4) + r%2
    row_iters = {{arch::kWarpsPerWarpgroup, 1, kWid}, {2, 2, kM}, {8, 4, kLaneid}};
    col_iters = {{N, 4, kM}, {4, 1, kLaneid}, {2, 1, kM}};
    regs_per_slab = 4 * N;
  }
  if (rows == full_rows) {
    // Second issue at lane row 16 of each warp: its registers follow the first issue's.
    row_iters.insert(row_iters.begin() + 1, Iter{2, regs_per_slab, kM});
  }
  std::vector<Iter> shard;
  for (const auto* part : {&row_iters, &col_iters})
    for (Iter it : *part) {
      if (it.axis == kM) it.stride = checked_mul(it.stride, epb, "tcgen05 register stride");
      shard.push_back(it);
    }
  if (epb > 1) shard.push_back(Iter{epb, 1, kM});  // the two 16-bit halves of a register
  return TileLayout(std::move(shard));
}

TileLayout wg_local_layout(std::int64_t cols, std::int64_t rows) {
  if (rows < 1 || cols < 1)
    throw InputError("layout.well-formed",
                     fmt::format("wg_local_layout: rows and cols must be >= 1, got ({}, {})", rows, cols));
  return TileLayout({Iter{rows, 1, kTid}, Iter{cols, 1, kM}});
}

}  // namespace tirx
