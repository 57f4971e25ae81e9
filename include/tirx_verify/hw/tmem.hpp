// tirx_verify/hw/tmem.hpp — Blackwell tensor memory: addresses, cells, the warp sub-partition rule.
//
// TMEM (PTX ISA 9.1 §9.7.16.1) is a per-CTA 2-D array of 32-bit cells, 128 lanes (rows) x
// 512 columns on sm_100a (sizes from Target::tmem). An address is one 32-bit word
// (§9.7.16.1.1 "Tensor Memory Addressing"):
//
//    31                16 15                 0
//   +-------------------+-------------------+
//   |       lane        |      column       |      taddr = lane << 16 | column
//   +-------------------+-------------------+
//
//   address      lane  column
//   0x00000000     0      0      first cell
//   0x00100020    16     32      the upper half-slab of warp 0, column 32
//   0x0060001F    96     31      warp 3's first lane
//
// Sub-partitions (§9.7.16.8.1 "Access restrictions"): the lanes are split into
// warps_per_warpgroup (4) groups of 32. Warp w of a warpgroup (w = warp_id % 4) may reach
// lanes [32w, 32w+31] with tcgen05.ld/st, and all columns:
//
//   warp 0: lanes   0..31     warp 1: lanes 32..63
//   warp 2: lanes  64..95     warp 3: lanes 96..127
//
// Element packing (the TCol axis of a TIRx layout counts buffer elements, not cells):
// 32-bit elements take one cell each; 16-bit elements two per cell (element 2c in bits
// 15..0 of column c, 2c+1 in bits 31..16); 8-bit scale factors four per cell (element s in
// byte s % 4 of column s / 4). tcgen05.mma accumulators are never packed (§9.7.16.10.4.1).
//
// Each cell also carries a mask of the bits whose value is known; freshly allocated TMEM is
// undefined (mask 0), and reading it is visible as unknown bits rather than as zeros.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tmem_alloc.hpp"

namespace tirx::hw {

// A TMEM address (see the diagram above). A tiny value type; no range checks here.
struct TmemAddress {
  std::uint32_t raw = 0;

  static constexpr TmemAddress make(std::uint32_t lane, std::uint32_t col) {
    return TmemAddress{((lane & 0xFFFFu) << 16) | (col & 0xFFFFu)};
  }
  constexpr int lane() const { return static_cast<int>(raw >> 16); }
  constexpr int col() const { return static_cast<int>(raw & 0xFFFFu); }
  // Adds to the lane and column fields separately (TIRx get_tmem_addr: each field masked to
  // 16 bits).
  constexpr TmemAddress offset(int dlane, int dcol) const {
    return make(static_cast<std::uint32_t>(lane() + dlane), static_cast<std::uint32_t>(col() + dcol));
  }
  friend constexpr bool operator==(TmemAddress, TmemAddress) = default;
};

// "0x00100020 (lane 16, column 32)".
std::string describe(TmemAddress a);

// Where one element of a TMEM buffer lives inside its cell.
struct TmemElementSlot {
  int col = 0;  // 32-bit column, relative to the buffer's first column
  int bit = 0;  // lowest bit of the element inside the cell (0, 8, 16 or 24)
  int bits = 0; // element width
};

// Slot of buffer element `elem_col` (a TCol coordinate, elements) for an element width of
// 8, 16 or 32 bits. Throws InputError("tmem.address") for another width or a negative column.
TmemElementSlot tmem_element_slot(std::int64_t elem_col, int elem_bits);

// Lanes [first, last] that warp `warp_in_wg` (0..warps_per_warpgroup-1) may access.
struct LaneRange {
  int first = 0;
  int last = 0;
};
LaneRange subpartition_lanes(const Target& target, int warp_in_wg);

// Throws InputError("tmem.partition") unless lanes [lane_first, lane_first + lane_count)
// all lie in the sub-partition of warp `warp_in_wg`. The message names the instruction,
// the warp, the base address and the allowed lanes. Throws InputError("tmem.address") if
// warp_in_wg is not in [0, warps_per_warpgroup).
void check_partition(const Target& target, std::string_view instr, int warp_in_wg, TmemAddress base,
                     int lane_first, int lane_count);

// One cell's content: value and the mask of known bits.
struct TmemCell {
  std::uint32_t value = 0;
  std::uint32_t known = 0;
};

// The tensor memory of one CTA, with its allocator.
class Tmem {
 public:
  // Throws InputError("target.feature") if the target has no TMEM.
  explicit Tmem(const Target& target);

  const Target& target() const { return target_; }
  const TmemGeometry& geometry() const { return geom_; }
  TmemAllocator& allocator() { return alloc_; }
  const TmemAllocator& allocator() const { return alloc_; }

  // Throws InputError("tmem.address") if (lane, col) is outside the array, and
  // InputError("tmem.alloc") if the column is not currently allocated. `instr` names the
  // instruction in the message.
  void check_access(int lane, int col, std::string_view instr) const;

  TmemCell read(int lane, int col, std::string_view instr = "read") const;
  // Writes the bits of `value` selected by `mask`; those bits become known, the others keep
  // their value and knownness.
  void write(int lane, int col, std::uint32_t value, std::uint32_t mask = 0xFFFFFFFFu,
             std::string_view instr = "write");
  // Replaces the bits selected by `mask` with those of `cell`, value and knownness alike
  // (a bit that `cell` does not know becomes unknown).
  void store(int lane, int col, TmemCell cell, std::uint32_t mask, std::string_view instr = "write");

 private:
  std::size_t index(int lane, int col) const { return static_cast<std::size_t>(lane) * geom_.columns + col; }
  Target target_;
  TmemGeometry geom_;
  TmemAllocator alloc_;
  std::vector<TmemCell> cells_;
};

}  // namespace tirx::hw
