// tirx_verify/hw/smem_descriptor.hpp — the 64-bit shared-memory matrix descriptor of tcgen05.
//
// PTX ISA 9.1 §9.7.16.4.1 Table 40 (CUTLASS UMMA::SmemDescriptor). Address fields are in
// 16-byte units: encode(x) = (x & 0x3FFFF) >> 4.
//
//   63 61 60     53 52 51 49 48 46 45        32 31 30 29        16 15 14 13         0
//  +-----+---------+--+-----+-----+------------+-----+------------+-----+-------------+
//  |swzl | 0       |lm|base | 001 | SBO >> 4   | 0   | LBO >> 4   | 0   | start >> 4  |
//  +-----+---------+--+-----+-----+------------+-----+------------+-----+-------------+
//   swizzle (3 bits): 0 none, 1 128B with 32-byte atoms, 2 128B, 4 64B, 6 32B (3,5,7 invalid)
//   base: matrix base offset (pattern phase); lm: LBO mode (1 = absolute, sm_103a only)
//
// The source matrix a descriptor names (K-major canonical layouts, PTX §9.7.16.3.3): R rows of
// 16-byte chunks. Row r, chunk k sits at
//   no swizzle:  start + (r / 8) * SBO + k * LBO + (r % 8) * 16     (8 x 16 B core matrices)
//   S-byte swizzle (S = 32/64/128): swizzle(start + (r % 8) * S + (r / 8) * SBO + 16 k), 16k < S
// with the swizzle applied to the absolute byte address (swizzle.hpp).
#pragma once

#include <cstdint>

#include "tirx_verify/hw/swizzle.hpp"

namespace tirx::hw {

struct SmemDescriptor {
  std::uint32_t start_address = 0;  // bytes, 16-byte aligned, < 2^18
  std::uint32_t lbo = 0;            // leading-dimension byte offset, 16-byte aligned, < 2^18
  std::uint32_t sbo = 0;            // stride-dimension byte offset, 16-byte aligned, < 2^18
  int base_offset = 0;              // 3 bits
  bool lbo_absolute = false;        // bit 52
  TmaSwizzle swizzle = TmaSwizzle::kNone;  // none, 32B, 64B, 128B, 128B_ATOM_32B

  // Throws InputError("smem.descriptor"): unaligned or too large address fields, a swizzle
  // mode the descriptor cannot express (128B_ATOM_64B), base_offset outside [0, 8).
  std::uint64_t encode() const;
  // Throws InputError("smem.descriptor"): version bits 46..48 not 0b001, reserved swizzle
  // code, non-zero reserved bits.
  static SmemDescriptor decode(std::uint64_t bits);

  // Byte address of 16-byte chunk `chunk` of row `row` (formula above). Throws
  // InputError("smem.descriptor") for what is not modelled: a non-zero base offset, the
  // absolute LBO mode, 128B_ATOM_32B (MN-major only), a chunk beyond the swizzle span.
  std::uint64_t chunk_address(int row, int chunk) const;
};

}  // namespace tirx::hw
