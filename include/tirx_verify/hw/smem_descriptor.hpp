// tirx_verify/hw/smem_descriptor.hpp — the 64-bit shared-memory matrix descriptor of wgmma and
// tcgen05, and the canonical operand layouts it names.
//
// Address fields are in 16-byte units: encode(x) = (x & 0x3FFFF) >> 4.
//
// Blackwell tcgen05 (PTX ISA 9.1 §9.7.16.4.1 Table 40; CUTLASS UMMA::SmemDescriptor):
//
//   63 61 60     53 52 51 49 48 46 45        32 31 30 29        16 15 14 13         0
//  +-----+---------+--+-----+-----+------------+-----+------------+-----+-------------+
//  |swzl | 0       |lm|base | 001 | SBO >> 4   | 0   | LBO >> 4   | 0   | start >> 4  |
//  +-----+---------+--+-----+-----+------------+-----+------------+-----+-------------+
//   swizzle (3 bits): 0 none, 1 128B with 32-byte atoms, 2 128B, 4 64B, 6 32B (3,5,7 invalid)
//   lm: LBO mode (1 = absolute address, sm_103a only; not modelled)
//
// Hopper wgmma (PTX ISA 9.1 §9.7.15.5.1.2.2; CUTLASS GmmaDescriptor): the same address fields
// and base offset (bits 49-51), bits 46-48 and 52-61 zero, a 2-bit mode in bits 62-63:
// 0 none, 1 128B, 2 64B, 3 32B.
//
// Canonical layouts (PTX §9.7.16.3.3 / §9.7.15.5.1.2.1; spec §4.3), element (mn, k) of
// e-byte elements, T = 16 / e elements per 16-byte row of a core matrix, S = swizzle span:
//
//   K-major,  none:  start + (mn/8) SBO + (k/T) LBO + (mn%8) 16 + (k%T) e
//   K-major,  S:     swz(start + (mn/8) SBO + (mn%8) S + k e)                  k e < S
//   MN-major, none:  start + (mn/T) SBO + (mn%T) e + (k/8) LBO + (k%8) 16
//   MN-major, S:     swz(start + (mn/(S/e)) LBO + (mn%(S/e)) e + (k/8) SBO + (k%8) S)
//
// swz XORs the 16-byte chunk (bits 4..) with the 128-byte line index (bits 7..) of the
// *absolute* shared-memory address, modulo S/16 lines; with a base offset b the line index is
// counted from b: chunk ^= ((addr >> 7) - b) mod (S/16). That base-offset rule was measured
// on the H200 (tests/golden/hw/h200_wgmma.json, 14 records) and is PTX's "base offset =
// (pattern start >> 7) % 8"; for tcgen05 it is the same PTX text, not measured.
//
//   128B, start 0, base offset 0: (mn, k) = (1, 0) fp16 K-major -> 128 ^ (1 << 4) = 144
//   128B, start 0, base offset 3: the same element -> 128 ^ (((1 - 3) mod 8) << 4) = 224
#pragma once

#include <cstdint>

#include "tirx_verify/hw/swizzle.hpp"

namespace tirx::hw {

enum class DescriptorVariant { kHopper, kBlackwell };

struct SmemDescriptor {
  std::uint32_t start_address = 0;  // bytes, 16-byte aligned, < 2^18
  std::uint32_t lbo = 0;            // leading-dimension byte offset, 16-byte aligned, < 2^18
  std::uint32_t sbo = 0;            // stride-dimension byte offset, 16-byte aligned, < 2^18
  int base_offset = 0;              // 3 bits
  bool lbo_absolute = false;        // bit 52 (Blackwell only)
  TmaSwizzle swizzle = TmaSwizzle::kNone;  // none, 32B, 64B, 128B, 128B_ATOM_32B (Blackwell)
  DescriptorVariant variant = DescriptorVariant::kBlackwell;

  // Throws InputError("smem.descriptor"): unaligned or too large address fields, a swizzle
  // mode the variant cannot express, base_offset outside [0, 8), lbo_absolute on Hopper.
  std::uint64_t encode() const;
  // Throws InputError("smem.descriptor"): Blackwell version bits 46..48 not 0b001, Hopper
  // bits 46..48 not 0, a reserved swizzle code, non-zero reserved bits.
  static SmemDescriptor decode(std::uint64_t bits, DescriptorVariant variant = DescriptorVariant::kBlackwell);

  // Byte address of operand element (mn, k) of elem_bytes-byte elements (formulas above).
  // Throws InputError("smem.descriptor") for what is not modelled: the absolute LBO mode,
  // 128B_ATOM_32B (its MN-major K stride is unstated), K-major k beyond the swizzle span,
  // elem_bytes not 1, 2, 4 or 8, negative indices.
  std::uint64_t element_address(int mn, int k, int elem_bytes, bool mn_major) const;
  // The same in bits, for elem_bits 4, 8, 16, 32 or 64: sub-byte elements (float4_e2m1fn,
  // two per byte) have T = 128 / elem_bits elements per 16-byte core-matrix row, and element
  // (mn, k) starts at bit (k % T) * elem_bits (K-major) of its row. element_address(mn, k, e,
  // major) == element_bit_address(mn, k, 8 e, major) / 8. Throws as element_address.
  std::uint64_t element_bit_address(int mn, int k, int elem_bits, bool mn_major) const;

  // tcgen05.cp source: byte address of 16-byte chunk `chunk` of row `row` (K-major bytes).
  std::uint64_t chunk_address(int row, int chunk) const { return element_address(row, 16 * chunk, 1, false); }
};

// element_bit_address with the descriptor, element size and major-ness fixed: validated once
// (throws as element_address), then `bit(mn, k)` is plain arithmetic, for checkers that walk
// every element of a tile. bit(mn, k) == desc.element_bit_address(mn, k, elem_bits, mn_major),
// except that a K-major k beyond the swizzle span is not rejected (callers keep k in range).
class CanonicalAddresser {
 public:
  CanonicalAddresser(const SmemDescriptor& d, int elem_bits, bool mn_major);
  std::uint64_t bit(std::uint64_t mn, std::uint64_t k) const {
    if (span_ == 0) {
      if (!mn_major_)
        return 8 * (start_ + (mn / 8) * sbo_ + (k / t_) * lbo_ + (mn % 8) * 16) + (k % t_) * bits_;
      return 8 * (start_ + (mn / t_) * sbo_ + (k / 8) * lbo_ + (k % 8) * 16) + (mn % t_) * bits_;
    }
    const std::uint64_t pre_bits =
        mn_major_ ? 8 * (start_ + (mn / row_) * lbo_ + (k / 8) * sbo_ + (k % 8) * span_) + (mn % row_) * bits_
                  : 8 * (start_ + (mn / 8) * sbo_ + (mn % 8) * span_) + k * bits_;
    const std::uint64_t line = pre_bits >> 10;  // (byte address >> 7)
    return pre_bits ^ (((line + shift_) % lines_) << 7);
  }

 private:
  std::uint64_t start_, lbo_, sbo_, bits_, t_, span_ = 0, row_ = 0, lines_ = 1, shift_ = 0;
  bool mn_major_;
};

}  // namespace tirx::hw
