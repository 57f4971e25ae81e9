// tirx_verify/hw/tcgen05_cp.hpp — tcgen05.cp: a shared-memory matrix copied into TMEM lanes.
//
// PTX ISA 9.1 §9.7.16.9.2 "tcgen05.cp"; destination maps from CUTLASS SM100_UTCCP_* traits
// (spec §4.1). One thread issues
//   tcgen05.cp.cta_group::1.<shape>{.<multicast>} [taddr], s_desc;
// The source is R rows x W bits, read through the shared-memory descriptor
// (smem_descriptor.hpp). Byte b of source row r lands in byte b % 4 of column C0 + b / 4
// (little-endian in the 32-bit cell) of every destination lane of that row:
//
//   shape                   rows x bits  destination lanes of source row r (L0 = taddr lane)
//   .128x256b               128 x 256    L0 + r
//   .128x128b               128 x 128    L0 + r
//   .4x256b                   4 x 256    L0 + 32 r           (one row per sub-partition;
//                                                             CUTLASS's layout, unverified)
//   .32x128b.warpx4          32 x 128    L0 + r + 32 j, j = 0..3   (all four sub-partitions)
//   .64x128b.warpx2::02_13   64 x 128    L0 + r, L0 + r + 64      (rows 0-31 -> warps 0 & 2,
//                                                                  rows 32-63 -> warps 1 & 3)
//   .64x128b.warpx2::01_23   64 x 128    r < 32: L0 + r, L0 + r + 32;
//                                        r >= 32: L0 + 64 + (r-32), L0 + 96 + (r-32)
//
// .64x128b needs one of its warpx2 multicasts, .32x128b needs .warpx4 (PTX). Columns
// C0 .. C0 + W/32 - 1. Not modelled: .cta_group::2 (the pair's second CTA), the
// .b8x16.b6x16_p32 / .b4x16_p64 decompression (bit placement of 4/6-bit values unread).
// Errors: unknown shape or missing multicast -> tcgen05.shape; a destination lane or column
// outside TMEM -> tmem.address; an unallocated column -> tmem.alloc.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tirx_verify/hw/smem.hpp"
#include "tirx_verify/hw/smem_descriptor.hpp"
#include "tirx_verify/hw/tmem.hpp"

namespace tirx::hw {

enum class CpShape { k128x256b, k128x128b, k4x256b, k32x128bWarpx4, k64x128bWarpx2_02_13, k64x128bWarpx2_01_23 };

// "128x256b", "128x128b", "4x256b", "32x128b.warpx4", "64x128b.warpx2::02_13",
// "64x128b.warpx2::01_23" (a leading '.' is accepted). Throws InputError("tcgen05.shape"),
// e.g. for "64x128b" without its multicast.
CpShape parse_cp_shape(std::string_view text);
std::string_view to_string(CpShape s);
inline constexpr CpShape kAllCpShapes[] = {CpShape::k128x256b, CpShape::k128x128b, CpShape::k4x256b,
                                           CpShape::k32x128bWarpx4, CpShape::k64x128bWarpx2_02_13,
                                           CpShape::k64x128bWarpx2_01_23};

int cp_rows(CpShape s);      // source rows R
int cp_row_bits(CpShape s);  // bits per row W (128 or 256)

// Destination lanes of source row `row` (table above), in ascending order. No range checks.
std::vector<int> cp_destination_lanes(CpShape s, int lane0, int row);

// The shared-memory byte that byte `byte` (0 .. cp_row_bits/8 - 1) of source row `row` is read
// from: 16-byte chunk byte / 16 through the descriptor (SmemDescriptor::chunk_address), byte
// byte % 16 in it. Throws as chunk_address.
std::uint64_t cp_source_byte(const SmemDescriptor& desc, int row, int byte);

// The TMEM cells byte `byte` of source row `row` lands in (table above): every destination lane
// of the row, column C0 + byte / 4, byte byte % 4 of the cell. No range checks.
struct CpCell {
  int lane = 0;
  int col = 0;
  int byte = 0;
};
std::vector<CpCell> cp_destination_cells(CpShape s, TmemAddress dst, int row, int byte);

// Executes the copy from `smem` through `desc` into `tmem` at `dst`. Throws as listed above
// and smem.descriptor / smem.access for the source.
void tcgen05_cp(Tmem& tmem, const SharedMemory& smem, CpShape shape, TmemAddress dst, const SmemDescriptor& desc);

}  // namespace tirx::hw
