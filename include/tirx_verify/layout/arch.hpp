// tirx_verify/layout/arch.hpp — the few hardware sizes the layout factories are built from.
//
// The layout model itself is hardware-agnostic; only the factories (TVM's helpers that build
// TMEM, register-fragment and shared-memory layouts for Blackwell) and the CUDA thread-axis
// fusion bake in GPU geometry, exactly as TVM's Python helpers do. Every such number lives
// here, once, with its PTX ISA 9.1 section, so `src/layout/*.cpp` never spells 32, 128 or 16
// directly. These are compile-time facts of the layouts TVM builds (sm_100a geometry); the
// simulator in `hw` reads its sizes from models/targets/*.json instead (hw/target.hpp), and
// the two must agree for sm_100a.
//
//   quantity                          value  source
//   threads per warp                   32    PTX ISA 9.1 "Special Registers: %laneid" (0..WARP_SZ-1)
//   warps per warpgroup                 4    PTX ISA 9.1 §9.7.15.1 "Warpgroup"
//   TMEM lanes                        128    PTX ISA 9.1 §9.7.16.1 "Tensor Memory"
//   TMEM columns (32-bit cells)       512    PTX ISA 9.1 §9.7.16.1
//   TMEM lanes one warp may access     32    PTX ISA 9.1 §9.7.16.8.1 "Access restrictions"
//   lanes of one .16x*b access         16    PTX ISA 9.1 §9.7.16.2.3 "Data Movement Shape"
//   bytes of one core-matrix row       16    PTX ISA 9.1 §9.7.16.3.3 "Canonical Layouts"
//   rows of one swizzle atom            8    PTX ISA 9.1 §9.7.16.3.3 (8-row core matrices)
//   .num maxima of tcgen05.ld/st   Table 49  PTX ISA 9.1 §9.7.16.8.3 (Table 49)
#pragma once

#include <cstdint>
#include <string_view>

namespace tirx::arch {

inline constexpr std::int64_t kWarpSize = 32;
inline constexpr std::int64_t kWarpsPerWarpgroup = 4;
inline constexpr std::int64_t kThreadsPerWarpgroup = kWarpSize * kWarpsPerWarpgroup;  // 128

inline constexpr std::int64_t kTmemLanes = 128;
inline constexpr std::int64_t kTmemColumns = 512;
inline constexpr int kTmemCellBits = 32;
inline constexpr std::int64_t kTmemLanesPerWarp = 32;     // one sub-partition
inline constexpr std::int64_t kTmemHalfSlabLanes = 16;    // lanes of one .16x*b access
inline constexpr std::int64_t kTmemHalfLanes = kTmemLanes / 2;  // 64: Layout B/E column fold

inline constexpr std::int64_t kCoreMatrixRowBytes = 16;
inline constexpr std::int64_t kSwizzleAtomRows = 8;

// Scale factors are 8-bit: four of them share one 32-bit TMEM cell (PTX ISA 9.1 §9.7.16.10.7,
// SF_ID selects the byte).
inline constexpr std::int64_t kScaleFactorsPerCell = 4;
// tcgen05.cp.32x128b.warpx4 moves 32 rows; with the x4 multicast one copy fills a 128-row
// super block (PTX ISA 9.1 §9.7.16.9.2), the unit of the scale-factor shared-memory layout.
inline constexpr std::int64_t kScaleFactorSuperRows = 128;

// Largest legal `.num` of tcgen05.ld/st per shape (PTX ISA 9.1 Table 49; the legal values are
// the powers of two from 1 to this maximum). 0 for an unknown shape.
constexpr std::int64_t tcgen05_max_num(std::string_view shape) {
  if (shape == "32x32b" || shape == "16x64b") return 128;
  if (shape == "16x128b") return 64;
  if (shape == "16x256b") return 32;
  return 0;
}

}  // namespace tirx::arch
