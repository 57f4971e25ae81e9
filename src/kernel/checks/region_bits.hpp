// Storage bit addresses of a region's elements, and the way back (internal to the kernel
// checks that compare an instruction's addresses with a layout's: kernel.tma-layout,
// kernel.mma-descriptor).
//
// Addresses are in bits so that sub-byte elements (float4_e2m1fn, two per byte) are exact:
//
//   scope    bit address of element x
//   shared   8 * placement + m(x) * bits      (absolute: the placement of the storage root)
//   global   m(x) * bits                      (from the tensor base)
//
// m(x) is the layout's m (swizzle applied), first replica. The region's layout is sliced once
// (layout/ops.hpp slice) and swept (layout/sweep.hpp) — no per-element allocation. For
// Asmem (2, 128, 64) float16 at byte 1024 with mma_shared_layout 128B, region Asmem[1, :, :]
// element 65 (row 1, column 1) has m = 8192 + 64 + 8 ^ ... and bit address 8 * (1024 + 2 m).
//
// BitIndex inverts a RegionBits: which region element holds a storage bit. A TileLayout slice
// whose strides nest (each stride beyond the reach of the smaller ones: row-major, padded,
// permuted tensors) is decoded by division in O(rank); anything else (swizzles, broadcasts)
// by binary search in the sorted addresses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tirx_verify/hw/swizzle.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/region.hpp"

namespace tirx::kernel::checks {

struct RegionBits {
  std::vector<std::int64_t> bits;  // per region element (row-major): its first storage bit
  std::int64_t elem_bits = 0;
  std::string why_not;             // set when the addresses are unavailable (then `bits` is empty)
  bool ok() const { return why_not.empty(); }

  // The affine form when the sliced layout is a TileLayout on m: bit = base + sum d_k stride_k,
  // region index = sum d_k weight_k over the digits d_k in [0, extent_k).
  struct Digit {
    std::int64_t extent, stride_bits, weight;
  };
  std::optional<std::vector<Digit>> affine;
  std::int64_t affine_base_bits = 0;
};

// Bit addresses of every element of `r` (a region of `b`, a shared or global buffer).
// Unavailable (why_not) when the layout did not parse, the dtype is unknown, the region has
// more than `max_elements` elements, or the layout maps onto axes other than m.
// With want_bits false, a region whose slice is affine gets only its affine form (`bits` stays
// empty): enough for a BitIndex whose digits nest (check BitIndex::usable()).
RegionBits region_bits(const ResolvedBuffer& b, const Region& r, std::int64_t max_elements, bool want_bits = true);

class BitIndex {
 public:
  explicit BitIndex(const RegionBits& rb);
  // False when the digits do not nest and the RegionBits has no per-element addresses.
  bool usable() const { return use_nested_ || !rb_.bits.empty(); }
  struct Hit {
    std::int64_t index;     // region element
    std::int64_t bit_off;   // bit inside the element, [0, elem_bits)
  };
  // The region element whose storage holds `bit`; nullopt when none does.
  std::optional<Hit> find(std::int64_t bit) const;
  // find(), plus how many of the next elements (at bit + k * elem_bits, k = 1..run) are the
  // region elements hit.index + k * step — so a caller walking contiguous storage can skip
  // the decoding (run is 0 unless the digits nest and the innermost one is contiguous).
  std::optional<Hit> find_run(std::int64_t bit, std::int64_t& run, std::int64_t& step) const;

 private:
  const RegionBits& rb_;
  std::vector<RegionBits::Digit> nested_;  // strides descending, when the digits nest
  bool use_nested_ = false;
  std::vector<std::pair<std::int64_t, std::int64_t>> sorted_;  // (bit, index)
};

// The hardware swizzle (TMA / matrix-descriptor mode, hw/swizzle.hpp) a shared layout
// implements on byte addresses for `elem_bits`-bit elements: none for a TileLayout or a
// zero-width swizzle; 32B/64B/128B for ComposeLayout(M, B, 3, ..., swizzle_inner=True) whose
// 2^M elements are 16 bytes (M = log2(128 / elem_bits)). nullopt for any other swizzle (a
// per_element that is not one 16-byte chunk, atom_len != 3, swizzle_inner=False): no hardware
// mode writes that pattern.
std::optional<hw::TmaSwizzle> layout_hw_swizzle(const Layout& l, int elem_bits);
// Bytes of one period of the layout's swizzle (2^(M+B+S) elements); 0 without a swizzle.
std::int64_t layout_swizzle_period_bytes(const Layout& l, int elem_bits);

// For a shared buffer whose layout is a hardware swizzle and whose storage root does not
// start on a period boundary: "Asmem starts at byte 1408, 3 lines past a 1024-byte boundary:
// the 128B pattern is shifted by 3 (base offset 3); the layout assumes phase 0", and in `fix`
// the next aligned placement. Empty when aligned or not swizzled.
std::string swizzle_phase_note(const KernelContext& ctx, const ResolvedBuffer& s, std::string* fix);

}  // namespace tirx::kernel::checks
